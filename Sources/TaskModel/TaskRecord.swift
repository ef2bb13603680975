/// A task as another file holds it, on its way in: every field of the contract, with what
/// the file may leave out optional. The store matches it by `uuid` — a task already there is
/// updated, not duplicated — and fills in what is missing.
public struct TaskRecord: Equatable, Sendable {
    /// Kept when the database has never used it; otherwise the task gets a new one.
    public var id: Int64?
    /// `nil` makes a new one.
    public var uuid: String?
    public var title: String
    public var notes: String
    public var list: String
    public var isDone: Bool
    /// `nil` on a done task means "when it was last modified".
    public var completed: Timestamp?
    public var due: CalendarDay?
    public var priority: Priority?
    public var tags: [String]
    /// `nil`: a new task goes to the bottom of its list; a known one keeps its place.
    public var position: Int64?
    /// `nil`: now.
    public var created: Timestamp?
    /// `nil`: now.
    public var modified: Timestamp?
    public var `repeat`: RepeatRule?
    /// The series and the day its schedule counts from; `nil` with a rule: this task starts it.
    public var series: String?
    public var anchor: CalendarDay?
    public var wait: CalendarDay?

    public init(
        id: Int64? = nil, uuid: String? = nil, title: String, notes: String = "", list: String = Task.defaultList,
        isDone: Bool = false, completed: Timestamp? = nil, due: CalendarDay? = nil, priority: Priority? = nil,
        tags: [String] = [], position: Int64? = nil, created: Timestamp? = nil, modified: Timestamp? = nil,
        repeat rule: RepeatRule? = nil, series: String? = nil, anchor: CalendarDay? = nil, wait: CalendarDay? = nil
    ) {
        self.repeat = rule
        self.series = series
        self.anchor = anchor
        self.wait = wait
        self.id = id
        self.uuid = uuid
        self.title = title
        self.notes = notes
        self.list = list
        self.isDone = isDone
        self.completed = completed
        self.due = due
        self.priority = priority
        self.tags = tags
        self.position = position
        self.created = created
        self.modified = modified
    }

    /// The record of `task`, every field given: what an export of our own format reads back as.
    public init(_ task: Task) {
        self.init(id: task.id, uuid: task.uuid, title: task.title, notes: task.notes, list: task.list, isDone: task.isDone,
                  completed: task.completed, due: task.due, priority: task.priority, tags: task.tags,
                  position: task.position, created: task.created, modified: task.modified, repeat: task.repeat,
                  series: task.series, anchor: task.anchor, wait: task.wait)
    }
}

extension TaskRecord {
    /// The task this record makes, over `existing` (the task with its uuid) or as a new one
    /// with `id`, `uuid` and `bottom` (the next free position in its list). What the record
    /// leaves out is kept from `existing`, or is `now`. When nothing differs from `existing`,
    /// the result equals it: an import run twice changes nothing.
    public func task(over existing: Task?, id: Int64, uuid: String, bottom: @autoclosure () throws -> Int64,
                     now: Timestamp) rethrows -> Task {
        let tags = self.tags.count < 2 ? self.tags.filter { !$0.isEmpty } : Array(Set(self.tags.filter { !$0.isEmpty })).sorted()
        var task = Task(
            id: existing?.id ?? id, uuid: existing?.uuid ?? uuid, title: title, notes: notes, list: list, isDone: isDone,
            completed: nil, due: due, priority: priority, tags: tags, position: 0,
            created: created ?? existing?.created ?? now, modified: now, wait: wait
        )
        if let rule = self.repeat {
            task.repeat = rule
            task.series = series ?? existing?.series ?? task.uuid
            task.anchor = anchor ?? existing?.anchor ?? due
        }
        if let position {
            task.position = position
        } else if let existing, existing.list == list {
            task.position = existing.position
        } else {
            task.position = try bottom()
        }
        if isDone {
            task.completed = completed ?? (existing?.isDone == true ? existing?.completed : nil) ?? modified ?? now
        }
        if let modified {
            task.modified = modified
        } else if let existing {
            // Unstamped (todo.txt): the task changes only if a field does.
            var same = task
            same.modified = existing.modified
            task.modified = same == existing ? existing.modified : now
        }
        return task
    }
}
