/// A task as another file holds it, on its way in: every field of the contract, with what
/// the file may leave out optional. The store matches it by `uuid` — a task already there is
/// updated, not duplicated — and fills in what is missing.
public struct TaskRecord: Equatable, Sendable {
    /// The task's fields as the file gives them. Its id, uuid, position and times are the
    /// optional ones below; `completed` on a done task may be `nil` ("when it was last
    /// modified"); `series` and `anchor`, `nil` with a rule: this task starts a series.
    public var fields: Task
    /// Kept when the database has never used it; otherwise the task gets a new one.
    public var id: Int64?
    /// `nil` makes a new one.
    public var uuid: String?
    /// `nil`: a new task goes to the bottom of its list; a known one keeps its place.
    public var position: Int64?
    /// `nil`: now.
    public var created: Timestamp?
    /// `nil`: now.
    public var modified: Timestamp?

    /// A record of `fields` (their id, uuid, position and times are left out).
    public init(fields: Task, id: Int64? = nil, uuid: String? = nil, position: Int64? = nil, created: Timestamp? = nil,
                modified: Timestamp? = nil) {
        var fields = fields
        fields.id = 0
        fields.uuid = ""
        fields.position = 0
        fields.created = .unixEpoch
        fields.modified = .unixEpoch
        self.fields = fields
        self.id = id
        self.uuid = uuid
        self.position = position
        self.created = created
        self.modified = modified
    }

    /// A record with the given fields.
    public init(
        id: Int64? = nil, uuid: String? = nil, title: String, notes: String = "", list: String = Task.defaultList,
        isDone: Bool = false, completed: Timestamp? = nil, due: CalendarDay? = nil, priority: Priority? = nil,
        tags: [String] = [], position: Int64? = nil, created: Timestamp? = nil, modified: Timestamp? = nil,
        repeat rule: RepeatRule? = nil, series: String? = nil, anchor: CalendarDay? = nil, wait: CalendarDay? = nil
    ) {
        var fields = Task(unsaved: title, notes: notes, list: list, tags: tags)
        fields.isDone = isDone
        fields.completed = completed
        fields.due = due.map(TaskDate.init)
        fields.priority = priority
        fields.repeat = rule
        fields.series = series
        fields.anchor = anchor
        fields.wait = wait.map(TaskDate.init)
        self.init(fields: fields, id: id, uuid: uuid, position: position, created: created, modified: modified)
    }

    /// The record of `task`, every field given: what an export of our own format reads back as.
    public init(_ task: Task) {
        self.init(fields: task, id: task.id, uuid: task.uuid, position: task.position, created: task.created, modified: task.modified)
    }
}

extension TaskRecord {
    /// The task this record makes, over `existing` (the task with its uuid) or as a new one
    /// with `id`, `uuid` and `bottom` (the next free position in its list). What the record
    /// leaves out is kept from `existing`, or is `now`. When nothing differs from `existing`,
    /// the result equals it: an import run twice changes nothing.
    public consuming func task(over existing: Task?, id: Int64, uuid: String, bottom: @autoclosure () throws -> Int64,
                               now: Timestamp) rethrows -> Task {
        // The record's own fields become the task, changed in place (copied into another
        // task and the record let go, each field was retained and released once more: a
        // tenth of the import's writing).
        let completed = fields.completed
        let tags = fields.tags
        fields.tags = tags.count < 2 ? tags.filter { !$0.isEmpty } : Array(Set(tags.filter { !$0.isEmpty })).sorted()
        fields.id = existing?.id ?? id
        fields.uuid = existing?.uuid ?? uuid
        fields.completed = nil
        fields.created = created ?? existing?.created ?? now
        fields.modified = now
        if fields.repeat != nil {
            fields.series = fields.series ?? existing?.series ?? fields.uuid
            fields.anchor = fields.anchor ?? existing?.anchor ?? fields.due?.day
        } else {
            fields.series = nil
            fields.anchor = nil
        }
        if let position {
            fields.position = position
        } else if let existing, existing.list == fields.list {
            fields.position = existing.position
        } else {
            fields.position = try bottom()
        }
        if fields.isDone {
            fields.completed = completed ?? (existing?.isDone == true ? existing?.completed : nil) ?? modified ?? now
        }
        if let modified {
            fields.modified = modified
        } else if let existing {
            // Unstamped (todo.txt): the task changes only if a field does.
            var same = fields
            same.modified = existing.modified
            fields.modified = same == existing ? existing.modified : now
        }
        return fields
    }
}
