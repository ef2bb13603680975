import QueryLanguage
import ReactorCore
import SQLiteDB
import TaskModel

// MARK: - Records kept for another tool: Taskwarrior's recurring templates

extension SQLiteTaskService {
    /// Made by the first import that brings such a record (a file that never met one has no
    /// such table, and an older `tasks` reads the file as before).
    static let keptTable = """
        CREATE TABLE IF NOT EXISTS kept_record (
            format TEXT NOT NULL,  -- 'taskwarrior'
            uuid   TEXT NOT NULL,
            body   TEXT NOT NULL,  -- the record as the other tool wrote it, last seen
            PRIMARY KEY (format, uuid)
        ) WITHOUT ROWID
        """

    /// Keeps `records` in the import's transaction, each replacing the one of its uuid (the
    /// other tool's newer copy). Outside the history: an undo of the import leaves them, and
    /// they only ever go back to the tool that wrote them.
    func keep(_ records: [KeptRecord]) throws {
        if records.isEmpty { return }
        try db.execute(Self.keptTable)
        for record in records {
            try db.run("INSERT OR REPLACE INTO kept_record (format, uuid, body) VALUES (?, ?, ?)", arguments: [record.format, record.uuid, record.body])
        }
    }

    /// The records kept for `format`, by uuid.
    public func keptRecords(format: String) -> Observable<[KeptRecord]> {
        call { service in
            let exists = try service.db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'kept_record'") ?? 0
            guard exists > 0 else { return [] }
            // A template Taskwarrior later wrote as a task (a series deleted there comes in as a
            // deleted task) is that task now: the kept copy would bring the series back.
            return try service.db.query("""
                SELECT k.uuid, k.body FROM kept_record AS k WHERE k.format = ?
                    AND NOT EXISTS (SELECT 1 FROM task AS t WHERE t.uuid = k.uuid)
                    AND NOT EXISTS (SELECT 1 FROM deleted_task AS d WHERE d.uuid = k.uuid)
                ORDER BY k.uuid
                """, [format]) { row in
                KeptRecord(format: format, uuid: row.string(0), body: row.string(1))
            }
        }
    }
}
