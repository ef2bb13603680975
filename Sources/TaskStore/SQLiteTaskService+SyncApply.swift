import ReactorCore
import SQLiteDB
import TaskModel

/// A sync's apply, task by task: what was received made, changed or deleted here.
extension SQLiteTaskService {
    /// Makes, changes or deletes the task `incoming` names, recording it into `entry`; the id of
    /// a task it made (for the caller to record).
    func applyIncoming(_ incoming: SyncMerge.Incoming, base: SyncBase, entry: EntryRecorder, time: Timestamp,
                               bottoms: inout [String: Int64], report: inout SyncReport) throws -> Int64? {
        let current = try db.query("SELECT \(TaskColumn.names) FROM task WHERE uuid = ?", [incoming.task]) { TaskColumn.decode($0) }.first
        if incoming.isDeleted {
            guard let current else { return nil }
            try entry.delete(run: current.id...current.id, uuid: current.uuid, tombstone: true)
            report.deleted += 1
            return nil
        }
        let fields = incoming.applied
        if let current {
            var assignments: [(TaskField, before: SQLiteValue, after: SQLiteValue)] = []
            for field in TaskFields.recorded {
                // No position received: the task keeps its own.
                guard let value = fields[field.name]?.sqliteValue, value != .null || field.field != .position else { continue }
                let before = field.columnValue(of: current)
                if before != value { assignments.append((field.field, before, value)) }
            }
            // The creation time is no field of the history: set without an entry of its own
            // (two machines that made the same next occurrence agree on one).
            if case .integer(let created)? = fields[SyncField.created], created != current.created.millisecondsSince1970 {
                try db.run("UPDATE task SET created = ? WHERE id = ?", created, current.id)
            }
            if assignments.isEmpty { return nil }
            for (field, _, value) in assignments {
                try db.run("UPDATE task SET \(field.rawValue) = ?, modified = ? WHERE id = ?", value, time.millisecondsSince1970, current.id)
            }
            try entry.changed(taskID: current.id, uuid: current.uuid, fields: assignments)
            report.changed += 1
            return nil
        }
        // Deleted here and changed there, the change the winner: made again as it was deleted
        // (its id too), with what was received.
        if incoming.restores, let id = try restore(incoming, time: time) ?? restoreFromBase(incoming, base: base, time: time, bottoms: &bottoms) {
            report.created += 1
            return id
        }
        // Not here: deleted here since the last sync (the delete wins), or new.
        if try db.query("SELECT 1 FROM \(base.table) WHERE uuid = ?\(base.condition(nil))", [incoming.task] + base.arguments, row: { $0.int64(0) }).first != nil {
            return nil
        }
        // Deleted here before the last sync and brought back there: made again from its
        // tombstone, with its id, and what was received.
        if let id = try restore(incoming, time: time) {
            report.created += 1
            return id
        }
        var row: [SQLiteValue] = []
        guard try newRow(incoming, into: &row, time: time, bottoms: &bottoms) else { return nil }
        try db.run(Self.oneReceivedRow, values: row)
        report.created += 1
        return try db.lastInsertRowID
    }

    /// The task `incoming` names back from its last delete (`deleted_task`, which keeps it for
    /// undo), with the fields received: its id, or nil when the row is no longer kept or its
    /// id is taken. Recorded as made by the sync, so that undoing the sync deletes it again.
    private func restore(_ incoming: SyncMerge.Incoming, time: Timestamp) throws -> Int64? {
        let latest = "SELECT max(entry) FROM deleted_task WHERE uuid = ?"
        guard let id = try db.query("SELECT id FROM deleted_task WHERE uuid = ? AND entry = (\(latest))", [incoming.task, incoming.task],
                                    row: { $0.int64(0) }).first,
              try db.query("SELECT 1 FROM task WHERE id = ? OR uuid = ?", [id, incoming.task], row: { $0.int64(0) }).isEmpty else { return nil }
        try db.run("INSERT INTO task (\(TaskColumn.names)) SELECT \(TaskColumn.names) FROM deleted_task WHERE uuid = ? AND entry = (\(latest))",
                   incoming.task, incoming.task)
        for field in TaskFields.recorded {
            guard let value = incoming.applied[field.name]?.sqliteValue, value != .null || field.field != .position else { continue }
            try db.run("UPDATE task SET \(field.field.rawValue) = ?, modified = ? WHERE id = ?", value, time.millisecondsSince1970, id)
        }
        return id
    }

    /// The same from the sync's base, when the deleted row is no longer kept (its history
    /// entry pruned): the fields as last synced, with what was received; a new id.
    private func restoreFromBase(_ incoming: SyncMerge.Incoming, base: SyncBase, time: Timestamp, bottoms: inout [String: Int64]) throws -> Int64? {
        let columns = SyncField.all.joined(separator: ", ")
        let rows = try db.query("SELECT \(columns) FROM \(base.table) WHERE uuid = ?\(base.condition(nil))", [incoming.task] + base.arguments) { stored in
            SyncField.all.indices.map { SyncValue(stored.value(Int32($0))) }
        }
        guard let stored = rows.first else { return nil }
        let applied = incoming.applied
        let values = SyncField.all.enumerated().map { index, field in applied[field] ?? stored[index] }
        var row: [SQLiteValue] = []
        guard try newRow(task: incoming.task, value: { values[$0] }, into: &row, time: time, bottoms: &bottoms) else { return nil }
        try db.run(Self.oneReceivedRow, values: row)
        return try db.lastInsertRowID
    }

    /// Appends to `row` the columns of a task `incoming` makes (`uuid`, `modified`, then
    /// `SyncField.all`); false, appending nothing, without a title.
    func newRow(_ incoming: SyncMerge.Incoming, into row: inout [SQLiteValue], time: Timestamp, bottoms: inout [String: Int64]) throws -> Bool {
        let fields = incoming.applied
        return try newRow(task: incoming.task, value: { fields[SyncField.all[$0]] }, into: &row, time: time, bottoms: &bottoms)
    }

    /// Appends to `row` the columns of the task `task` whose field at each index of
    /// `SyncField.all` is `value(index)` (nil: not received); false, appending nothing,
    /// without a title.
    func newRow(task: String, value: (Int) -> SyncValue?, into row: inout [SQLiteValue], time: Timestamp, bottoms: inout [String: Int64]) throws -> Bool {
        guard case .text(let title)? = value(Self.receivedTitle) else { return false }
        let list: String
        if case .text(let name)? = value(Self.receivedList) { list = name } else { list = "Inbox" }
        let position: Int64
        if case .integer(let number)? = value(Self.receivedPosition) {
            position = number
        } else {
            position = try bottoms[list].map { Self.position($0, steppedBy: 1) } ?? bottomPosition(of: list)
            bottoms[list] = position
        }
        // What the change leaves out is the field's empty value (a machine with an older
        // version sends fewer fields), its column never null where the table says so.
        row.append(.text(task))
        row.append(.integer(time.millisecondsSince1970))
        for index in SyncField.all.indices {
            switch index {
            case Self.receivedTitle: row.append(.text(title))
            case Self.receivedList: row.append(.text(list))
            case Self.receivedPosition: row.append(.integer(position))
            default: row.append(value(index)?.sqliteValue ?? Self.emptyReceivedValues[index] ?? .integer(time.millisecondsSince1970))
            }
        }
        return true
    }

    /// Whether a task received with `position` is placed at the bottom of its list: read from
    /// the file, which must then hold the rows waiting for their `INSERT`.
    static func isPlacedAtBottom(_ position: SyncValue?) -> Bool {
        if case .integer? = position { return false }
        return true
    }

    /// Where `title`, `list` and `position` are in `SyncField.all`.
    static let receivedTitle = SyncField.all.firstIndex(of: "title") ?? -1
    static let receivedList = SyncField.all.firstIndex(of: "list") ?? -1
    static let receivedPosition = SyncField.all.firstIndex(of: "position") ?? -1

    /// Each synced field's empty value, in `SyncField.all`'s order: NULL for an optional
    /// field, nil for `created` (the time of the sync).
    static let emptyReceivedValues: [SQLiteValue?] = {
        let empty = Task(unsaved: "")
        return TaskFields.synced.map { field in
            if field.name == SyncField.created { return nil }
            return field.kind.isOptional ? .null : field.stored(empty).sqliteValue
        }
    }()

    static let oneReceivedRow = receivedInsertSQL(rows: 1)
    static let fullReceivedRows = receivedInsertSQL(rows: rowsPerInsert)

    static func receivedInsertSQL(rows: Int) -> String {
        let columns = SyncField.all
        let row = "(?, ?, " + columns.map { _ in "?" }.joined(separator: ", ") + ")"
        return "INSERT INTO task (uuid, modified, \(columns.joined(separator: ", "))) VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// The values of one received row: `uuid`, `modified`, then `SyncField.all`.
    static let receivedColumns = 2 + SyncField.all.count

    /// Inserts `rows` (newRow's, one after another) in one statement and empties them; the ids
    /// they got, which are consecutive (AUTOINCREMENT, one writer).
    func insertReceived(_ rows: inout [SQLiteValue]) throws -> [Int64] {
        let count = rows.count / Self.receivedColumns
        guard count > 0 else { return [] }
        let sql = count == Self.rowsPerInsert ? Self.fullReceivedRows : Self.receivedInsertSQL(rows: count)
        try db.run(sql, values: rows)
        let last = try db.lastInsertRowID
        rows.removeAll(keepingCapacity: true)
        return Array((last - Int64(count) + 1)...last)
    }
}
