/// The fields an update changes; what it leaves `nil`, `.keep` or out of `values` stays as it is.
public struct TaskChanges: Equatable, Sendable {
    public var title: String?
    public var notes: String?
    public var list: String?
    public var addTags: [String]
    public var removeTags: [String]
    /// `.clear` stops repeating (`--every ''`).
    public var `repeat`: FieldUpdate<RepeatRule>
    /// The fields set through their `FieldEdit` (due, priority, wait…): each one's new value,
    /// `.none` clearing it.
    public var values: [TaskField: FieldValue]

    /// Changes to the given fields.
    public init(title: String? = nil, notes: String? = nil, list: String? = nil, due: FieldUpdate<CalendarDay> = .keep,
                priority: FieldUpdate<Priority> = .keep, addTags: [String] = [], removeTags: [String] = [],
                repeat rule: FieldUpdate<RepeatRule> = .keep, wait: FieldUpdate<CalendarDay> = .keep,
                values: [TaskField: FieldValue] = [:]) {
        self.repeat = rule
        self.title = title
        self.notes = notes
        self.list = list
        self.addTags = addTags
        self.removeTags = removeTags
        self.values = values
        if let value = due.value({ .date(TaskDate($0)) }) { self.values[.due] = value }
        if let value = priority.value(FieldValue.priority) { self.values[.priority] = value }
        if let value = wait.value({ .date(TaskDate($0)) }) { self.values[.wait] = value }
    }

    /// Whether nothing would change.
    public var isEmpty: Bool {
        title == nil && notes == nil && list == nil && addTags.isEmpty && removeTags.isEmpty && self.repeat.isKeep && values.isEmpty
    }

    /// `task` with `values` set (the named fields are the store's to apply, each its own way).
    public func applyingValues(to task: inout Task) {
        for (field, value) in values { TaskFields.spec(field).assign(value, to: &task) }
    }
}

extension FieldUpdate {
    /// As a field's new value (`.none` for a clear); `nil` for `.keep`.
    func value(_ typed: (Value) -> FieldValue) -> FieldValue? {
        switch self {
        case .keep: nil
        case .set(let value): typed(value)
        case .clear: FieldValue.none
        }
    }
}
