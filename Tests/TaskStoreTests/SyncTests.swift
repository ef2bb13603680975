import ReactorCore
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// A remote in memory with the PostgreSQL remote's semantics: a sequence, ids kept once,
/// nothing kept without `commit`; and failures on demand.
final class MemoryServer {
    var changes: [SyncChange] = []
    var ids: Set<String> = []
    var nextSeq: Int64 = 1
}

final class MemoryRemote: SyncRemote, SyncRemoteMaker {
    enum Step { case begin, pull, push, commit, afterCommit }
    let server: MemoryServer
    let name = "memory"
    /// The step that fails, once.
    var failing: Step?
    /// Runs once after the remote kept the pushes (another process writing the file meanwhile).
    var afterCommit: (() throws -> Void)?
    /// Whether a sync may take the changes one at a time (as from PostgreSQL's helper).
    var streams = false
    /// Whether an edit beats a delete (as through CalDAV).
    var editsWin = false
    var editsBeatDeletes: Bool { editsWin }
    var streamsPulls: Bool { streams }
    private var staged: [SyncChange] = []
    private var node = ""

    init(_ server: MemoryServer) { self.server = server }

    func remote(url: String) throws(TaskServiceError) -> any SyncRemote { self }

    private func check(_ step: Step) throws(TaskServiceError) {
        if failing == step {
            failing = nil
            throw .remote(.failed("the server stopped"), remote: name)
        }
    }

    func begin(node: String) throws(TaskServiceError) {
        try check(.begin)
        self.node = node
        staged = []
    }

    func pull(after seq: Int64) throws(TaskServiceError) -> [SyncChange] {
        try check(.pull)
        return server.changes.filter { $0.seq > seq && $0.node != node }
    }

    func push(_ changes: [SyncChange]) throws(TaskServiceError) {
        try check(.push)
        staged += changes
    }

    func commit() throws(TaskServiceError) -> Int64 {
        try check(.commit)
        for var change in staged where server.ids.insert(change.id).inserted {
            change.seq = server.nextSeq
            server.nextSeq += 1
            server.changes.append(change)
        }
        staged = []
        if let hook = afterCommit {
            afterCommit = nil
            do { try hook() } catch { throw .unexpected("\(error)") }
        }
        try check(.afterCommit)
        return server.nextSeq - 1
    }

    func close() { staged = [] }
}

/// One machine: a file and its clock.
struct Machine {
    let service: SQLiteTaskService
    let remote: MemoryRemote

    init(_ folder: TemporaryFolder, _ name: String, server: MemoryServer, clockStart: Int64) throws {
        let clock = StepClock(start: clockStart)
        service = try SQLiteTaskService(path: folder.file(name + ".db"), now: clock.now)
        remote = MemoryRemote(server)
    }

    @discardableResult
    func sync() throws -> SyncReport { try run(service.sync(url: "memory", remember: true, through: remote)) }

    /// Every task by uuid: the fields that travel.
    func tasks() throws -> [String: [String: SyncValue]] {
        let fields = SyncField.all
        var result: [String: [String: SyncValue]] = [:]
        _ = try service.db.query("SELECT uuid, \(fields.joined(separator: ", ")) FROM task") { row in
            var values: [String: SyncValue] = [:]
            for (index, field) in fields.enumerated() { values[field] = SyncValue(row.value(Int32(index + 1))) }
            result[row.string(0)] = values
        }
        return result
    }

    func id(of title: String) throws -> Int64 {
        try service.db.scalar("SELECT id FROM task WHERE title = ?", title) ?? 0
    }

    func titles() throws -> [String] {
        try service.db.query("SELECT title FROM task ORDER BY title") { $0.string(0) }
    }
}

@Suite("sync: machines merged through a remote, field by field")
struct SyncMergeTests {
    @Test func aTaskIsCarriedByItsUUIDAndEachMachineKeepsItsOwnIDs() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_000_000)
        _ = try run(desktop.service.create([TaskDraft(title: "desktop's own")]))
        _ = try run(laptop.service.create([TaskDraft(title: "Buy milk", notes: "2 l", list: "Home", due: CalendarDay(year: 2026, month: 12, day: 24),
                                                     priority: .high, tags: ["shop"]), TaskDraft(title: "Call mum")]))
        let sent = try laptop.sync()
        #expect(sent.pushed == 2 && sent.pulled == 0)
        let received = try desktop.sync()
        #expect(received.pulled == 2 && received.created == 2 && received.pushed == 1)
        try laptop.sync()
        #expect(try laptop.tasks() == desktop.tasks())
        #expect(try laptop.tasks().count == 3)
        #expect(try laptop.id(of: "Buy milk") == 1 && desktop.id(of: "Buy milk") == 2, "ids are each machine's own")
        // Nothing to do: nothing travels, and the history gains no entry.
        let idle = try desktop.sync()
        #expect(idle.isEmpty && idle.entry == nil)
    }

    @Test func differentFieldsChangedOnTwoMachinesAreBothKept() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_000_000)
        _ = try run(laptop.service.create([TaskDraft(title: "Buy milk")]))
        try laptop.sync(); try desktop.sync()
        _ = try run(laptop.service.update(id: 1, TaskChanges(title: "Buy oat milk")))
        _ = try run(desktop.service.update(id: 1, TaskChanges(due: .to(CalendarDay(year: 2026, month: 12, day: 24)), addTags: ["shop"])))
        let first = try laptop.sync(), second = try desktop.sync()
        try laptop.sync()
        #expect(first.conflicts.isEmpty && second.conflicts.isEmpty)
        #expect(try laptop.tasks() == desktop.tasks())
        let task = try #require(try laptop.service.readTask(id: 1))
        #expect(task.title == "Buy oat milk" && task.due?.day == CalendarDay(year: 2026, month: 12, day: 24) && task.tags == ["shop"])
    }

    /// The same field on two machines: the later change wins everywhere, whichever syncs first;
    /// the conflict is reported; the losing value is in the history and undo puts it back.
    @Test(arguments: [true, false])
    func theSameFieldIsWonByTheLaterChangeEverywhere(laterSyncsFirst: Bool) throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        // The desktop's clock runs an hour ahead: its edit is the later one.
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_003_600_000)
        _ = try run(laptop.service.create([TaskDraft(title: "Buy milk")]))
        try laptop.sync(); try desktop.sync()
        _ = try run(laptop.service.update(id: 1, TaskChanges(title: "Buy milk (laptop)")))
        _ = try run(desktop.service.update(id: 1, TaskChanges(title: "Buy milk (desktop)")))
        let (first, second) = laterSyncsFirst ? (desktop, laptop) : (laptop, desktop)
        try first.sync()
        let detecting = try second.sync()
        try first.sync()
        #expect(try laptop.tasks() == desktop.tasks())
        #expect(try laptop.titles() == ["Buy milk (desktop)"])
        #expect(detecting.conflicts.count == 1)
        let conflict = try #require(detecting.conflicts.first)
        #expect(conflict.field == "title" && conflict.kept == .text("Buy milk (desktop)") && conflict.replaced == .text("Buy milk (laptop)"))
        #expect(conflict.taskID == 1)
        // The machine that saw the conflict keeps the losing value in its history: undo of the
        // sync puts it back, and the next sync sends it as a new change.
        _ = try run(second.service.undo(entry: detecting.entry))
        #expect(try second.titles() == ["Buy milk (laptop)"])
        try second.sync(); try first.sync()
        #expect(try laptop.titles() == ["Buy milk (laptop)"] && desktop.titles() == ["Buy milk (laptop)"])
    }

    @Test func aDeleteTravelsAndWinsOverAnEditElsewhere() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_000_000)
        _ = try run(laptop.service.create([TaskDraft(title: "keep"), TaskDraft(title: "gone")]))
        try laptop.sync(); try desktop.sync()
        _ = try run(laptop.service.delete(ids: [2]))
        _ = try run(desktop.service.update(id: 2, TaskChanges(notes: "edited while deleted elsewhere")))
        try laptop.sync()
        let report = try desktop.sync()
        try laptop.sync()
        #expect(report.deleted == 1)
        #expect(try laptop.titles() == ["keep"] && desktop.titles() == ["keep"])
        // A delete undone comes back everywhere, with its uuid.
        let uuid = try #require(try laptop.service.db.query("SELECT uuid FROM deleted_task WHERE title = 'gone'") { $0.string(0) }.first)
        _ = try run(laptop.service.undo(entry: nil))
        try laptop.sync(); try desktop.sync()
        #expect(try desktop.tasks()[uuid]?["title"] == .text("gone"))
    }

    /// Where edits beat deletes (a CalDAV remote's rule), a task deleted here and edited there
    /// comes back here with the edit, with its id — or, when the deleted row is no longer kept
    /// (its history entry pruned), from the sync's base with a new id; and a task deleted
    /// there and edited here is sent whole and stays.
    @Test func whereEditsBeatDeletesADeletedTaskComesBackWithTheEdit() throws {
        for pruned in [false, true] {
            let folder = TemporaryFolder(), server = MemoryServer()
            let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
            let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_000_000)
            laptop.remote.editsWin = true
            _ = try run(laptop.service.create([TaskDraft(title: "keep"), TaskDraft(title: "gone", list: "Home")]))
            try laptop.sync(); try desktop.sync()
            _ = try run(laptop.service.delete(ids: [2]))
            if pruned { try laptop.service.db.run("DELETE FROM deleted_task") }
            _ = try run(desktop.service.update(id: 2, TaskChanges(notes: "edited while deleted elsewhere")))
            try desktop.sync()
            let report = try laptop.sync()
            #expect(report.created == 1 && report.conflicts.map(\.field) == ["deleted"], "pruned \(pruned): \(report)")
            let back = try laptop.tasks().values.first { $0["title"] == .text("gone") }
            #expect(back?["notes"] == .text("edited while deleted elsewhere") && back?["list"] == .text("Home"), "pruned \(pruned)")
            #expect(try laptop.id(of: "gone") == (pruned ? 3 : 2), "its own id when the row was kept")
            #expect(try laptop.titles() == ["gone", "keep"])
        }
    }

    @Test func oneOccurrenceCompletedOnTwoMachinesMakesOneNextOccurrence() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_100_000)
        _ = try run(laptop.service.create([TaskDraft(title: "Water plants", due: CalendarDay(year: 2027, month: 1, day: 4),
                                                     repeat: RepeatRule("every 1w"))]))
        try laptop.sync(); try desktop.sync()
        _ = try run(laptop.service.setDone(ids: [1], true))
        _ = try run(desktop.service.setDone(ids: [1], true))
        try laptop.sync(); try desktop.sync(); try laptop.sync()
        let tasks = try laptop.tasks()
        #expect(tasks.count == 2, "the done occurrence and one next")
        #expect(tasks.values.filter { $0["done"] == .integer(0) }.count == 1)
        let other = try desktop.tasks()
        for (uuid, fields) in tasks where other[uuid] != fields {
            Issue.record("\(uuid): laptop \(fields.filter { other[uuid]?[$0.key] != $0.value }) desktop \(other[uuid].map { o in o.filter { fields[$0.key] != $0.value } } ?? [:])")
        }
    }

    @Test func threeMachinesConverge() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let machines = try (0..<3).map { try Machine(folder, "m\($0)", server: server, clockStart: 1_800_000_000_000 + Int64($0) * 7) }
        for (index, machine) in machines.enumerated() {
            _ = try run(machine.service.create((1...20).map { TaskDraft(title: "m\(index) task \($0)") }))
        }
        for machine in machines { try machine.sync() }
        _ = try run(machines[0].service.update(id: 1, TaskChanges(title: "renamed on m0")))
        _ = try run(machines[1].service.delete(ids: [5]))
        _ = try run(machines[2].service.setDone(ids: [3], true))
        for _ in 0..<2 { for machine in machines { try machine.sync() } }
        let reference = try machines[0].tasks()
        #expect(reference.count == 59)
        for machine in machines.dropFirst() { #expect(try machine.tasks() == reference) }
    }

    /// A failure at any step leaves the file as it was; the next sync carries on, and nothing
    /// is kept twice on the remote.
    @Test(arguments: [MemoryRemote.Step.begin, .pull, .push, .commit, .afterCommit])
    func aSyncFailingAnywhereChangesNothingHereAndTheNextOneConverges(failing: MemoryRemote.Step) throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_000_000)
        _ = try run(desktop.service.create([TaskDraft(title: "from desktop")]))
        try desktop.sync()
        _ = try run(laptop.service.create((1...30).map { TaskDraft(title: "laptop \($0)") }))
        try laptop.service.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try laptop.tasks()
        let state = try laptop.service.readSyncState()
        laptop.remote.failing = failing
        #expect(throws: TaskServiceError.self) { try laptop.sync() }
        #expect(try laptop.tasks() == before, "the tasks as they were")
        #expect(try laptop.service.readSyncState().pulled == state.pulled)
        #expect(try laptop.service.db.scalar("SELECT count(*) FROM sync_base") == 0)
        try laptop.sync()
        try desktop.sync()
        #expect(try laptop.tasks() == desktop.tasks())
        #expect(try laptop.tasks().count == 31)
        #expect(Set(server.changes.map(\.id)).count == server.changes.count)
        #expect(server.changes.count == 31, "one change per task: nothing sent twice")
    }

    /// Another process changes the file while the remote is asked: the sync merges again (its
    /// pushes kept once), and nothing the other process wrote is lost or overwritten.
    @Test func aChangeMadeHereDuringTheSyncIsMergedAgainNotLost() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_000_000)
        _ = try run(desktop.service.create([TaskDraft(title: "from desktop")]))
        try desktop.sync()
        _ = try run(laptop.service.create([TaskDraft(title: "one"), TaskDraft(title: "two")]))
        let path = folder.file("laptop.db")
        laptop.remote.afterCommit = {
            let other = try SQLiteTaskService(path: path, now: StepClock(start: 1_800_000_500_000).now)
            _ = try run(other.update(id: 2, TaskChanges(title: "two, edited meanwhile")))
        }
        let report = try laptop.sync()
        #expect(report.created == 1, "the second attempt applied what was received")
        try laptop.sync()
        try desktop.sync()
        #expect(try laptop.titles() == ["from desktop", "one", "two, edited meanwhile"])
        #expect(try desktop.tasks() == laptop.tasks())
        #expect(Set(server.changes.map(\.id)).count == server.changes.count)
    }

    @Test func tenThousandTasksEachWay() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_000_000)
        _ = try run(laptop.service.create((1...10_000).map { TaskDraft(title: "laptop \($0)", list: $0 % 2 == 0 ? "Home" : "Work") }))
        _ = try run(desktop.service.create((1...10_000).map { TaskDraft(title: "desktop \($0)") }))
        #expect(try laptop.sync().pushed == 10_000)
        let report = try desktop.sync()
        #expect(report.pushed == 10_000 && report.created == 10_000)
        #expect(try laptop.sync().created == 10_000)
        #expect(try laptop.tasks() == desktop.tasks())
        #expect(try laptop.service.db.scalarString("PRAGMA integrity_check") == "ok")
        // A new machine: every task received is made without lookups, a hundred per INSERT.
        let fresh = try Machine(folder, "fresh", server: server, clockStart: 1_800_000_000_000)
        let received = try fresh.sync()
        #expect(received.created == 20_000 && received.changed == 0)
        #expect(try fresh.tasks() == laptop.tasks())
        #expect(try fresh.service.db.scalarString("SELECT min(id) || ' ' || max(id) || ' ' || count(*) FROM task") == "1 20000 20000")
        #expect(try fresh.service.db.scalar("SELECT count(*) FROM task_text WHERE task_text MATCH 'laptop'") == 10_000, "indexed for search")
        _ = try run(fresh.service.undo(entry: nil))
        #expect(try fresh.service.db.scalar("SELECT count(*) FROM task") == 0, "one undo takes the whole sync back")
    }
}
