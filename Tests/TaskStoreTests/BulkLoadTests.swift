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
