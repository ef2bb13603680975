#if canImport(Glibc)
import Glibc
#endif
import SQLiteDB
import TaskKit
import TestSupport
import Testing
@testable import TaskStore

/// The `taskstore-writer` helper, built beside the test bundle by `swift test`.
func writerExecutable() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    let bytes = buffer[0..<length].map { UInt8(bitPattern: $0) }
    let executable = String(decoding: bytes, as: UTF8.self)
    guard let slash = executable.lastIndex(of: "/") else { return nil }
    let path = String(executable[..<slash]) + "/taskstore-writer"
    return access(path, X_OK) == 0 ? path : nil
}

/// Starts `arguments` as a process; returns its pid.
func spawn(_ arguments: [String]) -> pid_t? {
    var pid: pid_t = 0
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let status = posix_spawn(&pid, arguments[0], nil, nil, &argv, environ)
    return status == 0 ? pid : nil
}

func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS, spelled out: the macros are not imported.
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

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
            #expect(try check.fetchNow(TaskQuery(list: "P\(process)")).map(\.title) == (0..<250).map { "P\(process) \($0)" })
        }
    }
}
