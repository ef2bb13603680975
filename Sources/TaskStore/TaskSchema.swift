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
    ]

    /// The columns every task query reads, in the order `SQLiteTaskService.readTask` expects.
    static let columns = "id, uuid, title, notes, list, done, completed, due, priority, tags, position, created, modified"
}
