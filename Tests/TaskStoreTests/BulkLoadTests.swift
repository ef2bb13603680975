import SQLiteDB
import TaskModel
import TaskReactors
import _TestSupport
import Testing
@testable import TaskStore

@Suite("SQLiteTaskService: bulk loads")
struct BulkLoadTests {
    @Test func aBulkLoadLeavesTheFileInWALAndTheConnectionFreeToCheckpoint() throws {
        let folder = TemporaryFolder()
        let service = try SQLiteTaskService(path: folder.file("bulk.db"))
        let drafts = (1...SQLiteTaskService.bulkLoadThreshold).map { TaskDraft(title: "task \($0)") }
        #expect(try service.createNow(drafts).count == drafts.count)
        #expect(try service.db.scalarString("PRAGMA journal_mode") == "wal")
        try service.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try service.createNow(drafts).last?.id == Int64(2 * drafts.count))
        try service.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try service.db.scalarString("PRAGMA integrity_check") == "ok")
    }
}

@Suite("SQLiteTaskService: a streamed batch, checked ahead or not")
struct CheckedStreamTests {
    /// How many frames the WAL holds (`PRAGMA wal_checkpoint`'s second column).
    static func framesInWAL(_ db: Connection) throws -> Int64? {
        try db.query("PRAGMA wal_checkpoint(PASSIVE)") { $0.int64(1) }.first
    }

    /// A batch the caller checked to its end writes its pages once, through a rollback
    /// journal: the WAL it leaves is empty. One that may still fail goes through the WAL (so
    /// that its failure leaves the file's bytes as they were).
    @Test(arguments: [false, true])
    func aCheckedBatchGoesThroughTheRollbackJournalAndAnUncheckedOneThroughTheWAL(checked: Bool) throws {
        let folder = TemporaryFolder()
        let service = try SQLiteTaskService(path: folder.file("streamed.db"))
        _ = try service.createNow([TaskDraft(title: "before")])
        let count = SQLiteTaskService.bulkLoadThreshold + 10
        var n = 0
        let (progress, _) = try service.createStreamingNow({
            n += 1
            return n <= count ? TaskDraft(title: "line \(n)") : nil
        }, checkedCount: checked ? count : nil) { _ in }
        #expect(progress == .committed(first: 2, count: count, head: try service.db.query(
            "SELECT \(TaskColumn.names) FROM task WHERE id BETWEEN 2 AND 11 ORDER BY id") { TaskColumn.decode($0) }))
        #expect(try service.db.scalarString("PRAGMA journal_mode") == "wal")
        let frames = try #require(try Self.framesInWAL(service.db))
        #expect(checked ? frames == 0 : frames > 0)
        #expect(try service.db.scalar("SELECT count(*) FROM task") == Int64(count + 1))
        #expect(try service.db.scalarString("PRAGMA integrity_check") == "ok")
    }
}

@Suite("SQLiteTaskService: ids given twice")
struct UniqueIDsTests {
    @Test(arguments: [
        ([Int64](), [Int64]()),
        ([3, 3, 1, 3], [3, 1]),
        (Array(1...16) + [1], Array(1...16)),
        (Array(1...40) + Array(1...40).reversed(), Array(1...40)),
    ])
    func eachIDIsKeptOnceInTheOrderFirstGiven(ids: [Int64], expected: [Int64]) {
        #expect(SQLiteTaskService.unique(ids) == expected)
    }
}
