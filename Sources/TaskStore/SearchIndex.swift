import SQLiteDB

/// The search index (`task_text`, FTS5 with trigrams over title and notes) and the trigger that
/// fills it row by row. A large insert sets the trigger aside and fills the index once, with one
/// `INSERT … SELECT`, before the transaction commits: row by row, the trigger was half of an
/// `add -` of 100,000 lines (0.6 s of 1.2 s); one statement indexes the same rows in 0.25 s.
/// The trigger is dropped and made again inside the write transaction, so a failure anywhere
/// rolls both back with the rows, and no other connection ever sees the table without it.
enum SearchIndex {
    /// The trigger as the v4 migration made it, byte for byte (`sqlite_schema` keeps the text).
    static let insertTrigger = """
        CREATE TRIGGER task_text_insert AFTER INSERT ON task BEGIN
            INSERT INTO task_text (rowid, title, notes) VALUES (new.id, new.title, new.notes);
        END
        """

    /// From how many rows an insert fills the index once instead of row by row.
    static let deferredFrom = 1_000

    /// Sets the trigger aside and returns the first id the rows inserted from now on will
    /// have (above the file's last: AUTOINCREMENT, and imports keep only ids never used), for
    /// `fill`. Rows updated meanwhile must be rows the index already holds (the update trigger
    /// still runs), which is why only inserts of new tasks defer.
    static func deferInserts(_ db: Connection) throws -> Int64 {
        let next = (try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'task'") ?? 0) + 1
        try db.execute("DROP TRIGGER task_text_insert")
        return next
    }

    /// Indexes the tasks whose ids are `firstID` or more, and puts the trigger back.
    static func fill(_ db: Connection, fromID firstID: Int64) throws {
        try db.run("INSERT INTO task_text (rowid, title, notes) SELECT id, title, notes FROM task WHERE id >= ?", firstID)
        try db.execute(insertTrigger)
    }
}
