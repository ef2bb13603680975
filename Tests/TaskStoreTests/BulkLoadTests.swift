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
        let stream = TaskTitleStream(template: TaskDraft(title: ""), checkedCount: checked ? count : nil) {
            n += 1
            return n <= count ? "line \(n)" : nil
        }
        let (progress, _) = try service.createStreamingNow(stream) { _ in }
        #expect(progress == .committed(first: 2, count: count, head: try service.db.query(
            "SELECT \(TaskColumn.names) FROM task WHERE id BETWEEN 2 AND 11 ORDER BY id") { TaskColumn.decode($0) }))
        #expect(try service.db.scalarString("PRAGMA journal_mode") == "wal")
        let frames = try #require(try Self.framesInWAL(service.db))
        #expect(checked ? frames == 0 : frames > 0)
        #expect(try service.db.scalar("SELECT count(*) FROM task") == Int64(count + 1))
        #expect(try service.db.scalarString("PRAGMA integrity_check") == "ok")
    }
}

extension CheckedStreamTests {
    /// Each task of a stream is written from one row that only its title, uuid, position and
    /// series change: every column must be what creating its draft on its own would write.
    @Test(arguments: [false, true])
    func aStreamedTaskIsTheTaskItsDraftMakes(checked: Bool) throws {
        let folder = TemporaryFolder()
        var template = TaskDraft(title: "", notes: "shared notes", list: "Work", due: CalendarDay(year: 2026, month: 12, day: 24),
                                 priority: .high, tags: ["b", "a"], repeat: RepeatRule("every 2w"))
        template.uuid = "not used"
        let titles = (1...250).map { "task \($0) 우유 🥛" }
        let alone = try SQLiteTaskService(path: folder.file("alone.db"))
        _ = try alone.createNow(titles.map { title in
            var draft = template
            draft.fields.title = title
            draft.uuid = nil
            return draft
        })
        let streamed = try SQLiteTaskService(path: folder.file("streamed.db"))
        var next = titles.makeIterator()
        let stream = TaskTitleStream(template: template, checkedCount: checked ? titles.count : nil) { next.next() }
        let (progress, _) = try streamed.createStreamingNow(stream) { _ in }
        let columns = TaskColumn.names.split(separator: ", ").filter { !["uuid", "series", "created", "modified"].contains($0) }
            .joined(separator: ", ")
        func rows(_ service: SQLiteTaskService) throws -> [String] {
            try service.db.query("SELECT \(columns), series = uuid, length(uuid), created = modified FROM task ORDER BY id") { row in
                (0..<row.columnCount).map { row.isNull($0) ? "NULL" : row.string($0) }.joined(separator: "|")
            }
        }
        #expect(try rows(streamed) == rows(alone))
        #expect(try rows(streamed).count == 250)
        #expect(try streamed.db.scalar("SELECT count(DISTINCT uuid) FROM task") == 250)
        guard case .committed(let first, let count, let head) = progress else { Issue.record("not committed"); return }
        #expect(first == 1 && count == 250)
        #expect(head.map(\.id) == Array(1...10) && head.map(\.title) == Array(titles.prefix(10)))
        #expect(try head == streamed.db.query("SELECT \(TaskColumn.names) FROM task WHERE id <= 10 ORDER BY id") { TaskColumn.decode($0) },
                "the confirmed tasks are the rows written")
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
