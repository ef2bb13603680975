/// The fields an update changes; what it leaves `nil` or `.keep` stays as it is.
public struct TaskChanges: Equatable, Sendable {
    public var title: String?
    public var notes: String?
    public var list: String?
    public var due: FieldUpdate<CalendarDay>
    public var priority: FieldUpdate<Priority>
    public var addTags: [String]
    public var removeTags: [String]
    /// `.clear` stops repeating (`--every ''`).
    public var `repeat`: FieldUpdate<RepeatRule>
    public var wait: FieldUpdate<CalendarDay>

    /// Changes to the given fields.
    public init(title: String? = nil, notes: String? = nil, list: String? = nil, due: FieldUpdate<CalendarDay> = .keep,
                priority: FieldUpdate<Priority> = .keep, addTags: [String] = [], removeTags: [String] = [],
                repeat rule: FieldUpdate<RepeatRule> = .keep, wait: FieldUpdate<CalendarDay> = .keep) {
        self.repeat = rule
        self.wait = wait
        self.title = title
        self.notes = notes
        self.list = list
        self.due = due
        self.priority = priority
        self.addTags = addTags
        self.removeTags = removeTags
    }

    /// Whether nothing would change.
    public var isEmpty: Bool {
        title == nil && notes == nil && list == nil && due.isKeep && priority.isKeep && addTags.isEmpty && removeTags.isEmpty
            && self.repeat.isKeep && wait.isKeep
    }
}
