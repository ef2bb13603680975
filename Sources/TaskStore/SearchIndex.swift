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

    /// How FTS5 writes a large fill: it gathers terms in memory (`hashsize`, 1 MB by default)
    /// and writes them out as a segment when that is full and at the end of each statement,
    /// and it merges a level's segments once there are `automerge` (4) of them. A fill of
    /// 100,000 tasks at the defaults took 2.34 G instructions, a third of them merging segments
    /// it had just written; with 4 MB and 16 it writes five segments and merges none: 1.56 G
    /// (at 1 MB and 16, or at 4 MB and 4, nothing is saved; 8 MB saves no more than 4). A
    /// search then reads a few more segments (6.39 → 6.69 M instructions for `list --search`
    /// at 100,000), and the one-task writes after it cost what they did.
    static let fillSettings: [(key: String, value: Int64, standard: Int64)] = [
        ("hashsize", 4 << 20, 1 << 20),
        ("automerge", 16, 4),
    ]

    /// Indexes the tasks whose ids are `firstID` or more, and puts the trigger back. The fill's
    /// settings are FTS5's own (`INSERT INTO task_text (task_text, rank)`), kept in the index's
    /// `task_text_config` table: each is put back to its value before the trigger returns, so
    /// later writes merge as FTS5 would have them. A setting the file did not hold is written
    /// out at FTS5's default (deleting the row is refused: a defensive connection cannot
    /// write FTS5's shadow tables).
    static func fill(_ db: Connection, fromID firstID: Int64) throws {
        var before: [Int64] = []
        for setting in fillSettings {
            before.append(try db.scalar("SELECT v FROM task_text_config WHERE k = ?", setting.key) ?? setting.standard)
            try db.run("INSERT INTO task_text (task_text, rank) VALUES (?, ?)", setting.key, setting.value)
        }
        try db.run("INSERT INTO task_text (rowid, title, notes) SELECT id, title, notes FROM task WHERE id >= ?", firstID)
        for (setting, value) in zip(fillSettings, before) {
            try db.run("INSERT INTO task_text (task_text, rank) VALUES (?, ?)", setting.key, value)
        }
        try db.execute(insertTrigger)
    }
}
