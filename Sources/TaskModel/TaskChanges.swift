/// The fields an update changes; `nil` leaves a field as it is.
public struct TaskChanges: Equatable, Sendable {
    public var title: String?
    public var notes: String?
    public var list: String?
    /// `.some(nil)` clears the due date.
    public var due: CalendarDay??
    /// `.some(nil)` clears the priority.
    public var priority: Priority??
    public var addTags: [String]
    public var removeTags: [String]
    /// `.some(nil)` stops repeating (`--every ''`).
    public var `repeat`: RepeatRule??
    /// `.some(nil)` clears the wait.
    public var wait: CalendarDay??

    /// Changes to the given fields.
    public init(title: String? = nil, notes: String? = nil, list: String? = nil, due: CalendarDay?? = nil,
                priority: Priority?? = nil, addTags: [String] = [], removeTags: [String] = [],
                repeat rule: RepeatRule?? = nil, wait: CalendarDay?? = nil) {
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
        title == nil && notes == nil && list == nil && due == nil && priority == nil && addTags.isEmpty && removeTags.isEmpty
            && self.repeat == nil && wait == nil
    }
}
