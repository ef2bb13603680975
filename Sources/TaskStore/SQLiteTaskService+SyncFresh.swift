import SQLiteDB
import TaskModel

/// A new machine's first sync (issue 30): a file with no task and no base, nothing to send, and
/// a remote that reads its changes one at a time (PostgreSQL). Each change is applied as it
/// arrives, inside the transaction that commits after the remote's commit, instead of all of
/// them being held and merged first: 100,000 changes held were 196 MB of dictionaries, and the
/// kernel zeroing their pages was a fifth of the sync.
///
/// The result is the merge's (`SyncMerge`): a task's changes fold in the order received, the
/// last value of each field winning. A task's first change with a title makes it (a hundred
/// rows per `INSERT`); a later change of it updates it, or deletes it; a change without a
/// title, a delete, and whatever follows them are folded in memory and made at the end if the
/// fold has a title and no delete — as the merge would have.
extension SQLiteTaskService {
    /// Runs the sync: the write transaction first (checking that nothing changed since the file
    /// was read at `version`), then the remote's pull applied as it comes, the remote's commit,
    /// and the local commit. Throws `ChangedMeanwhile` before touching the remote.
    func syncIntoEmpty(remote: any SyncRemote, readAt version: Int64, state: SyncState, remember: String?, base: SyncBase) throws -> SyncReport {
        try db.write {
            guard try db.scalar("PRAGMA data_version") == version else { throw ChangedMeanwhile() }
            try remote.begin(node: state.node)
            defer { remote.close() }
            let time = now()
            let entry = EntryRecorder(db: try db, kind: .command, command: commandText, time: time)
            var received = ReceivedTasks(indexedFrom: try SearchIndex.deferInserts(db))
            var clock = state.clock
            var report = SyncReport()
            report.pulled = try remote.pull(after: state.pulled) { change in
                // What breaks the rules a typed value meets is kept aside, not applied.
                if let reason = change.refusal {
                    let kept = SyncChange(id: change.id, node: change.node, origin: change.origin, clock: change.clock, task: change.task,
                                          fields: change.fields, seq: change.seq)
                    report.rejected.append(Self.rejection(kept, reason: reason, remote: remote.name, time: time))
                    return
                }
                clock = max(clock, HybridClock.believed(change.clock, at: time.millisecondsSince1970))
                try receive(change, into: &received, time: time)
            }
            try insertReceived(&received)
            // The folded tasks that end with a title and no delete, in the order first received.
            for task in received.folded where !task.isDeleted {
                if Self.isPlacedAtBottom(task.fields["position"]) { try insertReceived(&received) }
                guard try newRow(task, into: &received.rows, time: time, bottoms: &received.bottoms) else { continue }
                if received.isFull { try insertReceived(&received) }
            }
            report.pulled -= report.rejected.count
            try insertReceived(&received)
            try received.indexNow(db)
            let made = received.made.filter { !received.deleted.contains($0) }
            report.created = made.count
            try entry.created(ids: made)
            let last = try remote.commit()
            return try finishApply(entry: entry, report: report, touched: [], wholeTable: true, base: base, memory: nil,
                                   state: state, clock: clock, last: last, time: time, remember: remember)
        }
    }

    /// The tasks received so far, and the rows waiting for their `INSERT`.
    private struct ReceivedTasks {
        /// A fingerprint of each task received (`fingerprint`): a task not among them is new.
        /// A dictionary of the uuids was a twentieth of the sync — uuids of version 7 made
        /// about the same time share their first dozen characters, and every probe compared them.
        var seen: Set<UInt64> = []
        /// The tasks not made, their changes folded: a change without a title, a delete, and
        /// what followed them.
        var folded: [SyncMerge.Incoming] = []
        var foldedAt: [String: Int] = [:]
        /// The rows waiting for their `INSERT`, one after another.
        var rows: [SQLiteValue] = []
        var made: [Int64] = []
        /// Tasks made in this sync and deleted by a later change of it.
        var deleted: Set<Int64> = []
        var bottoms: [String: Int64] = [:]
        /// The first id not yet in the search index; nil once the index is whole again.
        var indexedFrom: Int64?

        init(indexedFrom: Int64) {
            self.indexedFrom = indexedFrom
        }

        /// Whether the waiting rows fill one `INSERT`.
        var isFull: Bool { rows.count >= SQLiteTaskService.rowsPerInsert * SQLiteTaskService.receivedColumns }

        /// Fills the search index and puts its trigger back: a task updated or deleted must be
        /// in the index first.
        mutating func indexNow(_ db: Connection) throws {
            if let first = indexedFrom { try SearchIndex.fill(db, fromID: first) }
            indexedFrom = nil
        }

        /// Folds `fields` into the folded task `task` (made one if it is not yet).
        mutating func fold(_ task: String, _ fields: [String: SyncValue]) {
            if let at = foldedAt[task] {
                for (field, value) in fields { folded[at].fields[field] = value }
            } else {
                foldedAt[task] = folded.count
                folded.append(SyncMerge.Incoming(task: task, fields: fields))
            }
        }

        /// FNV-1a of the uuid's bytes: two tasks may share one (then the file is asked). The
        /// bytes are read in place (through `String.UTF8View`'s iterator: 30 instructions a
        /// byte, 1.5% of a sync of 100,000 tasks into an empty file).
        static func fingerprint(_ task: String) -> UInt64 {
            var task = task
            return task.withUTF8 { bytes in
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                return hash
            }
        }
    }

    /// Applies one received change (see the extension's comment).
    private func receive(_ change: ReceivedChange, into received: inout ReceivedTasks, time: Timestamp) throws {
        let fingerprint = ReceivedTasks.fingerprint(change.task)
        if received.seen.contains(fingerprint) {
            if received.foldedAt[change.task] != nil {
                received.fold(change.task, change.fields)
                return
            }
            try insertReceived(&received)
            if let id = try db.scalar("SELECT id FROM task WHERE uuid = ?", change.task) {
                try receiveAgain(change, made: id, into: &received, time: time)
                return
            }
            // Not received before: another task's fingerprint.
        }
        received.seen.insert(fingerprint)
        if Self.isPlacedAtBottom(change.values[Self.receivedPosition]) { try insertReceived(&received) }
        if !change.isDelete,
           try newRow(task: change.task, value: { change.values[$0] }, into: &received.rows, time: time, bottoms: &received.bottoms) {
            if received.isFull { try insertReceived(&received) }
        } else {
            received.fold(change.task, change.fields)
        }
    }

    /// Applies a later change of the task made in this sync with the id `id`.
    private func receiveAgain(_ change: ReceivedChange, made id: Int64, into received: inout ReceivedTasks, time: Timestamp) throws {
        try received.indexNow(db)
        if change.isDelete {
            // Its fields stay folded, as the merge keeps them (a later change could undo
            // the delete).
            let rows = try db.query("SELECT \(Self.syncedColumns) FROM task WHERE id = ?", [id]) { row -> [String: SyncValue] in
                var fields: [String: SyncValue] = [:]
                for (index, name) in SyncField.all.enumerated() { fields[name] = SyncValue(row.value(Int32(index))) }
                return fields
            }
            var fields = rows.first ?? [:]
            for (field, value) in change.fields { fields[field] = value }
            try db.run("DELETE FROM task WHERE id = ?", id)
            received.deleted.insert(id)
            received.fold(change.task, fields)
        } else {
            for (index, value) in change.values.enumerated() {
                guard let value, value != .null || index != Self.receivedPosition else { continue }
                try db.run("UPDATE task SET \(SyncField.all[index]) = ? WHERE id = ?", value.sqliteValue, id)
            }
            try db.run("UPDATE task SET modified = ? WHERE id = ?", time.millisecondsSince1970, id)
        }
    }

    /// Inserts the waiting rows.
    private func insertReceived(_ received: inout ReceivedTasks) throws {
        received.made += try insertReceived(&received.rows)
    }
}
