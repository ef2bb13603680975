import SQLiteDB
import TaskModel

/// One history entry, written inside the transaction of the change it records: there is no
/// change without its entry. Its number is taken on the first thing recorded, so a call that
/// changes nothing leaves no entry. Its changes are packed as they come (`PackedChanges`) and
/// written with its row by `finish`; past `PackedChanges.perPart` of them, a part at a time.
final class EntryRecorder {
    private let db: Connection
    private let kind: HistoryEntry.Kind
    private let command: String
    private let time: Timestamp
    private let target: Int64?
    /// Where the rows this entry deletes are kept (a redo keeps them under its target).
    private let keepDeletedUnder: Int64?
    private(set) var id: Int64?
    /// The changes not yet written, as the inside of a JSON array, and how many.
    private var pending: [UInt8] = []
    private var pendingCount = 0
    private var pendingRange: ClosedRange<Int64>?
    /// The parts written so far, and the task ids the whole entry touches.
    private var parts: Int64 = 0
    private var range: ClosedRange<Int64>?
    /// Whether the tasks it touches are kept for the command's hooks (`touched`).
    let watches: Bool
    /// The tasks the command made or changed, each once, in order, with the task as it was
    /// before the command (nil: made by it). Kept only while hooks run.
    private(set) var touched: [(id: Int64, before: Task?)] = []
    private var touchedIDs: Set<Int64> = []

    /// How long the history keeps entries, at the least (`tasks history` shows them).
    static let keptEntries = 1000
    static let keptMilliseconds: Int64 = 30 * 86_400_000

    init(db: Connection, kind: HistoryEntry.Kind, command: String, time: Timestamp, target: Int64? = nil,
         keepDeletedUnder: Int64? = nil, watches: Bool = false) {
        self.watches = watches
        self.db = db
        self.kind = kind
        self.command = command
        self.time = time
        self.target = target
        self.keepDeletedUnder = keepDeletedUnder
    }

    /// The entry's number, taken now if it was not yet: the next after the newest, which is
    /// never removed, so a number is never given twice. (The write lock is held.) The entry's
    /// own row is written by `finish`, with its summary.
    @discardableResult
    func begin() throws -> Int64 {
        if let id { return id }
        if kind == .command {
            // A new change ends what can be redone.
            try db.run("UPDATE history SET redoable = 0 WHERE redoable = 1")
        }
        let next = (try db.scalar("SELECT max(id) FROM history") ?? 0) + 1
        id = next
        return next
    }

    /// Whether anything was recorded.
    var isEmpty: Bool { id == nil }

    // MARK: - What an entry records

    /// Tasks created: one row per run of consecutive ids.
    func created(ids: [Int64]) throws {
        for run in Self.runs(of: ids) { try created(run: run) }
    }

    /// Tasks created with the consecutive ids of `run`.
    func created(run: ClosedRange<Int64>) throws {
        _ = try change(.created, run.lowerBound, run.upperBound, uuid: nil)
        if watches { for id in run { watch(id, before: nil) } }
    }

    /// Keeps `id` for the hooks, with the task as it was before the command, the first time.
    func watch(_ id: Int64, before: Task?) {
        guard watches, touchedIDs.insert(id).inserted else { return }
        touched.append((id, before))
    }

    /// One task's fields that differ between `before` and `after`; nothing when none does.
    /// Returns those fields (what an edit's summary names).
    @discardableResult
    func changed(from before: Task, to after: Task) throws -> [TaskFieldSpec] {
        let fields = before.recordedFieldsDiffering(from: after)
        if fields.isEmpty { return fields }
        watch(before.id, before: before)
        try change(.changed, before.id, before.id, uuid: before.uuid,
                   fields: fields.map { ($0.name, $0.columnValue(of: before), $0.columnValue(of: after)) })
        return fields
    }

    /// Fields set to values read from the database, for undo and redo, which write them.
    func changed(taskID: Int64, uuid: String, fields: [(TaskField, before: SQLiteValue, after: SQLiteValue)]) throws {
        if fields.isEmpty { return }
        try change(.changed, taskID, taskID, uuid: uuid, fields: fields.map { ($0.0.rawValue, $0.before, $0.after) })
    }

    /// Deletes the tasks with ids in `run`, keeping their rows for undo and redo — and, when
    /// `tombstone` (a task someone deleted, not one an undo or a reopening took back), as the
    /// tasks' tombstones, which `status:deleted` reads and `undelete` brings back.
    /// `removed`: when it was deleted, if not now (an import's record says).
    func delete(run: ClosedRange<Int64>, uuid: String? = nil, tombstone: Bool, removed: Timestamp? = nil) throws {
        let keeper = try keepDeletedUnder ?? begin()
        try db.run("""
            INSERT INTO deleted_task (entry, tombstone, removed, \(TaskColumn.names))
                SELECT ?, ?, ?, \(TaskColumn.names) FROM task WHERE id BETWEEN ? AND ?
            """, keeper, tombstone ? 1 : 0, (removed ?? time).millisecondsSince1970, run.lowerBound, run.upperBound)
        try db.run("DELETE FROM task WHERE id BETWEEN ? AND ?", run.lowerBound, run.upperBound)
        try change(.deleted, run.lowerBound, run.upperBound, uuid: uuid)
    }

    /// Puts back the rows `keeper` kept of the tasks in `run`, and records their creation.
    func restore(run: ClosedRange<Int64>, keptBy keeper: Int64) throws {
        try db.run("INSERT INTO task (\(TaskColumn.names)) SELECT \(TaskColumn.names) FROM deleted_task WHERE entry = ? AND id BETWEEN ? AND ?",
                   keeper, run.lowerBound, run.upperBound)
        try db.run("DELETE FROM deleted_task WHERE entry = ? AND id BETWEEN ? AND ?", keeper, run.lowerBound, run.upperBound)
        try change(.created, run.lowerBound, run.upperBound, uuid: nil)
    }

    /// Brings task `id` back from its tombstone (kept by `keeper`), recorded as made again:
    /// the tombstone's row stays, so that undoing this leaves the task deleted as it was.
    func undelete(id: Int64, keptBy keeper: Int64) throws {
        try db.run("INSERT INTO task (\(TaskColumn.names)) SELECT \(TaskColumn.names) FROM deleted_task WHERE entry = ? AND id = ?", keeper, id)
        try change(.created, id, id, uuid: nil)
    }

    /// Purges the tombstones of task `id` (`uuid`): no longer deleted tasks, kept only for
    /// the undo of this entry, until the history lets the entry go.
    func purge(id: Int64, uuid: String) throws {
        let keeper = try keepDeletedUnder ?? begin()
        try db.run("UPDATE deleted_task SET purged = ? WHERE id = ? AND tombstone = 1 AND purged IS NULL", keeper, id)
        try change(.purged, id, id, uuid: uuid)
    }

    /// Undoes the purge `keeper` made of the tombstones of the tasks in `run` (no task changes:
    /// the undo's entry records nothing of it but its target).
    func unpurge(run: ClosedRange<Int64>, purgedBy keeper: Int64) throws {
        try begin()
        try db.run("UPDATE deleted_task SET purged = NULL WHERE purged = ? AND id BETWEEN ? AND ?", keeper, run.lowerBound, run.upperBound)
    }

    /// Writes the entry, saying what it did (nothing when nothing was recorded).
    func finish(summary: String) throws {
        guard let id else { return }
        try db.run("INSERT INTO history (id, time, command, summary, kind, target, lo, hi, changes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   id, time.millisecondsSince1970, command, summary, kind.rawValue, target,
                   range?.lowerBound, range?.upperBound, takePending())
        if kind == .command && id % 64 == 0 { try prune(newest: id) }
    }

    private func change(_ kind: HistoryChange.Kind, _ first: Int64, _ last: Int64, uuid: String?,
                        fields: [(name: String, before: SQLiteValue, after: SQLiteValue)] = []) throws {
        let entry = try begin()
        if pendingCount == PackedChanges.perPart, let partRange = pendingRange {
            parts += 1
            try db.run("INSERT INTO history_part (entry, part, lo, hi, changes) VALUES (?, ?, ?, ?, ?)",
                       entry, parts, partRange.lowerBound, partRange.upperBound, takePending())
        }
        if pendingCount > 0 { pending.append(UInt8(ascii: ",")) }
        PackedChanges.append(kind, first, last, uuid: uuid, fields: fields, to: &pending)
        pendingCount += 1
        pendingRange = Self.widened(pendingRange, by: first...last)
        range = Self.widened(range, by: first...last)
    }

    /// The pending changes as a JSON array; none are pending after.
    private func takePending() -> String {
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingCount = 0
            pendingRange = nil
        }
        return "[" + String(decoding: pending, as: UTF8.self) + "]"
    }

    private static func widened(_ range: ClosedRange<Int64>?, by run: ClosedRange<Int64>) -> ClosedRange<Int64> {
        guard let range else { return run }
        return min(range.lowerBound, run.lowerBound)...max(range.upperBound, run.upperBound)
    }

    // MARK: - Keeping the history bounded

    /// Removes the entries older than both the newest `keptEntries` and `keptMilliseconds`,
    /// with their changes and kept rows.
    private func prune(newest: Int64) throws {
        let byCount = newest - Int64(Self.keptEntries)
        let byAge = try db.scalar("SELECT max(id) FROM history WHERE time < ?", time.millisecondsSince1970 - Self.keptMilliseconds) ?? 0
        let cutoff = min(byCount, byAge)
        guard cutoff > 0 else { return }
        try db.run("DELETE FROM history_part WHERE entry <= ?", cutoff)
        // A tombstone stays until it is purged (and its purge's entry goes), as Taskwarrior
        // keeps a deleted task; one whose task was brought back goes with its entry.
        try db.run("""
            DELETE FROM deleted_task WHERE purged <= ?1 OR (entry <= ?1 AND NOT (tombstone = 1 AND purged IS NULL
                AND NOT EXISTS (SELECT 1 FROM task WHERE task.uuid = deleted_task.uuid)))
            """, cutoff)
        try db.run("DELETE FROM history WHERE id <= ?", cutoff)
    }

    /// `ids` as runs of consecutive numbers, in order.
    static func runs(of ids: [Int64]) -> [ClosedRange<Int64>] {
        var runs: [ClosedRange<Int64>] = []
        for id in ids.sorted() {
            if let last = runs.last, last.upperBound + 1 == id {
                runs[runs.count - 1] = last.lowerBound...id
            } else if runs.last?.contains(id) != true {
                runs.append(id...id)
            }
        }
        return runs
    }
}
