import SQLiteDB

/// The task schema's migrations, oldest first. Never edit one that has shipped: add another.
public enum TaskSchema {
    /// Every migration, in order; the schema version is their count.
    public static let migrations: [Migration] = [
        Migration("v1: tasks") { db in
            try db.execute("""
                CREATE TABLE task (
                    id        INTEGER PRIMARY KEY AUTOINCREMENT,  -- AUTOINCREMENT: ids are never reused
                    uuid      TEXT    NOT NULL UNIQUE,
                    title     TEXT    NOT NULL CHECK (length(trim(title)) > 0),
                    notes     TEXT    NOT NULL DEFAULT '',
                    list      TEXT    NOT NULL DEFAULT 'Inbox',
                    done      INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
                    completed INTEGER,                           -- ms since 1970, while done
                    due       TEXT,                              -- YYYY-MM-DD
                    priority  INTEGER CHECK (priority IN (0, 1, 2)),  -- H, M, L
                    tags      TEXT    NOT NULL DEFAULT '',       -- ' a b ': sorted, space-delimited
                    position  INTEGER NOT NULL,                  -- manual order in the list, with gaps
                    created   INTEGER NOT NULL,
                    modified  INTEGER NOT NULL
                );
                CREATE INDEX task_by_list ON task (list, position);
                CREATE INDEX task_by_done ON task (done, list, position);
                CREATE INDEX task_by_due ON task (due) WHERE due IS NOT NULL;
                """)
        },
        Migration("v2: CHECK constraints without IN lists") { db in
            // `done IN (0, 1)` and `priority IN (0, 1, 2)` made SQLite build and clear an
            // ephemeral table for every inserted row: 17 % of a bulk import. The same rules as
            // comparisons cost nothing. SQLite cannot alter a CHECK, so the table is rebuilt,
            // keeping every id and the AUTOINCREMENT counter (an id is never reused).
            let sequence = try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'task'") ?? 0
            try db.execute("""
                CREATE TABLE task_v2 (
                    id        INTEGER PRIMARY KEY AUTOINCREMENT,
                    uuid      TEXT    NOT NULL UNIQUE,
                    title     TEXT    NOT NULL CHECK (length(trim(title)) > 0),
                    notes     TEXT    NOT NULL DEFAULT '',
                    list      TEXT    NOT NULL DEFAULT 'Inbox',
                    done      INTEGER NOT NULL DEFAULT 0 CHECK (done = 0 OR done = 1),
                    completed INTEGER,
                    due       TEXT,
                    priority  INTEGER CHECK (priority = 0 OR priority = 1 OR priority = 2),  -- H, M, L
                    tags      TEXT    NOT NULL DEFAULT '',
                    position  INTEGER NOT NULL,
                    created   INTEGER NOT NULL,
                    modified  INTEGER NOT NULL
                );
                INSERT INTO task_v2 (id, uuid, title, notes, list, done, completed, due, priority, tags, position, created, modified)
                    SELECT id, uuid, title, notes, list, done, completed, due, priority, tags, position, created, modified FROM task;
                DROP TABLE task;
                ALTER TABLE task_v2 RENAME TO task;
                CREATE INDEX task_by_list ON task (list, position);
                CREATE INDEX task_by_done ON task (done, list, position);
                CREATE INDEX task_by_due ON task (due) WHERE due IS NOT NULL;
                DELETE FROM sqlite_sequence WHERE name IN ('task', 'task_v2');
                """)
            try db.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('task', max(?, coalesce((SELECT max(id) FROM task), 0)))", sequence)
        },
    ]
}
