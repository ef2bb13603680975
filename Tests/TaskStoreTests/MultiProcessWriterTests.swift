#if canImport(Glibc)
import Glibc
#endif
import QueryLanguage
import SQLiteDB
import TaskModel
import TaskReactors
import _TestSupport
import Testing
@testable import TaskStore

/// The `taskstore-writer` helper, built beside the test bundle by `swift test`.
func writerExecutable() -> String? { executableBesideTests("taskstore-writer") }

@Suite("SQLiteTaskService: several processes on one file")
struct MultiProcessWriterTests {
    @Test(.enabled(if: writerExecutable() != nil, "needs the taskstore-writer helper beside the tests"))
    func eightProcessesWritingAtOnceLoseNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.file("shared.db")
        let writer = try #require(writerExecutable())
        let pids = (0..<8).compactMap { spawn([writer, path, "250", "P\($0)"]) }
        #expect(pids.count == 8)
        let statuses = pids.map(waitForExit)
        #expect(statuses == [Int32](repeating: 0, count: 8), "no process failed (e.g. with 'database is locked')")
        let check = try SQLiteTaskService(path: path)
        #expect(try check.db.scalar("SELECT count(*) FROM task") == 2_000)
        #expect(try check.db.scalarString("PRAGMA integrity_check") == "ok")
        #expect(try check.db.scalar("SELECT count(DISTINCT uuid) FROM task") == 2_000)
        for process in 0..<8 {
            #expect(try check.fetchNow(TaskQuery(filter: .term(.list("P\(process)", exact: true)))).map(\.title) == (0..<250).map { "P\(process) \($0)" })
        }
    }
}
