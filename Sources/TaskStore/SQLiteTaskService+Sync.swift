import ReactorCore
import SQLiteDB
import TaskModel
import TextFormats

/// `tasks sync`: what changed here since the last sync is the difference between the tasks and
/// the base the last sync left (no log for every command to write); it is sent, the others'
/// changes are received and merged field by field (`SyncMerge`), and applied here in one
/// transaction with the history entry that records them — after the remote has kept what was
/// sent, so that a sync failing anywhere leaves this file as it was and the next one carries
/// on: the same changes get the same ids (derived from the machine, the task and the clock),
/// which the remote keeps once.
extension SQLiteTaskService: TaskSyncing {
    public func sync(url: String?, remember: Bool, through maker: any SyncRemoteMaker) -> Observable<SyncReport> {
        // A sync on a missing file makes it: a new machine starts empty and receives the tasks.
        change(creatingFile: true) { service in (try service.syncNow(url: url, remember: remember, maker: maker), []) }
    }

    public func syncIdentity() -> Observable<SyncIdentity> {
        call { service in
            let state = try service.readSyncState()
            return SyncIdentity(node: state.node, remote: state.remote)
        }
    }

    struct SyncState {
        var node: String
        var remote: String?
        var pulled: Int64
        var clock: Int64
        var synced: Int64
    }

    /// A change made here, with what a report names it by.
    struct LocalChange: Equatable {
        var change: SyncChange
        var taskID: Int64
        var title: String
    }

    /// Another process changed the tasks while the remote was asked: merge again.
    struct ChangedMeanwhile: Error {}

    /// The columns that travel, in `SyncField.all`'s order.
    static let syncedColumns = SyncField.all.joined(separator: ", ")

    func syncNow(url: String?, remember: Bool, maker: any SyncRemoteMaker) throws -> SyncReport {
        var state = try readSyncState()
        guard let address = url ?? state.remote else { throw TaskServiceError.noRemote }
        let remote = try maker.remote(url: address)
        let origin = SystemClock.hostName()
        // A remote that remembers (CalDAV) has its memory and its own base; PostgreSQL's base
        // is sync_base.
        let remembered = remote.keepsMemory ? try db.query("SELECT value FROM sync_memory WHERE remote = ?", [remote.name]) { $0.string(0) }.first : nil
        let base = remote.keepsMemory ? SyncBase(remote: remote.name) : SyncBase(remote: nil)
        remote.memory = remembered
        for _ in 0..<3 {
            // The changes, and the file's data version in the same snapshot: the apply checks
            // that no other connection committed since, instead of comparing every task again.
            let (local, version, empty) = try db.read {
                (try localChanges(state, origin: origin, base: base), try db.scalar("PRAGMA data_version") ?? 0, try isEmpty(for: base))
            }
            // A new machine's first sync, from a remote that reads changes one at a time:
            // applied as they come (`syncIntoEmpty`).
            if empty && local.isEmpty && remote.streamsPulls && !remote.keepsMemory {
                do {
                    return try syncIntoEmpty(remote: remote, readAt: version, state: state, remember: remember ? remote.name : nil, base: base)
                } catch is ChangedMeanwhile {
                    continue
                }
            }
            try remote.begin(node: state.node)
            defer { remote.close() }
            // What breaks the rules a typed value meets is kept aside, not merged or applied.
            var incoming: [SyncChange] = []
            var rejected: [SyncRejection] = []
            for change in try remote.pull(after: state.pulled) {
                if let reason = ReceivedFieldRules.refusal(of: change) {
                    rejected.append(Self.rejection(change, reason: reason, remote: remote.name, time: now()))
                } else {
                    incoming.append(change)
                }
            }
            var merge = SyncMerge(local: local.map(\.change), incoming: incoming, editsBeatDeletes: remote.editsBeatDeletes)
            try remote.push(try wholeWhereNeeded(merge))
            let last = try remote.commit()
            for conflict in remote.lateConflicts { merge.add(late: conflict) }
            for late in remote.lateReceived { merge.add(received: late) }
            do {
                let memory = remote.keepsMemory ? remote.memory.map { (remote.name, $0, changed: $0 != remembered) } : nil
                return try apply(merge, local: local, readAt: version, intoEmpty: empty, state: &state, last: last, incoming: incoming,
                                 rejected: rejected, remember: remember ? remote.name : nil, origin: origin, memory: memory, base: base)
            } catch is ChangedMeanwhile {
                continue
            }
        }
        throw TaskServiceError.locked(path: path)
    }

    /// The merge's pushes, those of tasks deleted there and kept here carrying every field (the
    /// remote makes them again).
    private func wholeWhereNeeded(_ merge: SyncMerge) throws -> [SyncChange] {
        if merge.sentWhole.isEmpty { return merge.pushes }
        let columns = SyncField.all.joined(separator: ", ")
        return try merge.pushes.map { change in
            guard merge.sentWhole.contains(change.task) else { return change }
            var whole = change
            _ = try db.query("SELECT \(columns) FROM task WHERE uuid = ?", [change.task]) { row in
                for (index, field) in SyncField.all.enumerated() { whole.fields[field] = SyncValue(row.value(Int32(index))) }
            }
            return whole
        }
    }

    func readSyncState() throws -> SyncState {
        let rows = try db.query("SELECT node, remote, pulled, clock, synced FROM sync_state WHERE id = 1") { row in
            SyncState(node: row.string(0), remote: row.optionalString(1), pulled: row.int64(2), clock: row.int64(3), synced: row.int64(4))
        }
        guard let state = rows.first else { throw TaskServiceError.unexpected("the file's sync state is missing") }
        return state
    }

    /// What changed here since the last sync: tasks new or different from their base, and
    /// base rows whose task is gone; each stamped with the next clock after the last sync's.
    /// Only the tasks the triggers marked dirty for the remote are compared (migration v11);
    /// every task, for a remote not yet scanned so.
    func localChanges(_ state: SyncState, origin: String, base: SyncBase = SyncBase(remote: nil)) throws -> [LocalChange] {
        let fields = SyncField.all
        let differs = fields.map { "t.\($0) IS NOT b.\($0)" }.joined(separator: " OR ")
        let taskColumns = fields.map { "t.\($0)" }.joined(separator: ", ")
        let baseColumns = fields.map { "b.\($0)" }.joined(separator: ", ")
        var clock = state.clock
        var changes: [LocalChange] = []
        func stamp(task: String, wall: Int64, fields: [String: SyncValue]) -> SyncChange {
            clock = HybridClock.next(after: clock, wallMilliseconds: wall)
            return SyncChange(id: UUIDText.derived(from: "\(state.node) \(task) \(clock)"), node: state.node, origin: origin,
                              clock: clock, task: task, fields: fields)
        }
        let count = Int32(fields.count)
        let tracks = try !db.query("SELECT 1 FROM sync_dirty WHERE uuid = '' AND remote = ?", [base.key]) { $0.int64(0) }.isEmpty
        // The dirty uuids, when the remote tracks changes: a join from them, not a scan
        // (CROSS JOIN keeps them the outer loop: the planner would otherwise walk every task
        // and look each up in sync_dirty, whose key starts with the uuid).
        let dirty = tracks ? "sync_dirty d CROSS JOIN " : ""
        let dirtyJoin = tracks ? " ON t.uuid = d.uuid" : ""
        let dirtyWhere = tracks ? "d.remote = ? AND d.uuid <> '' AND " : ""
        let dirtyArguments: [(any SQLiteBindable)?] = tracks ? [base.key] : []
        _ = try db.query("""
            SELECT t.id, t.uuid, t.title, t.modified, b.uuid IS NULL, \(taskColumns), \(baseColumns)
            FROM \(dirty)task t\(dirtyJoin) LEFT JOIN \(base.table) b ON b.uuid = t.uuid\(base.condition("b"))
            WHERE \(dirtyWhere)(b.uuid IS NULL OR \(differs)) ORDER BY t.modified, t.uuid
            """, base.arguments + dirtyArguments) { row in
            let isNew = row.int64(4) != 0
            var changed: [String: SyncValue] = [:]
            for (index, field) in fields.enumerated() {
                let now = row.value(5 + Int32(index)), base = row.value(5 + count + Int32(index))
                if isNew || now != base { changed[field] = SyncValue(now) }
            }
            let uuid = row.string(1)
            changes.append(LocalChange(change: stamp(task: uuid, wall: row.int64(3), fields: changed), taskID: row.int64(0), title: row.string(2)))
        }
        _ = try db.query("""
            SELECT b.uuid, b.title FROM \(tracks ? "sync_dirty d CROSS JOIN " : "")\(base.table) b\(tracks ? " ON b.uuid = d.uuid" : "")
            WHERE \(dirtyWhere)NOT EXISTS (SELECT 1 FROM task t WHERE t.uuid = b.uuid)\(base.condition("b")) ORDER BY b.uuid
            """, dirtyArguments + base.arguments) { row in
            let uuid = row.string(0)
            let change = stamp(task: uuid, wall: state.synced, fields: [SyncField.deleted: .integer(1)])
            changes.append(LocalChange(change: change, taskID: 0, title: row.optionalString(1) ?? ""))
        }
        return changes
    }

    /// Applies what was received, in one transaction with its history entry; the base becomes
    /// what was merged. Throws `ChangedMeanwhile` when another connection committed since
    /// `local` was read (data version `version`).
    private func apply(_ merge: SyncMerge, local: [LocalChange], readAt version: Int64, intoEmpty: Bool, state: inout SyncState, last: Int64, incoming: [SyncChange],
                       rejected: [SyncRejection], remember: String?, origin: String, memory: (remote: String, value: String, changed: Bool)?, base: SyncBase) throws -> SyncReport {
        try db.write {
            guard try db.scalar("PRAGMA data_version") == version else { throw ChangedMeanwhile() }
            var report = SyncReport()
            report.pushed = merge.pushes.count
            report.pulled = incoming.count
            report.rejected = rejected
            let time = now()
            let entry = EntryRecorder(db: try db, kind: .command, command: commandText, time: time)
            var bottoms: [String: Int64] = [:]
            var touched = Set(local.map(\.change.task))
            var created: [Int64] = []
            // Many tasks received: the new ones are indexed for search at the end (each task
            // comes once, so none is changed after it is made).
            let indexedLater = try merge.incoming.count >= SearchIndex.deferredFrom ? SearchIndex.deferInserts(db) : nil
            // Into a file with no tasks and no base (a new machine's first sync; read with
            // `local`, in the snapshot the data version above vouches for): every task
            // received is new, made without lookups, a hundred rows per INSERT.
            var received: [SQLiteValue] = []
            received.reserveCapacity(Self.rowsPerInsert * Self.receivedColumns)
            for task in merge.incoming {
                if intoEmpty {
                    if Self.isPlacedAtBottom(task.fields["position"]) { created += try insertReceived(&received) }
                    guard !task.isDeleted, try newRow(task, into: &received, time: time, bottoms: &bottoms) else { continue }
                    report.created += 1
                    if received.count == Self.rowsPerInsert * Self.receivedColumns { created += try insertReceived(&received) }
                    continue
                }
                touched.insert(task.task)
                if let id = try applyIncoming(task, base: base, entry: entry, time: time, bottoms: &bottoms, report: &report) { created.append(id) }
            }
            created += try insertReceived(&received)
            if let indexedLater { try SearchIndex.fill(db, fromID: indexedLater) }
            // The tasks made here, recorded as runs of ids (one row for a run, as `add` does).
            try entry.created(ids: created)
            for conflict in merge.conflicts {
                guard let (id, title) = try db.query("SELECT id, title FROM task WHERE uuid = ?", [conflict.task], row: { ($0.int64(0), $0.string(1)) }).first
                else { continue }
                report.conflicts.append(SyncConflict(taskID: id, title: title, field: conflict.field, kept: conflict.kept, keptFrom: conflict.keptFrom,
                                                     replaced: conflict.replaced, replacedFrom: conflict.replacedFrom))
                // The value that lost here never was in this file: the entry records it as
                // replaced by the one kept, so that undoing the sync puts it back.
                if conflict.keptLocal, let field = TaskField(rawValue: conflict.field) {
                    try entry.changed(taskID: id, uuid: conflict.task, fields: [(field, conflict.replaced.sqliteValue, conflict.kept.sqliteValue)])
                }
            }
            let clock = ([state.clock] + local.map(\.change.clock) + incoming.map { HybridClock.believed($0.clock, at: time.millisecondsSince1970) }).max()
                ?? state.clock
            return try finishApply(entry: entry, report: report, touched: touched, wholeTable: intoEmpty, base: base, memory: memory,
                                   state: state, clock: clock, last: last, time: time, remember: remember)
        }
    }

    /// Whether the file has no task and no base for `base`'s remote: a new machine's first sync.
    func isEmpty(for base: SyncBase) throws -> Bool {
        try db.scalar("SELECT count(*) FROM (SELECT 1 FROM task LIMIT 1)") == 0
            && db.query("SELECT 1 FROM \(base.table)\(base.remote == nil ? "" : " WHERE remote = ?") LIMIT 1", base.arguments) { $0.int64(0) }.isEmpty
    }

    /// The end of a sync's apply, inside its transaction: the remote's memory, the base of
    /// every task `touched` (of the whole table when `wholeTable`: every task here was
    /// received), the dirty set, the triggers, `sync_state`, the history entry.
    func finishApply(entry: EntryRecorder, report: SyncReport, touched: Set<String>, wholeTable: Bool, base: SyncBase,
                     memory: (remote: String, value: String, changed: Bool)?, state: SyncState, clock: Int64, last: Int64,
                     time: Timestamp, remember: String?) throws -> SyncReport {
        var report = report
        report.rejected = try keepAside(report.rejected)
        if let memory, memory.changed {
            try db.run("INSERT OR REPLACE INTO sync_memory (remote, value) VALUES (?, ?)", memory.remote, memory.value)
        }
        // The base of every task touched becomes the task as it now is, in two statements
        // (a JSON array of the uuids), not two per task. Into an empty file, every task
        // there now was received: its base is the whole table, copied by one scan.
        if wholeTable {
            try db.run("""
                INSERT INTO \(base.table) (\(base.remote == nil ? "" : "remote, ")uuid, \(Self.syncedColumns))
                SELECT \(base.remote == nil ? "" : "?, ")uuid, \(Self.syncedColumns) FROM task
                """, arguments: base.arguments)
        } else if !touched.isEmpty {
            var list: [UInt8] = [UInt8(ascii: "[")]
            for uuid in touched {
                if list.count > 1 { list.append(UInt8(ascii: ",")) }
                JSONValue.appendString(uuid, to: &list)
            }
            list.append(UInt8(ascii: "]"))
            let uuids = String(decoding: list, as: UTF8.self)
            try db.run("DELETE FROM \(base.table) WHERE uuid IN (SELECT value FROM json_each(?))\(base.condition(nil))", arguments: [uuids] + base.arguments)
            try db.run("""
                INSERT INTO \(base.table) (\(base.remote == nil ? "" : "remote, ")uuid, \(Self.syncedColumns))
                SELECT \(base.remote == nil ? "" : "?, ")uuid, \(Self.syncedColumns) FROM task WHERE uuid IN (SELECT value FROM json_each(?))
                """, arguments: base.arguments + [uuids])
        }
        // This remote has nothing left to send: its dirty set is empty, and from now on
        // the triggers keep it (its row with the empty uuid says they do).
        try db.run("DELETE FROM sync_dirty WHERE remote = ? AND uuid <> ''", base.key)
        try db.run("INSERT OR IGNORE INTO sync_dirty (uuid, remote) VALUES ('', ?)", base.key)
        // The triggers, with the file's first sync (a file that never syncs has none).
        if try db.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'sync_dirty_%'") != 3 {
            try db.execute(TaskSchema.dirtyTriggers)
        }
        // How far PostgreSQL's log was applied: a remote that remembers has no log.
        try db.run("UPDATE sync_state SET pulled = ?, clock = ?, synced = ?, remote = coalesce(?, remote) WHERE id = 1",
                   base.remote == nil ? last : state.pulled, clock, time.millisecondsSince1970, remember)
        try entry.finish(summary: Self.summary(of: report))
        if let id = entry.id { noteOwn(id) }
        report.entry = entry.id
        return report
    }

    static func summary(of report: SyncReport) -> String {
        var parts = ["sent \(report.pushed)", "received \(report.pulled)"]
        if !report.conflicts.isEmpty { parts.append("\(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s")") }
        return "synced: " + parts.joined(separator: ", ")
    }
}

extension SyncValue {
    init(_ value: SQLiteValue) {
        switch value {
        case .null, .blob: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .integer(Int64(number))
        case .text(let text): self = .text(text)
        }
    }

    var sqliteValue: SQLiteValue {
        switch self {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .text(let text): return .text(text)
        }
    }
}

/// Where the base of one remote is: PostgreSQL's in `sync_base`, each remote that remembers
/// (CalDAV) its own rows of `sync_remote_base`.
struct SyncBase {
    /// The remote's name for `sync_remote_base`; nil for `sync_base`.
    let remote: String?

    var table: String { remote == nil ? "sync_base" : "sync_remote_base" }

    /// The remote's key in `sync_dirty`: '' for PostgreSQL's.
    var key: String { remote ?? "" }

    /// ` AND alias.remote = ?` (or nothing), to follow a join's or a where's condition.
    func condition(_ alias: String?) -> String {
        remote == nil ? "" : " AND " + (alias.map { $0 + "." } ?? "") + "remote = ?"
    }

    var arguments: [(any SQLiteBindable)?] { remote.map { [$0] } ?? [] }
}

// MARK: - Changes kept aside

extension SQLiteTaskService {
    /// The table of changes received and not applied, made by the first of them (a file that
    /// never met one has none, and an older `tasks` reads the file as before).
    static let rejectedTable = """
        CREATE TABLE IF NOT EXISTS sync_rejected (
            change TEXT    PRIMARY KEY,  -- the change's id: met again, it is not kept or reported twice
            remote TEXT    NOT NULL,
            node   TEXT    NOT NULL,
            origin TEXT    NOT NULL,
            task   TEXT    NOT NULL,
            source TEXT    NOT NULL,     -- a CalDAV item's path, or `row SEQ`
            reason TEXT    NOT NULL,
            fields TEXT    NOT NULL,     -- as received, JSON
            time   INTEGER NOT NULL
        ) WITHOUT ROWID
        """

    /// `change`, refused for `reason`, as it is kept aside.
    static func rejection(_ change: SyncChange, reason: String, remote: String, time: Timestamp) -> SyncRejection {
        SyncRejection(remote: remote, change: change.id, node: change.node, origin: change.origin, task: change.task,
                      source: change.source.isEmpty && change.seq > 0 ? "row \(change.seq)" : change.source, reason: reason,
                      fields: JSONValue.object(change.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }).serialized(), time: time)
    }

    /// Keeps `rejected` in `sync_rejected`, in the sync's transaction; the ones no earlier sync
    /// kept (what this sync reports).
    func keepAside(_ rejected: [SyncRejection]) throws -> [SyncRejection] {
        if rejected.isEmpty { return [] }
        try db.execute(Self.rejectedTable)
        var new: [SyncRejection] = []
        for rejection in rejected {
            try db.run("INSERT OR IGNORE INTO sync_rejected (change, remote, node, origin, task, source, reason, fields, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       rejection.change, rejection.remote, rejection.node, rejection.origin, rejection.task, rejection.source,
                       rejection.reason, rejection.fields, rejection.time.millisecondsSince1970)
            if try db.changes > 0 { new.append(rejection) }
        }
        return new
    }

    public func rejectedChanges() -> Observable<[SyncRejection]> {
        call { service in
            let exists = try service.db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'sync_rejected'") ?? 0
            guard exists > 0 else { return [] }
            return try service.db.query("SELECT remote, change, node, origin, task, source, reason, fields, time FROM sync_rejected ORDER BY time, change") { row in
                SyncRejection(remote: row.string(0), change: row.string(1), node: row.string(2), origin: row.string(3), task: row.string(4),
                              source: row.string(5), reason: row.string(6), fields: row.string(7),
                              time: Timestamp(millisecondsSince1970: row.int64(8)))
            }
        }
    }
}
