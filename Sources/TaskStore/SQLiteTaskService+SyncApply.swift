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
            try entry.delete(run: current.id...current.id, uuid: current.uuid)
            report.deleted += 1
            return nil
        }
        let fields = incoming.applied
        if let current {
            var assignments: [(TaskField, before: SQLiteValue, after: SQLiteValue)] = []
            for field in TaskFields.recorded {
                guard let value = fields[field.name]?.sqliteValue else { continue }
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
        // Not here: deleted here since the last sync (the delete wins), or new.
        if try db.query("SELECT 1 FROM \(base.table) WHERE uuid = ?\(base.condition(nil))", [incoming.task] + base.arguments, row: { $0.int64(0) }).first != nil {
            return nil
        }
        guard let row = try newRow(incoming, time: time, bottoms: &bottoms) else { return nil }
        try db.run(Self.oneReceivedRow, arguments: row)
        report.created += 1
        return try db.lastInsertRowID
    }

    /// The columns of a task `incoming` makes (`uuid`, `modified`, then `SyncField.all`); nil
    /// without a title.
    func newRow(_ incoming: SyncMerge.Incoming, time: Timestamp, bottoms: inout [String: Int64]) throws -> [SQLiteValue]? {
        let fields = incoming.applied
        guard case .text(let title)? = fields["title"] else { return nil }
        let list: String
        if case .text(let name)? = fields["list"] { list = name } else { list = "Inbox" }
        let position: Int64
        if case .integer(let value)? = fields["position"] {
            position = value
        } else {
            position = try bottoms[list].map { $0 + Self.positionGap } ?? bottomPosition(of: list)
            bottoms[list] = position
        }
        // What the change leaves out is the field's empty value (a machine with an older
        // version sends fewer fields), its column never null where the table says so.
        var values: [String: SQLiteValue] = Self.emptyReceivedValues
        values["created"] = .integer(time.millisecondsSince1970)
        for (field, value) in fields { values[field] = value.sqliteValue }
        values["title"] = .text(title)
        values["list"] = .text(list)
        values["position"] = .integer(position)
        return [.text(incoming.task), .integer(time.millisecondsSince1970)] + SyncField.all.map { values[$0] ?? .null }
    }

    /// Each non-optional synced field's empty value.
    static let emptyReceivedValues: [String: SQLiteValue] = {
        let empty = Task(unsaved: "")
        var values: [String: SQLiteValue] = [:]
        for field in TaskFields.synced where !field.kind.isOptional { values[field.name] = field.stored(empty).sqliteValue }
        return values
    }()

    static let oneReceivedRow = receivedInsertSQL(rows: 1)
    static let fullReceivedRows = receivedInsertSQL(rows: rowsPerInsert)

    static func receivedInsertSQL(rows: Int) -> String {
        let columns = SyncField.all
        let row = "(?, ?, " + columns.map { _ in "?" }.joined(separator: ", ") + ")"
        return "INSERT INTO task (uuid, modified, \(columns.joined(separator: ", "))) VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Inserts `rows` (newRow's) in one statement and empties them; the ids they got, which
    /// are consecutive (AUTOINCREMENT, one writer).
    func insertReceived(_ rows: inout [[SQLiteValue]]) throws -> [Int64] {
        guard !rows.isEmpty else { return [] }
        let sql = rows.count == Self.rowsPerInsert ? Self.fullReceivedRows : Self.receivedInsertSQL(rows: rows.count)
        try db.run(sql, arguments: rows.flatMap { $0 })
        let last = try db.lastInsertRowID
        defer { rows.removeAll(keepingCapacity: true) }
        return Array((last - Int64(rows.count) + 1)...last)
    }
}
