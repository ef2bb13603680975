/// One change received from a remote, its fields by position in `SyncField.all` rather than in
/// a dictionary: what a first sync into an empty file applies as it reads (issue 30), one
/// change at a time, without holding the others. Keys that are no task field, other than
/// `deleted`, are dropped — the apply sets only task fields.
public struct ReceivedChange: Equatable, Sendable {
    /// The remote's sequence number of the change.
    public var seq: Int64
    /// The change's hybrid logical clock.
    public var clock: Int64
    /// The task's uuid.
    public var task: String
    /// Each field of `SyncField.all` the change sets, at its index; nil where it sets none.
    public var values: [SyncValue?]
    /// The change's `deleted` member, when it has one.
    public var deleted: SyncValue?
    /// The change's id and the machine that made it (its id and name): what a change kept
    /// aside is named by.
    public var id: String
    public var node: String
    public var origin: String
    /// Why the remote could not read its fields, if it could not.
    public var rejection: String?

    public init(seq: Int64, clock: Int64, task: String, values: [SyncValue?], deleted: SyncValue? = nil,
                id: String = "", node: String = "", origin: String = "", rejection: String? = nil) {
        self.seq = seq
        self.clock = clock
        self.task = task
        self.values = values
        self.deleted = deleted
        self.id = id
        self.node = node
        self.origin = origin
        self.rejection = rejection
    }

    /// Why it cannot be applied (`ReceivedFieldRules`), or nil.
    public var refusal: String? {
        if let rejection { return rejection }
        if let reason = ReceivedFieldRules.refusal(task: task) { return reason }
        for (index, value) in values.enumerated() {
            if let value, let reason = ReceivedFieldRules.refusal(synced: index, value) { return reason }
        }
        return deleted.flatMap { ReceivedFieldRules.refusal(SyncField.deleted, $0) }
    }

    /// The change's fields by name, as a `SyncChange` carries them.
    public var fields: [String: SyncValue] {
        var fields: [String: SyncValue] = [:]
        for (index, value) in values.enumerated() {
            if let value { fields[SyncField.all[index]] = value }
        }
        if let deleted { fields[SyncField.deleted] = deleted }
        return fields
    }

    /// Whether the change deletes the task.
    public var isDelete: Bool { deleted == .integer(1) }

    /// Where each field's name is in `SyncField.all`.
    public static let index: [String: Int] = Dictionary(uniqueKeysWithValues: SyncField.all.enumerated().map { ($1, $0) })
}
