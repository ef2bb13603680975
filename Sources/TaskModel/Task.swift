/// One task, with the fields of the command-line contract (docs/cli.md); each field is also
/// an entry of `TaskFields.all`, which the storage, history, sync and `show` go by.
public struct Task: Equatable, Hashable, Sendable {
    /// Stable, never reused, never renumbered.
    public var id: Int64
    /// For import, export and moving data between machines.
    public var uuid: String
    /// One line, not empty after trimming.
    public var title: String
    /// Free text; may be empty, may span lines.
    public var notes: String
    /// The section the task sits in.
    public var list: String
    /// Whether it is completed.
    public var isDone: Bool
    /// Whether it was deleted: a tombstone, kept (as Taskwarrior keeps deleted tasks) and read
    /// only by a filter that names `status:deleted`; never in the task table.
    public var isDeleted: Bool = false
    /// When it was completed, while done.
    public var completed: Timestamp?
    /// When it is due: a day, or a moment (`TaskDate`).
    public var due: TaskDate?
    /// `H`, `M` or `L`.
    public var priority: Priority?
    /// Words without spaces, sorted, each once.
    public var tags: [String]
    /// Manual order inside its list: smaller first. Gaps are normal.
    public var position: Int64
    /// When it was created.
    public var created: Timestamp
    /// When it last changed.
    public var modified: Timestamp
    /// How it repeats: done, it makes its next occurrence.
    public var `repeat`: RepeatRule?
    /// The series its occurrences share (the first one's uuid), while it repeats.
    public var series: String?
    /// The day the series' schedule counts from (a monthly task from the 31st returns to the 31st).
    public var anchor: CalendarDay?
    /// Hidden from lists until this day (through it) or moment.
    public var wait: TaskDate?
    /// When work on it can start (shown; not ready before it).
    public var scheduled: TaskDate? = nil
    /// The last day (or the moment) it is wanted: after it, still pending, it has expired —
    /// out of the default lists, kept, and listed by `--expired`.
    public var until: TaskDate? = nil
    /// What another tool wrote on it that has no field here, kept as it came so that going
    /// back loses nothing: the members of a JSON object (`"depends":[…],"estimate":"3h"`),
    /// empty when there are none. Taskwarrior's import fills it and its export writes it back.
    public var extras: String = ""
    /// When it was started, while it is active (`tasks start`); `nil` when it is not.
    public var start: Timestamp? = nil
    /// The time it was active before its current start, in seconds: each stop (or done) adds
    /// the time since its start.
    public var spent: Int64 = 0
    /// The uuids of the tasks it waits on (`--blocked-by`): while one of them is pending, it
    /// is blocked. Sorted, each once.
    public var depends: [String] = []
    /// The lines added to it at a moment, oldest first (`tasks annotate`).
    public var annotations: [Annotation] = []
    /// When it reminds: moments, or lengths of time from its due date or its start (a
    /// CalDAV item's VALARMs). Their texts sorted, each once.
    public var reminders: [Reminder] = []
    /// The uuid of the task it is a subtask of (CalDAV's `RELATED-TO;RELTYPE=PARENT`), if any.
    public var parent: String? = nil

    /// A task with every field given.
    public init(
        id: Int64, uuid: String, title: String, notes: String = "", list: String = Task.defaultList,
        isDone: Bool = false, completed: Timestamp? = nil, due: CalendarDay? = nil, priority: Priority? = nil,
        tags: [String] = [], position: Int64 = 0, created: Timestamp, modified: Timestamp,
        repeat rule: RepeatRule? = nil, series: String? = nil, anchor: CalendarDay? = nil, wait: CalendarDay? = nil
    ) {
        self.repeat = rule
        self.series = series
        self.anchor = anchor
        self.wait = wait.map(TaskDate.init)
        self.id = id
        self.uuid = uuid
        self.title = title
        self.notes = notes
        self.list = list
        self.isDone = isDone
        self.completed = completed
        self.due = due.map(TaskDate.init)
        self.priority = priority
        self.tags = tags
        self.position = position
        self.created = created
        self.modified = modified
    }

    /// A task of `id` and `uuid` with every other field empty, as the memberwise `init` would
    /// make it: what a decoder fills in column by column. Each field is set once, here; through
    /// `init(id:uuid:title:…)` a decoded row cost a copy and a destruction of a whole task more
    /// (a tenth of a listing's instructions, callgrind).
    public init(decodingID id: Int64, uuid: String) {
        self.id = id
        self.uuid = uuid
        title = ""
        notes = ""
        list = Task.defaultList
        isDone = false
        completed = nil
        due = nil
        priority = nil
        tags = []
        position = 0
        created = Timestamp(millisecondsSince1970: 0)
        modified = Timestamp(millisecondsSince1970: 0)
        self.repeat = nil
        series = nil
        anchor = nil
        wait = nil
    }

    /// The list a task goes to when none is named.
    public static let defaultList = "Inbox"

    /// Whether it is hidden on `today` at `now` (the local clock's reading,
    /// `TaskDate.reading`): its wait is still ahead.
    public func isWaiting(on today: CalendarDay, at now: String) -> Bool {
        wait.map { $0.isAhead(today: today, now: now) } ?? false
    }

    /// Whether it has expired by `now` on `today`: pending, its until past.
    public func isExpired(on today: CalendarDay, at now: String) -> Bool {
        !isDone && (until.map { $0.isPast(today: today, now: now) } ?? false)
    }

    /// Whether it is being worked on (started, not stopped).
    public var isActive: Bool { start != nil }

    /// The time spent on it by `now`, in seconds: what its stops added, and the time since its
    /// start while it is active. Never traps: a start or a total a peer sent at the ends of the
    /// integers gives the end, not a crash.
    public func timeSpent(at now: Timestamp) -> Int64 {
        let running = runningTime(at: now)
        let (sum, overflow) = spent.addingReportingOverflow(running)
        return overflow ? (running > 0 ? .max : .min) : sum
    }

    /// The seconds since its start while it is active (0 for a start still to come).
    public func runningTime(at now: Timestamp) -> Int64 {
        guard let start else { return 0 }
        let (elapsed, overflow) = now.millisecondsSince1970.subtractingReportingOverflow(start.millisecondsSince1970)
        if overflow { return start.millisecondsSince1970 < 0 ? .max / 1000 : 0 }
        return max(0, elapsed / 1000)
    }

    /// Whether it is overdue by `now` on `today`: pending, its due past.
    public func isOverdue(on today: CalendarDay, at now: String) -> Bool {
        !isDone && (due.map { $0.isPast(today: today, now: now) } ?? false)
    }
}

/// A task's priority.
public enum Priority: String, CaseIterable, Comparable, Sendable {
    case high = "H", medium = "M", low = "L"

    /// 0 for high, 2 for low: the order in which they sort.
    public var rank: Int {
        switch self {
        case .high: return 0
        case .medium: return 1
        case .low: return 2
        }
    }

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
}
