#if canImport(Glibc)
import Glibc
#endif
import CSQLiteFaults
import ReactorCore
import SQLiteDB
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// What the store does, swept the way SQLite sweeps its own code: every I/O call of a command
/// failed in turn (N = 1, 2, … until the command succeeds), and the power cut at every sync
/// point, with the newest unsynced write torn on odd points. Through the `faults` VFS
/// (Sources/CSQLiteFaults), which wraps the default one.
@Suite("Faults: I/O errors at every call and power cuts at every sync", .serialized)
struct FaultSweepTests {
    /// One command of the store, run on a prepared file.
    struct Operation: CustomStringConvertible, Sendable {
        var description: String
        /// Makes the file the command runs on (through the default VFS).
        var prepare: @Sendable (_ path: String) throws -> Void
        /// The command.
        var run: @Sendable (_ service: SQLiteTaskService) throws -> Void
        /// Whether the file shows the command's whole effect.
        var isDone: @Sendable (_ db: Connection) throws -> Bool
        /// For I/O sweeps of long commands: try every `stride`th call.
        var stride = 1
    }

    /// Counts of what a sweep tried: runs, failures injected, crash points.
    struct Tally { var runs = 0, failed = 0, succeededAfter = 0 }

    static func seeded(_ path: String, tasks: Int = 3) throws {
        let service = try SQLiteTaskService(path: path)
        _ = try run(service.create((1...tasks).map { TaskDraft(title: "seed \($0)", list: $0 % 2 == 0 ? "Home" : "Inbox") }))
        _ = try run(service.update(id: 1, TaskChanges(title: "seed one, edited")))
        try service.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    static let records: [TaskRecord] = (1...10_000).map { TaskRecord(title: "imported \($0)") }

    static let operations: [Operation] = [
        Operation(description: "add", prepare: { try seeded($0) }, run: { _ = try TaskStoreTests.run($0.create([TaskDraft(title: "added")])) },
                  isDone: { try $0.scalar("SELECT count(*) FROM task WHERE title = 'added'") == 1 }),
        Operation(description: "toggle", prepare: { try seeded($0) }, run: { _ = try TaskStoreTests.run($0.toggle(ids: [2, 3])) },
                  isDone: { try $0.scalar("SELECT count(*) FROM task WHERE done = 1") == 2 }),
        Operation(description: "undo", prepare: { try seeded($0) }, run: { _ = try TaskStoreTests.run($0.undo(entry: nil)) },
                  isDone: { try $0.scalar("SELECT count(*) FROM task WHERE title = 'seed 1'") == 1 }),
        Operation(description: "import of 10,000 tasks (the bulk load's journal switch)", prepare: { try seeded($0) },
                  run: { _ = try TaskStoreTests.run($0.importTasks(FaultSweepTests.records)) },
                  isDone: { try $0.scalar("SELECT count(*) FROM task") == 10_003 }, stride: 13),
        Operation(description: "schema migration from version 1", prepare: { path in
                      writeBytes(path, readBytes(fixturesFolder() + "/TaskStore/schema-v1.db"))
                  }, run: { _ in },
                  isDone: { try $0.scalar("PRAGMA user_version") == Int64(TaskSchema.migrations.count) }),
        Operation(description: "a sync's local apply (50 tasks received)", prepare: { path in
                      try seeded(path)
                  }, run: { service in
                      let server = MemoryServer()
                      for index in 1...50 {
                          server.changes.append(SyncChange(id: "c\(index)", node: "other", origin: "other", clock: Int64(index) << 16,
                                                           task: UUIDText.derived(from: "task \(index)"),
                                                           fields: ["title": .text("received \(index)"), "list": .text("Inbox")], seq: Int64(index)))
                      }
                      server.nextSeq = 51
                      _ = try TaskStoreTests.run(service.sync(url: "memory", remember: true, through: MemoryRemote(server)))
                  },
                  isDone: { try $0.scalar("SELECT count(*) FROM task WHERE title LIKE 'received %'") == 50 }),
    ]

    init() {
        #expect(faults_register() == 0)
    }

    /// Every task, the history and the sync state, as text: what "unchanged" compares.
    static func snapshot(_ path: String) throws -> String {
        let db = try Connection(path: path, options: [])
        var text = ""
        for table in ["task", "history", "history_part", "deleted_task", "sync_base", "sync_remote_base", "sync_memory"] {
            guard try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = ?", table) == 1 else { continue }
            text += try db.query("SELECT * FROM \(table) ORDER BY 1, 2") { row in
                (0..<row.columnCount).map { "\(row.value($0))" }.joined(separator: "|")
            }.joined(separator: "\n")
        }
        return text + "|v\(try db.scalar("PRAGMA user_version") ?? 0)"
    }

    /// A folder holding the file `operation` starts from, and its snapshot.
    static func prepared(_ operation: Operation) throws -> (TemporaryFolder, String, String) {
        let folder = TemporaryFolder()
        let base = folder.file("base.db")
        try operation.prepare(base)
        return (folder, base, try snapshot(base))
    }

    /// SQLite's own check of the file, then FTS5's of the search index against the tasks (a
    /// large insert fills the index at its end, with its trigger set aside meanwhile).
    static func integrity(_ path: String) throws -> String? {
        let db = try Connection(path: path, options: [])
        let pages = try db.scalarString("PRAGMA integrity_check")
        guard pages == "ok", try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'task_text'") == 1 else { return pages }
        do {
            // rank 1: the index is compared with the tasks too, not only with itself.
            try db.execute("INSERT INTO task_text (task_text, rank) VALUES ('integrity-check', 1)")
        } catch {
            return "search index: \(error)"
        }
        return pages
    }

    @Test(arguments: [Int32(FAULTS_EIO), Int32(FAULTS_ENOSPC), Int32(FAULTS_FSYNC), Int32(FAULTS_LOCK)])
    func anIOErrorAtEveryCallFailsCleanlyAndLeavesTheFileAsItWas(kind: Int32) throws {
        var tallies: [String] = []
        for operation in Self.operations {
            let (folder, base, before) = try Self.prepared(operation)
            var tally = Tally()
            var n = 1
            while n < 20_000 {
                let path = folder.file("run.db")
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
                writeBytes(path, readBytes(base))
                faults_reset()
                faults_fail_at(Int32(n), kind)
                var outcome: Result<Void, any Error> = .success(())
                do {
                    let service = try SQLiteTaskService(path: path, create: false, vfs: "faults")
                    try operation.run(service)
                } catch {
                    outcome = .failure(error)
                }
                let fired = faults_fired() != 0
                faults_reset()
                tally.runs += 1
                #expect(try Self.integrity(path) == "ok", "\(operation) with call \(n) failing")
                switch outcome {
                case .failure(let error):
                    tally.failed += 1
                    #expect(error is TaskServiceError, "\(operation), call \(n): \(error)")
                    #expect(try Self.snapshot(path) == before, "\(operation) failed at call \(n) and left the file as it was")
                case .success:
                    // An error SQLite retried past, or none armed: the whole effect.
                    #expect(try operation.isDone(Connection(path: path, options: [])), "\(operation) succeeded with call \(n) failing")
                    if !fired { tally.succeededAfter = n; n = 20_000 }
                }
                n += operation.stride
            }
            #expect(tally.succeededAfter > 0, "\(operation): the sweep reached a run with no failure")
            tallies.append("\(operation): \(tally.runs) runs, \(tally.failed) failed cleanly")
        }
        print("faults kind \(kind): " + tallies.joined(separator: "; "))
    }

    /// The large writes the issue names at full size, for the power-cut sweep only (an I/O
    /// sweep of one would fail each of its thousands of calls in turn): an import of 100,000
    /// tasks through the bulk load's rollback journal, the same import streamed (as `tasks
    /// import` of our JSON runs it) through the WAL, and an `add -` of 100,000 lines streamed
    /// through the WAL and checked ahead through the rollback journal — each with the search
    /// index filled at its end.
    static let largeOperations: [Operation] = [
        Operation(description: "import of 100,000 tasks", prepare: { try seeded($0) },
                  run: { _ = try TaskStoreTests.run($0.importTasks((1...100_000).map { TaskRecord(title: "imported \($0)") })) },
                  isDone: { try $0.scalar("SELECT count(*) FROM task") == 100_003 }),
        Operation(description: "streamed import of 100,000 tasks (records taken while written, in WAL mode)", prepare: { try seeded($0) },
                  run: { _ = try TaskStoreTests.run($0.importTasks(from: TaskBatchSource(TaskImportBatch(
                      records: (1...100_000).map { TaskRecord(title: "streamed \($0)") })))) },
                  isDone: { try $0.scalar("SELECT count(*) FROM task") == 100_003 }),
        Operation(description: "add - of 100,000 lines, streamed", prepare: { try seeded($0) },
                  run: { try addLines(100_000, checked: false, to: $0) },
                  isDone: { try $0.scalar("SELECT count(*) FROM task") == 100_003 }),
        Operation(description: "add - of 100,000 lines checked ahead (through the rollback journal)", prepare: { try seeded($0) },
                  run: { try addLines(100_000, checked: true, to: $0) },
                  isDone: { try $0.scalar("SELECT count(*) FROM task") == 100_003 }),
    ]

    /// `add -` of `count` lines as the store sees it: streamed, or checked to its end first.
    static func addLines(_ count: Int, checked: Bool, to service: SQLiteTaskService) throws {
        var line = 0
        _ = try TaskStoreTests.run(service.create(streaming: TaskTitleStream(template: TaskDraft(title: ""), checkedCount: checked ? count : nil) {
            line += 1
            return line <= count ? "line \(line)" : nil
        }))
    }

    @Test func aPowerCutAtEverySyncLeavesEachCommandAllOrNothing() throws {
        try Self.sweepPowerCuts(Self.operations)
    }

    @Test func aPowerCutAtEverySyncOfA100000TaskWriteLeavesItAllOrNothing() throws {
        try Self.sweepPowerCuts(Self.largeOperations)
    }

    static func sweepPowerCuts(_ operations: [Operation]) throws {
        var tallies: [String] = []
        for operation in operations {
            let (folder, base, before) = try Self.prepared(operation)
            var point = 1, kept = 0, lost = 0
            while point < 500 {
                let path = folder.file("run.db")
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
                writeBytes(path, readBytes(base))
                faults_reset()
                faults_crash_at_sync(Int32(point), Int32(point % 2))
                var succeeded = true
                do {
                    let service = try SQLiteTaskService(path: path, create: false, vfs: "faults")
                    try operation.run(service)
                } catch {
                    succeeded = false
                }
                let crashed = faults_fired() != 0
                faults_power_cut()
                faults_reset()
                if !crashed { break }  // the command made fewer syncs than `point`: every point tried
                #expect(try Self.integrity(path) == "ok", "\(operation), power cut at sync \(point)")
                let done = try operation.isDone(Connection(path: path, options: []))
                if done { kept += 1 } else { lost += 1 }
                let whole = try done || Self.snapshot(path) == before
                #expect(whole, "\(operation), power cut at sync \(point): all or nothing")
                #expect(!succeeded || done, "\(operation) returned success, then lost it at sync \(point)")
                point += 1
            }
            #expect(point > 1, "\(operation) synced at least once")
            tallies.append("\(operation): \(point - 1) sync points, whole \(kept), none \(lost)")
        }
        print("power cuts: " + tallies.joined(separator: "; "))
    }
}
