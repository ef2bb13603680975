/// One entry of the history: one command's changes, whole — or the undo or redo of one.
public struct HistoryEntry: Equatable, Sendable {
    public enum Kind: Int, Sendable {
        /// A command that changed tasks: `add`, `done`, `import`, `sync`…
        case command = 0
        /// The revert of a command entry (`tasks undo`).
        case undo = 1
        /// A command entry applied again (`tasks redo`).
        case redo = 2
    }

    /// Its number, `#12`: increasing, never reused.
    public var id: Int64
    public var time: Timestamp
    /// The command as typed: `tasks done 3`.
    public var command: String
    /// What it did: `done 3 "Buy milk"`, `imported 10,000 tasks`, `undid #12`.
    public var summary: String
    public var kind: Kind
    /// For an undo or a redo: the entry it reverted or applied again.
    public var target: Int64?
    /// For a command entry that was undone: the undo entry; `nil` while it is in effect.
    public var undoneBy: Int64?
    /// What it changed, task by task (filled when asked for).
    public var changes: [HistoryChange]

    public init(id: Int64, time: Timestamp, command: String, summary: String, kind: Kind, target: Int64? = nil,
                undoneBy: Int64? = nil, changes: [HistoryChange] = []) {
        self.id = id
        self.time = time
        self.command = command
        self.summary = summary
        self.kind = kind
        self.target = target
        self.undoneBy = undoneBy
        self.changes = changes
    }
}

/// What one entry did to one task — or to a run of tasks created or deleted together.
public struct HistoryChange: Equatable, Sendable {
    public enum Kind: Int, Sendable {
        case created = 0
        case changed = 1
        case deleted = 2
        /// A deleted task's tombstone purged (`tasks purge`).
        case purged = 3
    }

    public var kind: Kind
    /// The task's id: the first of the run.
    public var taskID: Int64
    /// The last id of a run of tasks created or deleted together (`taskID` for one task).
    public var lastTaskID: Int64
    /// The task's uuid (for one task).
    public var uuid: String?
    /// Each field that changed, before and after (a change); every field (a creation or deletion
    /// of one task, when read back).
    public var fields: [FieldChange]

    public init(kind: Kind, taskID: Int64, lastTaskID: Int64? = nil, uuid: String? = nil, fields: [FieldChange] = []) {
        self.kind = kind
        self.taskID = taskID
        self.lastTaskID = lastTaskID ?? taskID
        self.uuid = uuid
        self.fields = fields
    }

    /// How many tasks it covers.
    public var taskCount: Int64 { lastTaskID - taskID + 1 }
}

/// One field's value before and after a change.
public struct FieldChange: Equatable, Sendable {
    public var field: TaskField
    public var before: FieldValue
    public var after: FieldValue

    public init(field: TaskField, before: FieldValue, after: FieldValue) {
        self.field = field
        self.before = before
        self.after = after
    }
}

/// A field's value, typed as a task's JSON shows it.
public enum FieldValue: Equatable, Sendable {
    case none
    case text(String)
    case flag(Bool)
    case number(Int64)
    case day(CalendarDay)
    case date(TaskDate)
    case priority(Priority)
    case tags([String])
    case time(Timestamp)
    case annotations([Annotation])
}

extension Task {
    /// The value of `field`, typed.
    public func value(of field: TaskField) -> FieldValue { TaskFields.spec(field).value(of: self) }

    /// The fields the history records whose stored values differ between `self` and `other`.
    public func recordedFieldsDiffering(from other: Task) -> [TaskFieldSpec] {
        TaskFields.recorded.filter { $0.stored(self) != $0.stored(other) }
    }
}

/// Which entries `history` lists: the newest first.
public struct HistoryQuery: Equatable, Sendable {
    /// At most this many.
    public var limit: Int?
    /// Only those that touched this task.
    public var taskID: Int64?
    /// With each entry's changes, field by field.
    public var withChanges: Bool
    /// Only those made at or after this moment (`--since mon`).
    public var since: Timestamp?
    /// Only this entry (`tasks mcp`'s undo reads what it is asked to revert).
    public var entry: Int64?

    public init(limit: Int? = nil, taskID: Int64? = nil, withChanges: Bool = false) {
        self.limit = limit
        self.taskID = taskID
        self.withChanges = withChanges
    }
}
