/// What an import did.
public struct TaskImportResult: Equatable, Sendable {
    /// Tasks that were not there before.
    public var created: Int
    /// Tasks whose uuid was there, with a field that differed.
    public var updated: Int
    /// Tasks whose uuid was there with every field the same: not written at all.
    public var unchanged: Int
    /// Records that said their task is deleted (Taskwarrior's `status:deleted`), kept as
    /// tombstones: tasks deleted here, or made deleted.
    public var deleted: Int

    public init(created: Int = 0, updated: Int = 0, unchanged: Int = 0, deleted: Int = 0) {
        self.created = created
        self.updated = updated
        self.unchanged = unchanged
        self.deleted = deleted
    }
}
