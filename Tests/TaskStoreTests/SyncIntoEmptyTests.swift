import ReactorCore
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// A new machine's first sync from a remote that reads changes one at a time is applied as the
/// changes come (`syncIntoEmpty`): it must end exactly as the merge-then-apply path does, on a
/// log with everything a log can hold.
@Suite("sync: a first sync into an empty file, applied as it reads")
struct SyncIntoEmptyTests {
    /// A log of other machines' changes: new tasks across several `INSERT`s, a task changed
    /// while its row still waits, renamed, cleared, deleted after it was made, changed after its
    /// delete, brought back by `deleted: 0`, a first change without a title, a key no version
    /// knows.
    static func log() -> MemoryServer {
        let server = MemoryServer()
        var clock: Int64 = 1_800_000_000_000 << 16
        func add(_ task: String, _ fields: [String: SyncValue], node: String = "other-node") {
            clock += 1
            server.changes.append(SyncChange(id: "change-\(server.nextSeq)", node: node, origin: "elsewhere", clock: clock, task: task,
                                             fields: fields, seq: server.nextSeq))
            server.nextSeq += 1
        }
        func full(_ title: String, position: Int64) -> [String: SyncValue] {
            var fields: [String: SyncValue] = [:]
            for name in SyncField.all { fields[name] = .null }
            fields["title"] = .text(title)
            fields["notes"] = .text("")
            fields["list"] = .text("Inbox")
            fields["done"] = .integer(0)
            fields["tags"] = .text("")
            fields["position"] = .integer(position)
            fields["created"] = .integer(1_800_000_000_000)
            fields["extras"] = .text("")
            fields["spent"] = .integer(0)
            fields["depends"] = .text("")
            fields["annotations"] = .text("")
            fields["reminders"] = .text("")
            return fields
        }
        for number in 1...250 {
            add("task-\(number)", full("Task \(number)", position: Int64(number) * 65_536), node: number % 2 == 0 ? "node-a" : "node-b")
            if number == 150 { add("task-150", ["title": .text("Task 150 renamed while waiting"), "due": .text("2026-12-24")]) }
        }
        add("task-7", ["title": .text("Seven renamed"), "notes": .text("with notes"), "priority": .integer(2)])
        add("task-7", ["priority": .null, "x-future-field": .integer(1)])
        add("task-8", [SyncField.deleted: .integer(1)])
        add("task-9", [SyncField.deleted: .integer(1)])
        add("task-9", ["title": .text("Nine, changed after its delete")])
        add("task-10", [SyncField.deleted: .integer(1)])
        add("task-10", [SyncField.deleted: .integer(0), "notes": .text("back")])
        add("only-done", ["done": .integer(1)])
        add("only-done", ["title": .text("A title at last")])
        add("never-titled", ["done": .integer(1)])
        add("gone-at-once", [SyncField.deleted: .integer(1)])
        add("late", full("Late, no position", position: 0).merging(["position": .null]) { $1 })
        add("task-200", ["list": .text("Elsewhere")])
        return server
    }

    func machine(_ folder: TemporaryFolder, _ name: String, streams: Bool, server: MemoryServer) throws -> Machine {
        let machine = try Machine(folder, name, server: server, clockStart: 1_900_000_000_000)
        machine.remote.streams = streams
        return machine
    }

    @Test func theSameTasksAsTheMergeThenApplyPath() throws {
        let folder = TemporaryFolder(), server = Self.log()
        let merged = try machine(folder, "merged", streams: false, server: server)
        let streamed = try machine(folder, "streamed", streams: true, server: server)
        let mergedReport = try merged.sync(), streamedReport = try streamed.sync()
        let tasks = try streamed.tasks()
        // The same tasks, field for field — but for the bottom positions of two received
        // without one: a task whose changes were folded is made after those made as they came.
        func withoutBottoms(_ tasks: [String: [String: SyncValue]]) -> [String: [String: SyncValue]] {
            tasks.mapValues { fields in fields.filter { $0.key != "position" || ![252 * 65_536, 251 * 65_536].map(SyncValue.integer).contains($0.value) } }
        }
        #expect(withoutBottoms(tasks) == withoutBottoms(try merged.tasks()))
        #expect(streamedReport.pulled == mergedReport.pulled && streamedReport.created == mergedReport.created)
        #expect(streamedReport.pulled == server.changes.count)
        // What the log says, read back.
        #expect(tasks["task-150"]?["title"] == .text("Task 150 renamed while waiting") && tasks["task-150"]?["due"] == .text("2026-12-24"))
        #expect(tasks["task-7"]?["title"] == .text("Seven renamed") && tasks["task-7"]?["priority"] == .null)
        #expect(tasks["task-8"] == nil && tasks["task-9"] == nil && tasks["never-titled"] == nil && tasks["gone-at-once"] == nil)
        #expect(tasks["task-10"]?["notes"] == .text("back") && tasks["task-10"]?["title"] == .text("Task 10"))
        #expect(tasks["only-done"]?["done"] == .integer(1) && tasks["only-done"]?["title"] == .text("A title at last"))
        #expect(tasks["task-200"]?["list"] == .text("Elsewhere"))
        // A task received without a position goes below every task of its list made before it.
        let positions = tasks.filter { $0.value["list"] == .text("Inbox") }.compactMapValues { value -> Int64? in
            if case .integer(let position)? = value["position"] { return position }
            return nil
        }
        #expect(positions.count == tasks.count - 1 && Set(positions.values).count == positions.count, "no two tasks share a position")
        #expect(positions["late"] == 251 * 65_536 && positions["only-done"] == 252 * 65_536)
        #expect(try merged.tasks()["only-done"]?["position"] == .integer(251 * 65_536), "the merge makes it where it was first received")
        #expect(tasks.count == 250 - 2 + 2)
        // The search index holds every task as it is, renamed ones included.
        let db = try streamed.service.db
        try db.execute("INSERT INTO task_text (task_text, rank) VALUES ('integrity-check', 1)")
        #expect(try db.scalar("SELECT count(*) FROM task_text WHERE task_text MATCH 'renamed'") == 2)
        #expect(try db.scalar("SELECT count(*) FROM task_text") == Int64(tasks.count))
        // The base is every task as received: nothing to send, and the next sync is idle.
        #expect(try db.scalar("SELECT count(*) FROM sync_base") == Int64(tasks.count))
        let idle = try streamed.sync()
        #expect(idle.isEmpty && idle.entry == nil)
        // One history entry; its undo leaves the file empty, and its redo brings every task back.
        _ = try run(streamed.service.undo(entry: nil))
        #expect(try streamed.tasks().isEmpty)
        _ = try run(streamed.service.redo())
        #expect(try streamed.tasks() == tasks)
    }

    /// A failure at any step leaves the new file empty; the next sync makes every task.
    @Test(arguments: [MemoryRemote.Step.begin, .pull, .commit, .afterCommit])
    func aFailureAnywhereLeavesTheFileEmptyAndTheNextSyncCarriesOn(failing: MemoryRemote.Step) throws {
        let folder = TemporaryFolder(), server = Self.log()
        let merged = try machine(folder, "merged", streams: false, server: server)
        let streamed = try machine(folder, "streamed", streams: true, server: server)
        try merged.sync()
        streamed.remote.failing = failing
        #expect(throws: TaskServiceError.self) { try streamed.sync() }
        #expect(try streamed.tasks().isEmpty)
        #expect(try streamed.service.readSyncState().pulled == 0)
        #expect(try streamed.service.db.scalar("SELECT count(*) FROM sync_base") == 0)
        #expect(try streamed.service.db.scalar("SELECT count(*) FROM history") == 0)
        try streamed.sync()
        #expect(try streamed.tasks().keys == merged.tasks().keys)
        #expect(try streamed.service.db.scalar("SELECT count(*) FROM sync_base") == Int64(try merged.tasks().count))
        try streamed.service.db.execute("INSERT INTO task_text (task_text, rank) VALUES ('integrity-check', 1)")
    }
}
