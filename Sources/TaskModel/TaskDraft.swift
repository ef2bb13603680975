/// The fields of a new task; the store fills in id, uuid, position and times.
public struct TaskDraft: Equatable, Sendable {
    public var title: String
    public var notes: String
    public var list: String
    public var due: CalendarDay?
    public var priority: Priority?
    public var tags: [String]
    /// Set by imports; `nil` makes a new one.
    public var uuid: String?
    public var `repeat`: RepeatRule?
    public var wait: CalendarDay?

    /// A draft with the given fields.
    public init(title: String, notes: String = "", list: String = Task.defaultList, due: CalendarDay? = nil,
                priority: Priority? = nil, tags: [String] = [], uuid: String? = nil, repeat rule: RepeatRule? = nil,
                wait: CalendarDay? = nil) {
        self.repeat = rule
        self.wait = wait
        self.title = title
        self.notes = notes
        self.list = list
        self.due = due
        self.priority = priority
        self.tags = tags
        self.uuid = uuid
    }
}
