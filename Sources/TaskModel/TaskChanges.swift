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
    /// Annotations to add, each at the moment of the change (`tasks annotate`).
    public var annotate: [String] = []
    /// Annotations to remove (`tasks denotate`).
    public var denotate: [AnnotationPick] = []
    /// Tasks this one starts or stops waiting on, and tasks that start or stop waiting on it.
    public var dependencies = DependencyChanges()
    /// Custom fields to set (their stored JSON value) or remove (`nil`), in `extras`.
    public var customs: [CustomValue] = []

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
            && annotate.isEmpty && denotate.isEmpty && dependencies.isEmpty && customs.isEmpty
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

/// Which annotation `tasks denotate` removes: the one with this text (else the only one that
/// contains it), or the `n`th, from 1, as `show` numbers them.
public enum AnnotationPick: Equatable, Sendable, CustomStringConvertible {
    case text(String)
    case number(Int)

    public var description: String {
        switch self {
        case .text(let text): text
        case .number(let number): String(number)
        }
    }

    /// Its index in `annotations`, if it names one.
    public func index(in annotations: [Annotation]) -> Int? {
        switch self {
        case .number(let number): return number >= 1 && number <= annotations.count ? number - 1 : nil
        case .text(let text):
            if let exact = annotations.firstIndex(where: { $0.text == text }) { return exact }
            let containing = annotations.indices.filter { annotations[$0].text.contains(text) }
            return containing.count == 1 ? containing[0] : nil
        }
    }
}

/// Dependencies a change adds and removes, by id: tasks the changed one waits on
/// (`--blocked-by`), and tasks that wait on it (`--blocks`).
public struct DependencyChanges: Equatable, Sendable {
    public var blockedBy: [Int64] = []
    public var notBlockedBy: [Int64] = []
    public var blocks: [Int64] = []
    public var notBlocks: [Int64] = []
    /// The task it becomes a subtask of (`--parent ID`), or none (`--parent ''`).
    public var parent: FieldUpdate<Int64> = .keep

    public init(blockedBy: [Int64] = [], notBlockedBy: [Int64] = [], blocks: [Int64] = [], notBlocks: [Int64] = []) {
        self.blockedBy = blockedBy
        self.notBlockedBy = notBlockedBy
        self.blocks = blocks
        self.notBlocks = notBlocks
    }

    public var isEmpty: Bool { blockedBy.isEmpty && notBlockedBy.isEmpty && blocks.isEmpty && notBlocks.isEmpty && parent.isKeep }
}

/// A custom field's new value (`--set name=value`): its JSON text as `extras` keeps it, or
/// `nil` to remove it.
public struct CustomValue: Equatable, Sendable {
    public var name: String
    public var stored: String?

    public init(name: String, stored: String?) {
        self.name = name
        self.stored = stored
    }

    /// `extras` with every one of `values` applied.
    public static func applying(_ values: [CustomValue], to extras: String) -> String {
        values.reduce(extras) { ExtrasText.setting($1.name, to: $1.stored, in: $0) }
    }
}
