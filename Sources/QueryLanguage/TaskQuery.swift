import TaskModel
import TextFormats
/// Which tasks to fetch, in what order, in what sections.
public struct TaskQuery: Equatable, Hashable, Sendable {
    /// Pending, done, or both.
    public enum Status: Equatable, Hashable, Sendable { case pending, done, all }
    /// The order inside a section.
    public enum Sort: Equatable, Hashable, Sendable {
        /// Manual order (the list, then its positions).
        case manual
        /// Due date first (undated last), then manual order.
        case due
        /// High to low (none last), then manual order.
        case priority
        /// Oldest first.
        case created
        /// By id: the order tasks were added in (what `export` writes).
        case id
        /// The longest running first (`tasks active`), then by id.
        case started
        /// By `TaskRank`'s score on the query's `today`, highest first (`tasks next`).
        case rank
        /// By each key in turn (`--sort due,priority-`), then in manual order.
        case keys([SortKey])
    }
    /// Tasks waiting (their wait still ahead on `today`): hidden, only they, or shown too.
    public enum Waiting: Equatable, Hashable, Sendable { case hidden, only, shown }
    /// How the results fall into sections.
    public enum Grouping: Equatable, Hashable, Sendable { case byList, byStatus, none }

    public var status: Status
    /// A case-insensitive substring of the title or the notes.
    public var search: String?
    /// Due strictly before this date (a day: before its first moment).
    public var dueBefore: TaskDate?
    /// Due on or after this date (a day: from its first moment; `tasks calendar`'s months).
    public var dueFrom: TaskDate?
    /// Only the started tasks (`tasks active`).
    public var active = false
    /// Only the tasks of these uuids (a task's blockers, for `show`).
    public var uuids: [String]?
    /// Only the tasks waiting on the task of this uuid (its dependants).
    public var waitingOn: String?
    /// Only tasks whose due date is past (`--overdue`): a day before today, a moment before now.
    public var overdue = false
    /// The filter's words, parsed (`+bills list:Home due.before:eow`): ANDed with the rest.
    public var filter: TaskFilter?
    public var sort: Sort
    public var grouping: Grouping
    /// Which waiting tasks show; decided on `today`, when the query is read.
    public var waiting: Waiting
    /// Which expired tasks (pending, their until day past on `today`) show: the same three
    /// choices as for waiting ones.
    public var expired: Waiting = .hidden
    /// The day the query is read on: what waiting and ranking count from (nil: every task
    /// shows, whatever its wait; a rank counts from 1970).
    public var today: CalendarDay?
    /// The local clock's reading when the query is read (`TaskDate.reading`), for the dates
    /// that are moments: a wait at 14:00 is over at 14:00, not at the end of its day. `nil`:
    /// the start of `today`.
    public var now: String?
    /// At most this many rows when the whole result is streamed (`tasks next`).
    public var limit: Int?
    /// The points of `next`'s score (the configuration's `next.*`).
    public var rankWeights = TaskRank.Weights.standard
    /// The deleted tasks' tombstones read too, though the filter names no deleted status:
    /// what Taskwarrior's export carries.
    public var withDeleted = false

    /// Whether the tombstones are read with the tasks: asked for, or named by the filter.
    public var includesDeleted: Bool { withDeleted || filter?.namesDeleted == true }

    /// A query; by default the pending tasks of every list, by list, in manual order.
    public init(status: Status = .pending, filter: TaskFilter? = nil, search: String? = nil, dueBefore: TaskDate? = nil,
                sort: Sort = .manual, grouping: Grouping = .byList, waiting: Waiting = .hidden, today: CalendarDay? = nil) {
        self.waiting = waiting
        self.today = today
        self.status = status
        self.filter = filter
        self.search = search
        self.dueBefore = dueBefore
        self.sort = sort
        self.grouping = grouping
    }

    /// Every task — done, waiting and expired too — by id, with `filter`, read on `today` at
    /// `now` in `zone` (what the tests comparing SQL with Swift read).
    public static func every(_ filter: TaskFilter?, today: CalendarDay, now: Timestamp, zone: LocalTime) -> TaskQuery {
        var query = TaskQuery(status: .all, sort: .id, grouping: .none, waiting: .shown, today: today)
        query.expired = .shown
        query.now = TaskDate.reading(now, in: zone, today: today)
        query.filter = filter
        return query
    }

    /// `now`, or the start of `today`: what a moment is compared with.
    public var clockReading: String? {
        now ?? today.map { $0.description + "T00:00:00" }
    }

    /// Whether `task` passes the filter — the same test the store makes in SQL, for reactors
    /// that place a changed task without fetching again.
    public func matches(_ task: Task, world: FilterWorld = .unknown) -> Bool {
        if task.isDeleted && !includesDeleted { return false }
        switch status {
        case .pending: if task.isDone { return false }
        case .done: if !task.isDone { return false }
        case .all: break
        }
        if active && !task.isActive { return false }
        if let uuids, !uuids.contains(task.uuid) { return false }
        if let waitingOn, !task.depends.contains(waitingOn) { return false }
        if let dueFrom {
            guard let due = task.due, !(due < dueFrom) else { return false }
        }
        if let dueBefore {
            guard let due = task.due, due < dueBefore else { return false }
        }
        if let today {
            let now = clockReading ?? today.description
            if overdue {
                guard let due = task.due, due.isPast(today: today, now: now) else { return false }
            }
            switch waiting {
            case .hidden: if task.isWaiting(on: today, at: now) { return false }
            case .only: if !task.isWaiting(on: today, at: now) { return false }
            case .shown: break
            }
            switch expired {
            case .hidden: if task.isExpired(on: today, at: now) { return false }
            case .only: if !task.isExpired(on: today, at: now) { return false }
            case .shown: break
            }
        }
        if let filter, !filter.matches(task, clock: filterClock, world: world) { return false }
        if let search, !search.isEmpty {
            let needle = TaskQuery.foldCase(search)
            if !TaskQuery.foldCase(task.title).contains(needle) && !TaskQuery.foldCase(task.notes).contains(needle) {
                return false
            }
        }
        return true
    }

    /// The clock the filter is read on: `today` and the clock's reading (1970 without them).
    public var filterClock: FilterClock {
        let day = today ?? .unixEpoch
        return FilterClock(today: day, reading: clockReading ?? day.description + "T00:00:00")
    }

    /// Whether `a` comes before `b` in this query's order (the same order as the store's SQL).
    public func orders(_ a: Task, before b: Task) -> Bool {
        func manual(_ a: Task, _ b: Task) -> Bool {
            (a.list, a.position, a.id) < (b.list, b.position, b.id)
        }
        switch sort {
        case .manual:
            return manual(a, b)
        case .due:
            switch (a.due, b.due) {
            case let (x?, y?) where x != y: return x < y
            case (.some, .none): return true
            case (.none, .some): return false
            default: return manual(a, b)
            }
        case .priority:
            let x = a.priority?.rank ?? 3
            let y = b.priority?.rank ?? 3
            return x != y ? x < y : manual(a, b)
        case .created:
            return (a.created, a.id) < (b.created, b.id)
        case .id:
            return a.id < b.id
        case .started:
            return (a.start ?? .unixEpoch, a.id) < (b.start ?? .unixEpoch, b.id)
        case .rank:
            let day = today ?? .unixEpoch
            let (x, y) = (TaskRank(a, today: day, weights: rankWeights).score, TaskRank(b, today: day, weights: rankWeights).score)
            return x != y ? x > y : a.id < b.id
        case .keys(let keys):
            for key in keys {
                if let first = key.orders(a, b, today: today ?? .unixEpoch, weights: rankWeights) { return first }
            }
            return manual(a, b)
        }
    }

    /// Case folding in every script, as the store's search index folds (`ärger` is `Ärger`,
    /// `σίσυφος` is `ΣΊΣΥΦΟΣ`): lower case, with the final sigma as sigma (`CaseFolding`).
    public static func foldCase(_ text: String) -> String { CaseFolding.folded(text) }
}

extension TaskDetails {
    /// The query that finds `task`'s blockers (`blockers`), and the one for `blocking`.
    public static func blockersQuery(of task: Task) -> TaskQuery {
        var query = TaskQuery(status: .all, grouping: .none)
        query.uuids = task.depends
        return query
    }

    public static func blockingQuery(of task: Task) -> TaskQuery {
        var query = TaskQuery(status: .pending, grouping: .none)
        query.waitingOn = task.uuid
        return query
    }
}
