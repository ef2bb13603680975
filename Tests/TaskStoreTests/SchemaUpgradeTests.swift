import QueryLanguage
import SQLiteDB
import TaskModel
import TaskReactors
import _TestSupport
import Testing
@testable import TaskStore

/// A copy of `Fixtures/TaskStore/NAME` (a database file an older version wrote) in `folder`.
func copyOfFixture(_ name: String, into folder: TemporaryFolder) throws -> String {
    let path = folder.file("tasks.db")
    let fixture = readBytes(fixturesFolder() + "/TaskStore/" + name)
    try #require(fixture.count >= 4096, "Fixtures/TaskStore/\(name) is there")
    writeBytes(path, fixture)
    return path
}

/// A file written by the schema-1 program (`Fixtures/TaskStore/schema-v1.db`: three tasks
/// added, one done, the newest deleted) opened by this one.
@Suite("TaskStore: upgrading a schema-1 file in place")
struct SchemaUpgradeTests {
    static func rows(_ db: Connection) throws -> [String] {
        try db.query("SELECT id, uuid, title, notes, list, done, completed, due, priority, tags, position, created, modified FROM task ORDER BY id") { row in
            (0..<13).map { row.isNull(Int32($0)) ? "NULL" : row.string(Int32($0)) }.joined(separator: "|")
        }
    }

    @Test func everyTaskIdAndTheCounterSurvive() throws {
        let folder = TemporaryFolder()
        let path = try copyOfFixture("schema-v1.db", into: folder)
        let before = try SchemaUpgradeTests.rows(Connection(path: path))
        #expect(before.count == 2)
        let service = try SQLiteTaskService(path: path, create: false)
        #expect(try service.db.scalar("PRAGMA user_version") == Int64(TaskSchema.migrations.count))
        #expect(try service.db.query("SELECT name FROM schema_migrations ORDER BY rowid") { $0.string(0) }
            == ["v1: tasks", "v2: CHECK constraints without IN lists", "v3: the history", "v4: repeating, waiting, and search in every script", "v5: sync",
                "v6: no password in the history", "v7: scheduled, until, and what other tools wrote",
                "v8: start, time spent, dependencies, annotations", "v9: the tasks that wait on one", "v10: what a CalDAV remote remembers",
                "v11: the tasks changed since each remote's last sync", "v12: an entry's changes in its own row",
                "v13: a search index without column sizes", "v14: deleted tasks kept as tombstones", "v15: reminders", "v16: subtasks"])
        #expect(try SchemaUpgradeTests.rows(service.db) == before, "every field of every task as it was")
        #expect(try service.db.scalarString("PRAGMA integrity_check") == "ok")
        #expect(try service.createNow([TaskDraft(title: "new")]).map(\.id) == [4], "id 3 was used (then deleted): never again")
        #expect(throws: SQLiteError.self) { try service.db.execute("UPDATE task SET done = 2 WHERE id = 1") }
        #expect(throws: SQLiteError.self) { try service.db.execute("UPDATE task SET priority = 5 WHERE id = 1") }
        #expect(throws: SQLiteError.self) { try service.db.execute("UPDATE task SET title = '  ' WHERE id = 1") }
        try service.db.execute("UPDATE task SET priority = NULL WHERE id = 1")
    }
}

/// Issue 53: a file of schema 13 keeps the rows its deletes kept for undo; those a command or
/// a redo deleted become the deleted tasks' tombstones, those an undo took back do not.
@Suite("TaskStore: schema 14 keeps the deleted tasks")
struct TombstoneMigrationTests {
    @Test func theRowsCommandsDeletedBecomeTombstones() throws {
        let folder = TemporaryFolder()
        let path = folder.file("tasks.db")
        do {
            let service = try SQLiteTaskService(path: path)
            _ = try service.createNow(["a", "b", "c"].map { TaskDraft(title: $0) })
            _ = try service.deleteNow(ids: [2])
            _ = try service.createNow([TaskDraft(title: "added, then undone")])
            _ = try service.undoNow(entry: nil)
        }
        let old = try Connection(path: path)
        try old.execute("""
            DELETE FROM schema_migrations WHERE name LIKE 'v14%' OR name LIKE 'v15%' OR name LIKE 'v16%';
            DROP INDEX task_by_parent; ALTER TABLE task DROP COLUMN parent; ALTER TABLE deleted_task DROP COLUMN parent;
            ALTER TABLE sync_base DROP COLUMN parent; ALTER TABLE sync_remote_base DROP COLUMN parent;
            ALTER TABLE task DROP COLUMN reminders; ALTER TABLE deleted_task DROP COLUMN reminders;
            ALTER TABLE sync_base DROP COLUMN reminders; ALTER TABLE sync_remote_base DROP COLUMN reminders;
            DROP INDEX deleted_task_by_uuid; ALTER TABLE deleted_task DROP COLUMN tombstone; ALTER TABLE deleted_task DROP COLUMN removed;
            ALTER TABLE deleted_task DROP COLUMN purged;
            PRAGMA user_version = 13
            """)
        #expect(try old.scalar("SELECT count(*) FROM deleted_task") == 2)
        let service = try SQLiteTaskService(path: path, create: false)
        let deleted = try service.fetchNow(TaskQuery(status: .all, filter: .term(.status(.deleted)), sort: .id, grouping: .none))
        #expect(deleted.map(\.title) == ["b"] && deleted.allSatisfy(\.isDeleted))
        let deletedAt = try service.db.scalar("SELECT time FROM history WHERE id = 2")
        #expect(deleted.first?.modified.millisecondsSince1970 == deletedAt, "deleted when its entry says")
    }
}

/// Issue 24: older versions kept `tasks sync --remote postgresql://me:SECRET@host/db` in the
/// history as typed. Schema 6 masks every password in the entries already written.
@Suite("TaskStore: schema 6 masks the passwords older versions recorded")
struct PasswordMigrationTests {
    @Test func entriesWrittenBeforeSchemaSixLoseTheirPasswords() throws {
        let folder = TemporaryFolder()
        let path = folder.file("tasks.db")
        do {
            let service = try SQLiteTaskService(path: path)
            service.commandText = "tasks sync --remote postgresql://me:SECRET@db.example.com/tasks"
            _ = try service.createNow([TaskDraft(title: "a")])
            service.commandText = "tasks sync --remote 'host=db password=SECRET dbname=tasks'"
            _ = try service.createNow([TaskDraft(title: "b")])
            service.commandText = "tasks add c"
            _ = try service.createNow([TaskDraft(title: "c")])
        }
        // As a schema-5 program left it: the same tables (6 changes no table; 7's and 8's
        // columns, 9's index, 10's tables, 11's triggers and 12's packed history are taken away
        // again; 13's index is made again either way), the password typed.
        let old = try Connection(path: path)
        try old.execute("""
            ALTER TABLE history DROP COLUMN lo; ALTER TABLE history DROP COLUMN hi; ALTER TABLE history DROP COLUMN changes;
            DROP TABLE history_part;
            CREATE TABLE history_change (entry INTEGER NOT NULL, seq INTEGER NOT NULL, kind INTEGER NOT NULL, task INTEGER NOT NULL,
                last INTEGER NOT NULL, uuid TEXT, PRIMARY KEY (entry, seq)) WITHOUT ROWID;
            CREATE TABLE history_field (entry INTEGER NOT NULL, seq INTEGER NOT NULL, field TEXT NOT NULL, before, after,
                PRIMARY KEY (entry, seq, field)) WITHOUT ROWID;
            UPDATE history SET command = replace(command, '***', 'SECRET');
            DELETE FROM schema_migrations WHERE name LIKE 'v6%' OR name LIKE 'v7%' OR name LIKE 'v8%' OR name LIKE 'v9%' OR name LIKE 'v10%' OR name LIKE 'v11%' OR name LIKE 'v12%' OR name LIKE 'v13%' OR name LIKE 'v14%' OR name LIKE 'v15%' OR name LIKE 'v16%';
            DROP INDEX task_by_parent; ALTER TABLE task DROP COLUMN parent; ALTER TABLE deleted_task DROP COLUMN parent; ALTER TABLE sync_base DROP COLUMN parent;
            ALTER TABLE task DROP COLUMN reminders; ALTER TABLE deleted_task DROP COLUMN reminders; ALTER TABLE sync_base DROP COLUMN reminders;
            DROP INDEX deleted_task_by_uuid; ALTER TABLE deleted_task DROP COLUMN tombstone; ALTER TABLE deleted_task DROP COLUMN removed;
            ALTER TABLE deleted_task DROP COLUMN purged;
            DROP TRIGGER IF EXISTS sync_dirty_insert; DROP TRIGGER IF EXISTS sync_dirty_update; DROP TRIGGER IF EXISTS sync_dirty_delete;
            DROP TABLE sync_dirty;
            DROP INDEX task_active; DROP INDEX task_waiting_on; DROP TABLE sync_memory; DROP TABLE sync_remote_base;
            ALTER TABLE task DROP COLUMN start; ALTER TABLE task DROP COLUMN spent; ALTER TABLE task DROP COLUMN depends;
            ALTER TABLE task DROP COLUMN annotations;
            ALTER TABLE deleted_task DROP COLUMN start; ALTER TABLE deleted_task DROP COLUMN spent;
            ALTER TABLE deleted_task DROP COLUMN depends; ALTER TABLE deleted_task DROP COLUMN annotations;
            ALTER TABLE sync_base DROP COLUMN start; ALTER TABLE sync_base DROP COLUMN spent;
            ALTER TABLE sync_base DROP COLUMN depends; ALTER TABLE sync_base DROP COLUMN annotations;
            ALTER TABLE task DROP COLUMN scheduled; ALTER TABLE task DROP COLUMN until;
            ALTER TABLE deleted_task DROP COLUMN scheduled; ALTER TABLE deleted_task DROP COLUMN until;
            ALTER TABLE sync_base DROP COLUMN scheduled; ALTER TABLE sync_base DROP COLUMN until;
            ALTER TABLE task DROP COLUMN extras; ALTER TABLE deleted_task DROP COLUMN extras; ALTER TABLE sync_base DROP COLUMN extras;
            PRAGMA user_version = 5
            """)
        #expect(try old.query("SELECT command FROM history ORDER BY id") { $0.string(0) }.allSatisfy { !$0.contains("***") })
        let service = try SQLiteTaskService(path: path, create: false)
        #expect(try service.db.query("SELECT command FROM history ORDER BY id") { $0.string(0) } == [
            "tasks sync --remote postgresql://me:***@db.example.com/tasks",
            "tasks sync --remote 'host=db password=*** dbname=tasks'",
            "tasks add c",
        ])
        try service.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(!readBytes(path).contains(Array("SECRET".utf8)), "no page of the file holds it, not even as freed bytes")
    }
}

