import QueryLanguage
import ReactorCore
import SQLiteDB
import TaskModel
import TaskReactors
import _TestSupport
import Testing
@testable import TaskStore

@Suite("SQLiteTaskService: importing by uuid")
struct TaskStoreImportTests {
    static let uuids = (1...5).map { "0190f1e2-7c3a-7b4d-8e5f-00000000000\($0)" }

    @Test func everyFieldOfARecordIsKeptAndReadBack() throws {
        let service = try makeService(TemporaryFolder())
        let record = TaskRecord(
            id: 40, uuid: TaskStoreImportTests.uuids[0], title: "장보기 🥛", notes: "a\n\nb", list: "집", isDone: true,
            completed: Timestamp(millisecondsSince1970: 3), due: CalendarDay("2026-12-24"), priority: .low, tags: ["x", "y"],
            position: -5, created: Timestamp(millisecondsSince1970: 1), modified: Timestamp(millisecondsSince1970: 4)
        )
        #expect(try run(service.importTasks([record])) == TaskImportResult(created: 1))
        let task = try run(service.task(id: 40))
        #expect(TaskRecord(task) == record)
    }

    @Test func idsAreKeptOnlyWhenTheFileNeverUsedThem() throws {
        let service = try makeService(TemporaryFolder())
        _ = try run(service.create([TaskDraft(title: "a"), TaskDraft(title: "b"), TaskDraft(title: "c")]))
        _ = try run(service.delete(ids: [3]))
        let records = [TaskRecord(id: 2, title: "x"), TaskRecord(id: 3, title: "y"), TaskRecord(id: 10, title: "z"),
                       TaskRecord(id: 10, title: "w"), TaskRecord(title: "v")]
        _ = try run(service.importTasks(records))
        let ids = try run(service.fetch(TaskQuery(status: .all, sort: .id, grouping: .none))).map(\.id)
        #expect(ids == [1, 2, 4, 5, 10, 11, 12])
    }

    /// The next id is left to SQLite (bound NULL) when no row is above the counter. Streamed,
    /// so that every id above the file's last goes through that choice; the history's run of
    /// ids must name the rows made.
    @Test func theIDsGivenOutAreTheIDsTheRowsGet() throws {
        let service = try makeService(TemporaryFolder())
        _ = try run(service.create([TaskDraft(title: "a"), TaskDraft(title: "b"), TaskDraft(title: "c")]))
        let records = [TaskRecord(id: 20, title: "x"), TaskRecord(title: "y"), TaskRecord(id: 22, title: "z"),
                       TaskRecord(id: 2, title: "w"), TaskRecord(title: "v")]
        #expect(try run(service.importTasks(from: TaskBatchSource(TaskImportBatch(records: records)))).created == 5)
        #expect(try service.db.query("SELECT id, title FROM task WHERE id > 3 ORDER BY id") { "\($0.int64(0)) \($0.string(1))" }
            == ["20 x", "21 y", "22 z", "23 w", "24 v"])
        let entry = try #require(try run(service.history(HistoryQuery(withChanges: true))).first)
        #expect(entry.changes.map { "\($0.kind) \($0.taskID)-\($0.lastTaskID)" } == ["created 20-24"])
        _ = try run(service.undo(entry: nil))
        #expect(try service.db.scalar("SELECT count(*) FROM task") == 3)
    }

    /// A row above the counter (another tool lowered it): the ids given out start above that
    /// row, as SQLite's own would (read from the counter alone, the import once gave out an id
    /// a row held and failed on it, or reused a deleted task's).
    @Test func aRowAboveTheCounterIsNotGivenItsIDAgain() throws {
        let service = try makeService(TemporaryFolder())
        _ = try run(service.create([TaskDraft(title: "a"), TaskDraft(title: "b"), TaskDraft(title: "c")]))
        _ = try run(service.delete(ids: [2]))
        try service.db.execute("UPDATE sqlite_sequence SET seq = 1 WHERE name = 'task'")
        #expect(try run(service.importTasks(from: TaskBatchSource(TaskImportBatch(records: [TaskRecord(title: "y")])))).created == 1)
        #expect(try service.db.query("SELECT id, title FROM task ORDER BY id") { "\($0.int64(0)) \($0.string(1))" } == ["1 a", "3 c", "4 y"])
        try service.db.execute("UPDATE sqlite_sequence SET seq = 1 WHERE name = 'task'")
        #expect(try run(service.importTasks([TaskRecord(title: "z")])).created == 1, "the import read whole, too")
        #expect(try service.db.scalar("SELECT max(id) FROM task") == 5)
    }

    @Test func aKnownUUIDIsUpdatedInPlaceAndAnnouncedAnUnchangedOneIsNotWritten() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let uuid = TaskStoreImportTests.uuids[1]
        _ = try run(service.importTasks([TaskRecord(uuid: uuid, title: "a", list: "Work")]))
        let before = try run(service.task(id: 1))
        var events: [TaskEvent] = []
        let subscription = service.event.bind { events.append($0) }
        defer { subscription.dispose() }
        let changes = try service.db.scalar("SELECT total_changes()")
        #expect(try run(service.importTasks([TaskRecord(uuid: uuid, title: "a", list: "Work")])) == TaskImportResult(unchanged: 1))
        #expect(try service.db.scalar("SELECT total_changes()") == changes, "not a row written")
        #expect(events.isEmpty)
        #expect(try run(service.importTasks([TaskRecord(uuid: uuid, title: "b", list: "Work", tags: ["t"])])) == TaskImportResult(updated: 1))
        let after = try run(service.task(id: 1))
        #expect(after.title == "b" && after.tags == ["t"] && after.position == before.position && after.created == before.created)
        #expect(after.modified > before.modified)
        #expect(events == [.update(after)])
    }

    @Test func aFailedImportLeavesNothing() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try run(service.create([TaskDraft(title: "kept")]))
        // The store's own rules still hold below the reactor's: an empty title breaks a CHECK
        // halfway through the batch, and the whole transaction is rolled back.
        var records = (1...250).map { TaskRecord(title: "task \($0)") }
        records[180].fields.title = "   "
        #expect(throws: TaskServiceError.unexpected(service.path + ": CHECK constraint failed: length(trim(title)) > 0")) {
            try run(service.importTasks(records))
        }
        #expect(try run(service.fetch(TaskQuery(status: .all))).map(\.title) == ["kept"])
    }

    @Test func aLargeImportGoesThroughTheBulkPathAndBackToWAL() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let records = (1...SQLiteTaskService.bulkLoadThreshold).map { TaskRecord(title: "task \($0)") }
        #expect(try run(service.importTasks(records)) == TaskImportResult(created: SQLiteTaskService.bulkLoadThreshold))
        #expect(try service.db.scalarString("PRAGMA journal_mode") == "wal")
        #expect(try service.db.scalarString("PRAGMA temp_store") == "0")
        #expect(try service.db.scalar("SELECT count(*) FROM task") == Int64(SQLiteTaskService.bulkLoadThreshold))
    }
}
