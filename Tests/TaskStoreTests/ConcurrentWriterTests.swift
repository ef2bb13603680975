import Dispatch
import QueryLanguage
import SQLiteDB
import TaskModel
import TaskReactors
import _TestSupport
import Testing
@testable import TaskStore

@Suite("SQLiteTaskService: several writers on one file")
struct ConcurrentWriterTests {
    @Test func eightConnectionsOnEightThreadsLoseNoWrite() throws {
        let folder = TemporaryFolder()
        let path = folder.file("shared.db")
        _ = try SQLiteTaskService(path: path)  // create and migrate once, as the first command would
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 8) { writer in
            do {
                // One connection per thread, as one per process; each task its own transaction.
                let service = try SQLiteTaskService(path: path)
                for index in 0..<250 {
                    _ = try service.createNow([TaskDraft(title: "writer \(writer) task \(index)", list: "W\(writer)")])
                    if index % 50 == 0 {
                        _ = try service.fetchNow(TaskQuery(filter: .term(.list("W\(writer)", exact: true))))
                    }
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        let check = try SQLiteTaskService(path: path)
        #expect(try check.db.scalar("SELECT count(*) FROM task") == 2_000)
        #expect(try check.db.scalarString("PRAGMA integrity_check") == "ok")
        for writer in 0..<8 {
            let titles = try check.fetchNow(TaskQuery(filter: .term(.list("W\(writer)", exact: true)))).map(\.title)
            #expect(titles == (0..<250).map { "writer \(writer) task \($0)" }, "each writer's order is kept")
        }
    }

    @Test func aTwoProcessStyleMigrationRaceMigratesOnce() throws {
        let folder = TemporaryFolder()
        let path = folder.file("race.db")
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do { _ = try SQLiteTaskService(path: path) } catch { failures.append("\(error)") }
        }
        #expect(failures.all.isEmpty)
        let db = try Connection(path: path)
        #expect(try db.scalar("SELECT count(*) FROM schema_migrations") == Int64(TaskSchema.migrations.count))
    }
}

final class FailureLog: @unchecked Sendable {
    private let lock = DispatchQueue(label: "failures")
    private var entries: [String] = []
    func append(_ entry: String) { lock.sync { entries.append(entry) } }
    var all: [String] { lock.sync { entries } }
}
