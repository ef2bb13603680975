import QueryLanguage
import SQLiteDB
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// Deleted tasks kept as tombstones (issue 53): what a command deleted, and only that, is
/// read by `status:deleted`, outlives the history's pruning, and goes when purged.
@Suite("Deleted tasks, kept")
struct TombstoneTests {
    static func deletedQuery() -> TaskQuery {
        TaskQuery(status: .all, filter: .term(.status(.deleted)), sort: .id, grouping: .none)
    }

    static func deleted(_ service: SQLiteTaskService) throws -> [String] {
        try service.fetchNow(deletedQuery()).map { "\($0.id) \($0.title)\($0.isDeleted ? "" : " (not marked)")" }
    }

    @Test func onlyWhatACommandDeletedIsATombstone() throws {
        let folder = TemporaryFolder()
        let service = try SQLiteTaskService(path: folder.file("tasks.db"))
        _ = try run(service.create(["a", "b", "c"].map { TaskDraft(title: $0) }))
        _ = try run(service.delete(ids: [2]))
        _ = try run(service.create([TaskDraft(title: "undone add")]))
        _ = try run(service.undo(entry: nil))
        #expect(try Self.deleted(service) == ["2 b"], "a task an undo took back was never deleted")
        #expect(try service.fetchNow(TaskQuery(status: .all, sort: .id, grouping: .none)).map(\.title) == ["a", "c"],
                "no listing without the word shows it")
        #expect(try service.fetchNow(TaskQuery(status: .all, filter: .or([.term(.status(.pending)), .term(.status(.deleted))]),
                                               sort: .id, grouping: .none)).map(\.title) == ["a", "b", "c"])

        // Undelete, and its undo: deleted again, as it was; redo: back.
        #expect(try run(service.undelete(ids: [2])).map(\.title) == ["b"])
        #expect(try Self.deleted(service).isEmpty)
        _ = try run(service.undo(entry: nil))
        #expect(try Self.deleted(service) == ["2 b"])
        _ = try run(service.redo())
        #expect(try Self.deleted(service).isEmpty && service.readTask(id: 2)?.title == "b")

        // Deleted twice: one tombstone, the latest.
        _ = try run(service.update(id: 2, TaskChanges(title: "b again")))
        _ = try run(service.delete(ids: [2]))
        #expect(try Self.deleted(service) == ["2 b again"])
        #expect(throws: TaskServiceError.notDeleted(ids: [1])) { try run(service.undelete(ids: [1, 2])) }
        #expect(try Self.deleted(service) == ["2 b again"], "one without a tombstone: nothing brought back")
    }

    @Test func purgeLetsGoAndItsUndoBringsBack() throws {
        let folder = TemporaryFolder()
        let service = try SQLiteTaskService(path: folder.file("tasks.db"))
        _ = try run(service.create(["a", "b"].map { TaskDraft(title: $0) }))
        _ = try run(service.delete(ids: [1, 2]))
        #expect(try run(service.purge(ids: [1])).map(\.title) == ["a"])
        #expect(try Self.deleted(service) == ["2 b"])
        let entry = try #require(try run(service.history(HistoryQuery(limit: 1))).first)
        #expect(entry.summary == "purged 1 \"a\"")
        _ = try run(service.undo(entry: nil))
        #expect(try Self.deleted(service) == ["1 a", "2 b"])
        _ = try run(service.redo())
        #expect(try Self.deleted(service) == ["2 b"])
        #expect(throws: TaskServiceError.notDeleted(ids: [1])) { try run(service.purge(ids: [1])) }
    }

    /// The history keeps a thousand entries and thirty days; a tombstone stays until purged,
    /// and a purged one goes with its purge's entry.
    @Test func tombstonesOutliveTheHistoryUntilPurged() throws {
        let folder = TemporaryFolder()
        var clock: Int64 = 1_700_000_000_000
        let service = try SQLiteTaskService(path: folder.file("tasks.db"), now: {
            clock += 60_000
            return Timestamp(millisecondsSince1970: clock)
        })
        _ = try run(service.create(["keep", "old", "gone", "back"].map { TaskDraft(title: $0) }))
        _ = try run(service.delete(ids: [2, 3, 4]))
        _ = try run(service.purge(ids: [3]))
        _ = try run(service.undelete(ids: [4]))
        for _ in 0..<1100 {
            _ = try run(service.toggle(ids: [1]))
            clock += 3_600_000
        }
        #expect(try service.db.scalar("SELECT min(id) FROM history") ?? 0 > 4, "the deletes' entries are gone")
        #expect(try Self.deleted(service) == ["2 old"])
        #expect(try service.db.scalar("SELECT count(*) FROM deleted_task") == 1, "the purged row and the undeleted one's went with their entries")
        _ = try run(service.delete(ids: [4]))
        #expect(try Self.deleted(service) == ["2 old", "4 back"])
    }
}
