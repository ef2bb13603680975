import SQLiteDB
import TextFormats

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
        Migration("v3: the history") { db in
            // One row per entry (a command, or the undo or redo of one); one row per task an
            // entry changed, or per run of tasks it created or deleted together; one row per
            // field a change changed, before and after, as the task's column held them (no
            // declared type: no affinity converts them); and the rows an entry removed, so that
            // undo and redo put them back whole, id, uuid and position included.
            try db.execute("""
                CREATE TABLE history (
                    id        INTEGER PRIMARY KEY,      -- never reused: the newest entry is never removed
                    time      INTEGER NOT NULL,
                    command   TEXT    NOT NULL,
                    summary   TEXT    NOT NULL DEFAULT '',
                    kind      INTEGER NOT NULL DEFAULT 0 CHECK (kind = 0 OR kind = 1 OR kind = 2),  -- command, undo, redo
                    target    INTEGER,                  -- undo, redo: the entry reverted or applied again
                    undone_by INTEGER,                  -- a command entry reverted by this undo entry
                    redoable  INTEGER NOT NULL DEFAULT 0 CHECK (redoable = 0 OR redoable = 1)
                );
                CREATE INDEX history_redoable ON history (undone_by) WHERE redoable = 1;
                CREATE TABLE history_change (
                    entry INTEGER NOT NULL,
                    seq   INTEGER NOT NULL,
                    kind  INTEGER NOT NULL CHECK (kind = 0 OR kind = 1 OR kind = 2),  -- created, changed, deleted
                    task  INTEGER NOT NULL,             -- the task, or the first of a run
                    last  INTEGER NOT NULL,             -- the last of a run; task itself otherwise
                    uuid  TEXT,
                    PRIMARY KEY (entry, seq)
                ) WITHOUT ROWID;
                CREATE INDEX history_change_by_task ON history_change (task, entry);
                CREATE INDEX history_change_runs ON history_change (last, task) WHERE last > task;
                CREATE TABLE history_field (
                    entry  INTEGER NOT NULL,
                    seq    INTEGER NOT NULL,
                    field  TEXT    NOT NULL,
                    before,
                    after,
                    PRIMARY KEY (entry, seq, field)
                ) WITHOUT ROWID;
                CREATE TABLE deleted_task (
                    entry     INTEGER NOT NULL,
                    id        INTEGER NOT NULL,
                    uuid      TEXT    NOT NULL,
                    title     TEXT    NOT NULL,
                    notes     TEXT    NOT NULL,
                    list      TEXT    NOT NULL,
                    done      INTEGER NOT NULL,
                    completed INTEGER,
                    due       TEXT,
                    priority  INTEGER,
                    tags      TEXT    NOT NULL,
                    position  INTEGER NOT NULL,
                    created   INTEGER NOT NULL,
                    modified  INTEGER NOT NULL,
                    PRIMARY KEY (entry, id)
                ) WITHOUT ROWID;
                """)
        },
        Migration("v4: repeating, waiting, and search in every script") { db in
            // A repeating task's rule (`every 2w`), its series (the first occurrence's uuid) and
            // the day its schedule counts from; the day it waits for. Nullable columns added at
            // the end: no rewrite of the table. The rows the history keeps of deleted tasks
            // carry them too.
            // Search: an FTS5 index with the trigram tokenizer over title and notes, kept by
            // triggers (so a task written by any SQLite tool is found too), folding case in
            // every script (`ärger` finds `Ärger`); a substring of 3 characters or more is a
            // lookup in it instead of a scan of every row.
            try db.execute("""
                ALTER TABLE task ADD COLUMN repeat TEXT;      -- 'every 2w', 'after 3d'
                ALTER TABLE task ADD COLUMN series TEXT;      -- the series' uuid, while it repeats
                ALTER TABLE task ADD COLUMN anchor TEXT;      -- YYYY-MM-DD the schedule counts from
                ALTER TABLE task ADD COLUMN wait TEXT;        -- YYYY-MM-DD: hidden until then
                ALTER TABLE deleted_task ADD COLUMN repeat TEXT;
                ALTER TABLE deleted_task ADD COLUMN series TEXT;
                ALTER TABLE deleted_task ADD COLUMN anchor TEXT;
                ALTER TABLE deleted_task ADD COLUMN wait TEXT;
                CREATE INDEX task_by_series ON task (series) WHERE series IS NOT NULL;
                CREATE VIRTUAL TABLE task_text USING fts5(title, notes, content = 'task', content_rowid = 'id', tokenize = 'trigram');
                \(SearchIndex.insertTrigger);
                CREATE TRIGGER task_text_delete AFTER DELETE ON task BEGIN
                    INSERT INTO task_text (task_text, rowid, title, notes) VALUES ('delete', old.id, old.title, old.notes);
                END;
                CREATE TRIGGER task_text_update AFTER UPDATE OF title, notes ON task BEGIN
                    INSERT INTO task_text (task_text, rowid, title, notes) VALUES ('delete', old.id, old.title, old.notes);
                    INSERT INTO task_text (rowid, title, notes) VALUES (new.id, new.title, new.notes);
                END;
                INSERT INTO task_text (task_text) VALUES ('rebuild');
                """)
        },
        Migration("v5: sync") { db in
            // The file's identity among the machines that sync (a random uuid, made once: a
            // copied file would share it, so a new machine starts from an empty file), the
            // remote last named (never its password), how far its sequence has been applied,
            // the newest hybrid clock seen. And the base: each synced task's fields as the
            // last sync left them, so that what changed here since is a comparison, not a log
            // every command would have to write. No declared types: values kept as the task's
            // columns hold them.
            try db.execute("""
                CREATE TABLE sync_state (
                    id     INTEGER PRIMARY KEY CHECK (id = 1),
                    node   TEXT    NOT NULL,
                    remote TEXT,
                    pulled INTEGER NOT NULL DEFAULT 0,
                    clock  INTEGER NOT NULL DEFAULT 0,
                    synced INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO sync_state (id, node) VALUES (1, lower(
                    hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
                    substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))));
                CREATE TABLE sync_base (
                    uuid TEXT PRIMARY KEY,
                    title, notes, list, done, completed, due, priority, tags, position, created, repeat, series, anchor, wait
                ) WITHOUT ROWID;
                """)
        },
        Migration("v6: no password in the history") { db in
            // Older versions recorded `tasks sync --remote postgresql://me:SECRET@host/db`
            // as typed; the history is kept in the file and printed. Mask every password.
            // secure_delete: the bytes a shorter value frees are zeroed, not left in the page.
            let secureDelete = try db.scalar("PRAGMA secure_delete") ?? 0
            try db.execute("PRAGMA secure_delete = ON")
            defer { try? db.execute("PRAGMA secure_delete = \(secureDelete)") }
            let commands = try db.query("SELECT id, command FROM history") { ($0.int64(0), $0.string(1)) }
            for (id, command) in commands {
                let masked = Redaction.passwords(in: command)
                if masked != command { try db.run("UPDATE history SET command = ? WHERE id = ?", masked, id) }
            }
        },
        Migration("v7: scheduled, until, and what other tools wrote") { db in
            // The day work can start, and the day after which a pending task has expired:
            // nullable columns at the end (no rewrite), in the rows of deleted tasks and in the
            // sync base too (no declared type there, as its other columns). And `extras`: the
            // attributes another tool wrote that have no field here (Taskwarrior's `depends`,
            // its user-defined attributes…), members of a JSON object, kept for the way back.
            try db.execute("""
                ALTER TABLE task ADD COLUMN scheduled TEXT;   -- YYYY-MM-DD: not ready before
                ALTER TABLE task ADD COLUMN until TEXT;       -- YYYY-MM-DD: expired after, while pending
                ALTER TABLE deleted_task ADD COLUMN scheduled TEXT;
                ALTER TABLE deleted_task ADD COLUMN until TEXT;
                ALTER TABLE sync_base ADD COLUMN scheduled;
                ALTER TABLE sync_base ADD COLUMN until;
                ALTER TABLE task ADD COLUMN extras TEXT NOT NULL DEFAULT '';
                ALTER TABLE deleted_task ADD COLUMN extras TEXT NOT NULL DEFAULT '';
                ALTER TABLE sync_base ADD COLUMN extras;
                """)
        },
        Migration("v8: start, time spent, dependencies, annotations") { db in
            // When an active task was started (milliseconds, null when it is not active) and
            // the seconds spent on it before; the uuids it waits on (' u1 u2 ', as tags); the
            // lines added to it at moments (AnnotationsText). Columns at the end, no rewrite.
            try db.execute("""
                ALTER TABLE task ADD COLUMN start INTEGER;
                ALTER TABLE task ADD COLUMN spent INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE task ADD COLUMN depends TEXT NOT NULL DEFAULT '';
                ALTER TABLE task ADD COLUMN annotations TEXT NOT NULL DEFAULT '';
                ALTER TABLE deleted_task ADD COLUMN start INTEGER;
                ALTER TABLE deleted_task ADD COLUMN spent INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE deleted_task ADD COLUMN depends TEXT NOT NULL DEFAULT '';
                ALTER TABLE deleted_task ADD COLUMN annotations TEXT NOT NULL DEFAULT '';
                ALTER TABLE sync_base ADD COLUMN start;
                ALTER TABLE sync_base ADD COLUMN spent;
                ALTER TABLE sync_base ADD COLUMN depends;
                ALTER TABLE sync_base ADD COLUMN annotations;
                CREATE INDEX task_active ON task(start) WHERE start IS NOT NULL;
                """)
        },
        Migration("v9: the tasks that wait on one") { db in
            // The ui's details pane asks, on every cursor move, which pending tasks wait on
            // the task under the cursor: only the tasks that wait on something, in the listing's
            // order (a scan of every task took 40 ms at 100,000).
            try db.execute("CREATE INDEX task_waiting_on ON task (done, list, position, id) WHERE depends <> ''")
        },
        Migration("v10: what a CalDAV remote remembers") { db in
            // A CalDAV server keeps no log of changes: its remote remembers, per remote, each
            // item as last seen (its path, ETag and text), written with the sync's apply. And
            // each such remote has its own base, so that a file synced with several remotes in
            // turn sends each what the others brought (sync_base stays PostgreSQL's).
            try db.execute("""
                CREATE TABLE sync_memory (remote TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE sync_remote_base (
                    remote TEXT NOT NULL,
                    uuid   TEXT NOT NULL,
                    title, notes, list, done, completed, due, priority, tags, position, created, repeat, series, anchor, wait,
                    scheduled, until, extras, start, spent, depends, annotations,
                    PRIMARY KEY (remote, uuid)
                ) WITHOUT ROWID;
                """)
        },
        Migration("v11: the tasks changed since each remote's last sync") { db in
            // What changed here since a sync was found by comparing every task with its base
            // (115 ms of an idle sync at 100,000 tasks), because another SQLite tool may change
            // a row without touching `modified`. Triggers keep the guarantee without the scan:
            // every writer of the task table — ours, the sqlite3 shell, any other — marks the
            // task's uuid dirty for each remote that tracks changes ('' is PostgreSQL's base,
            // sync_base; a CalDAV remote's name, sync_remote_base). A remote tracks once its
            // first sync since this version compared every task: that sync adds its row with
            // the empty uuid, which the triggers read (the key's first column is the uuid, so
            // those rows come first). A sync reads only its remote's dirty uuids and clears
            // them in its apply. One table, and no trigger until a file's first sync: every
            // statement that writes the task table compiles its triggers, and a file that
            // never syncs should pay nothing for them (nor parse a second table at open).
            try db.execute("CREATE TABLE sync_dirty (uuid TEXT NOT NULL, remote TEXT NOT NULL, PRIMARY KEY (uuid, remote)) WITHOUT ROWID")
        },
        Migration("v12: an entry's changes in its own row") { db in
            // A one-task command wrote its entry into three tables and two indexes: five pages
            // beside the task's own, each written to the WAL and again at the checkpoint. Now
            // the changes are packed as JSON in the entry's row (`PackedChanges`): one page.
            // A large entry keeps its first parts in `history_part`. `lo` and `hi` bound the
            // task ids a row touches, so that a task's history reads the JSON only of the rows
            // that may hold it. The old rows are packed in place, values with their types (a
            // BLOB as {"x": hex}, which JSON cannot hold otherwise).
            try db.execute("""
                ALTER TABLE history ADD COLUMN lo INTEGER;
                ALTER TABLE history ADD COLUMN hi INTEGER;
                ALTER TABLE history ADD COLUMN changes TEXT NOT NULL DEFAULT '[]';
                CREATE TABLE history_part (
                    entry   INTEGER NOT NULL,
                    part    INTEGER NOT NULL,
                    lo      INTEGER NOT NULL,
                    hi      INTEGER NOT NULL,
                    changes TEXT    NOT NULL,
                    PRIMARY KEY (entry, part)
                ) WITHOUT ROWID;
                UPDATE history SET
                    lo = (SELECT min(task) FROM history_change WHERE entry = history.id),
                    hi = (SELECT max(last) FROM history_change WHERE entry = history.id),
                    changes = coalesce((
                        SELECT json_group_array(json(packed)) FROM (
                            SELECT CASE WHEN c.kind = 1 THEN json_array(c.kind, c.task, c.last, c.uuid, json(coalesce((
                                       SELECT json_group_array(json_array(f.field,
                                           CASE WHEN typeof(f.before) = 'blob' THEN json_object('x', lower(hex(f.before))) ELSE f.before END,
                                           CASE WHEN typeof(f.after) = 'blob' THEN json_object('x', lower(hex(f.after))) ELSE f.after END))
                                       FROM history_field f WHERE f.entry = c.entry AND f.seq = c.seq), '[]')))
                                   ELSE json_array(c.kind, c.task, c.last, c.uuid) END AS packed
                            FROM history_change c WHERE c.entry = history.id ORDER BY c.seq)), '[]');
                DROP TABLE history_field;
                DROP TABLE history_change;
                """)
        },
        Migration("v13: a search index without column sizes") { db in
            // FTS5 kept each task's length in tokens, per column, in a table of its own
            // (`task_text_docsize`), for ranking functions (bm25) this program never calls:
            // one more row written for every task indexed, 455 M of the 1,600 M instructions
            // that indexing 100,000 new tasks took. `columnsize = 0` keeps none; a search finds
            // the same rows. An FTS5 table's options are fixed when it is made, so the index is
            // made again from the task table (a million tasks: 2.7 s, once). What
            // someone set on the index (`automerge`, `pgsz`, …) is set again on the new one.
            try db.execute("""
                CREATE TEMP TABLE kept_setting AS SELECT k, v FROM task_text_config WHERE k <> 'version';
                DROP TABLE task_text;
                CREATE VIRTUAL TABLE task_text USING fts5(title, notes, content = 'task', content_rowid = 'id', tokenize = 'trigram', columnsize = 0);
                INSERT INTO task_text (task_text, rank) SELECT k, v FROM kept_setting;
                DROP TABLE kept_setting;
                INSERT INTO task_text (task_text) VALUES ('rebuild');
                """)
        },
        Migration("v14: deleted tasks kept as tombstones") { db in
            // A row a command deleted is the task's tombstone (`status:deleted`), kept past the
            // history's pruning until it is purged; a row an undo took away (of a task it had
            // made) is not. `removed` is when it was deleted; `purged` the entry of the purge.
            // The rows kept so far were kept by commands and redos, or by undos.
            try db.execute("""
                ALTER TABLE deleted_task ADD COLUMN tombstone INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE deleted_task ADD COLUMN removed INTEGER;
                ALTER TABLE deleted_task ADD COLUMN purged INTEGER;
                UPDATE deleted_task SET tombstone = 1, removed = (SELECT time FROM history WHERE history.id = deleted_task.entry)
                    WHERE entry IN (SELECT id FROM history WHERE kind IN (0, 2));
                CREATE INDEX deleted_task_by_uuid ON deleted_task (uuid, entry);
                """)
        },
        Migration("v15: reminders") { db in
            // A task's reminders (RemindersText: ' due-15min 20261207T140000Z '), a column at the
            // end of each table that holds a task's fields; no rewrite.
            try db.execute("""
                ALTER TABLE task ADD COLUMN reminders TEXT NOT NULL DEFAULT '';
                ALTER TABLE deleted_task ADD COLUMN reminders TEXT NOT NULL DEFAULT '';
                ALTER TABLE sync_base ADD COLUMN reminders;
                ALTER TABLE sync_remote_base ADD COLUMN reminders;
                """)
        },
        Migration("v16: subtasks") { db in
            // The uuid of the task a task is a subtask of, or null; the subtasks of a task found
            // by the index (`+PARENT`).
            try db.execute("""
                ALTER TABLE task ADD COLUMN parent TEXT;
                ALTER TABLE deleted_task ADD COLUMN parent TEXT;
                ALTER TABLE sync_base ADD COLUMN parent;
                ALTER TABLE sync_remote_base ADD COLUMN parent;
                CREATE INDEX task_by_parent ON task (parent) WHERE parent IS NOT NULL;
                """)
        },
    ]

    /// The triggers that keep `sync_dirty` (migration v11), made with a file's first sync.
    static let dirtyTriggers = """
        CREATE TRIGGER IF NOT EXISTS sync_dirty_insert AFTER INSERT ON task BEGIN
            INSERT OR IGNORE INTO sync_dirty (uuid, remote) SELECT new.uuid, remote FROM sync_dirty WHERE uuid = '';
        END;
        CREATE TRIGGER IF NOT EXISTS sync_dirty_update AFTER UPDATE ON task BEGIN
            INSERT OR IGNORE INTO sync_dirty (uuid, remote) SELECT new.uuid, remote FROM sync_dirty WHERE uuid = '';
            INSERT OR IGNORE INTO sync_dirty (uuid, remote) SELECT old.uuid, remote FROM sync_dirty WHERE uuid = '' AND old.uuid IS NOT new.uuid;
        END;
        CREATE TRIGGER IF NOT EXISTS sync_dirty_delete AFTER DELETE ON task BEGIN
            INSERT OR IGNORE INTO sync_dirty (uuid, remote) SELECT old.uuid, remote FROM sync_dirty WHERE uuid = '';
        END;
        """
}
