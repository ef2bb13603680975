/// A new task, as given: every field a person or a file sets on it. The store fills in the
/// rest — id, uuid (unless given), position, times, and the series of a repeating task.
public struct TaskDraft: Equatable, Sendable {
    /// The new task's fields; its id, uuid, position, times, series and anchor are ignored.
    public var fields: Task
    /// Set by imports; `nil` makes a new one.
    public var uuid: String?
    /// Tasks the new one waits on, and tasks that wait on it, by id (`add --blocked-by`).
    public var dependencies = DependencyChanges()

    /// A draft of `fields` (their identity and times are the store's to give).
    public init(fields: Task, uuid: String? = nil) {
        self.fields = fields
        self.uuid = uuid
    }

    /// A draft with the given fields.
    public init(title: String, notes: String = "", list: String = Task.defaultList, due: CalendarDay? = nil,
                priority: Priority? = nil, tags: [String] = [], uuid: String? = nil, repeat rule: RepeatRule? = nil,
                wait: CalendarDay? = nil) {
        self.init(fields: Task(unsaved: title, notes: notes, list: list, tags: tags), uuid: uuid)
        fields.due = due.map(TaskDate.init)
        fields.priority = priority
        fields.repeat = rule
        fields.wait = wait.map(TaskDate.init)
    }
}

extension Task {
    /// A task not yet stored: the given fields, every other one empty, no id, uuid or times.
    public init(unsaved title: String, notes: String = "", list: String = Task.defaultList, tags: [String] = []) {
        self.init(id: 0, uuid: "", title: title, notes: notes, list: list, tags: tags,
                  created: .unixEpoch, modified: .unixEpoch)
    }
}
