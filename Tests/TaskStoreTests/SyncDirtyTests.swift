import SQLiteDB
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// What a sync sends is found from the uuids the task table's triggers marked dirty for its
/// remote (migration v11), not by comparing every task with its base — and the guarantee the
/// comparison gave still holds: a row another SQLite tool changed, even without touching
/// `modified`, is sent by the next sync.
@Suite("sync: the dirty set the triggers keep")
struct SyncDirtyTests {
    func dirty(_ machine: Machine) throws -> [String] {
        try machine.service.db.query("SELECT remote || ' ' || uuid FROM sync_dirty WHERE uuid <> '' ORDER BY uuid") { $0.string(0) }
    }

    func uuid(_ machine: Machine, _ id: Int64) throws -> String {
        try machine.service.db.query("SELECT uuid FROM task WHERE id = ?", [id]) { $0.string(0) }.first ?? ""
    }

    @Test func anotherToolsChangesAreSentAndAnIdleSyncReadsNoTask() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_000_000)
        _ = try run(laptop.service.create([TaskDraft(title: "one"), TaskDraft(title: "two"), TaskDraft(title: "three")]))
        #expect(try dirty(laptop).isEmpty, "a file that never synced marks nothing")
        #expect(try laptop.service.db.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'sync_dirty_%'") == 0,
                "and has no triggers to compile")
        #expect(try laptop.sync().pushed == 3)
        #expect(try desktop.sync().created == 3)
        #expect(try dirty(laptop).isEmpty, "the sync cleared what it sent")
        #expect(try laptop.sync().pushed == 0)

        // The sqlite3 shell, or any other tool: the title changed, `modified` not; a task deleted.
        let other = try Connection(path: folder.file("laptop.db"))
        try other.execute("UPDATE task SET title = 'two, by another tool' WHERE id = 2; DELETE FROM task WHERE id = 3")
        let two = try uuid(laptop, 2)
        #expect(try dirty(laptop).count == 2 && dirty(laptop).contains(" " + two))
        let report = try laptop.sync()
        #expect(report.pushed == 2)
        #expect(try dirty(laptop).isEmpty)
        _ = try desktop.sync()
        #expect(try desktop.titles() == ["one", "two, by another tool"])

        // Changes the desktop received are marked for its other remotes, never for the one
        // they came from.
        #expect(try dirty(desktop).isEmpty)
    }

    /// A file from before the triggers (its remote not yet scanned) compares every task once,
    /// so a change no trigger saw is still sent.
    @Test func aRemoteNotYetScannedComparesEveryTaskOnce() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        _ = try run(laptop.service.create([TaskDraft(title: "one"), TaskDraft(title: "two")]))
        _ = try laptop.sync()
        // As an older program left it: a change with no trigger to see it.
        try laptop.service.db.execute("""
            DROP TRIGGER sync_dirty_update;
            UPDATE task SET title = 'changed before v11' WHERE id = 1;
            DELETE FROM sync_dirty WHERE uuid = '';
            """)
        #expect(try dirty(laptop).isEmpty)
        #expect(try laptop.sync().pushed == 1)
        #expect(try laptop.service.db.scalar("SELECT count(*) FROM sync_dirty WHERE uuid = '' AND remote = ''") == 1, "tracked from now on")
    }
}
