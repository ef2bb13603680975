#if canImport(Glibc)
import Glibc
#endif
import QueryLanguage
import ReactorCore
import SQLiteDB
import TaskModel
import TaskReactors
import _TestSupport
import Testing
@testable import TaskStore

/// A clock that moves one second per reading, so that times are distinct and predictable.
final class StepClock: @unchecked Sendable {
    private var current: Int64
    init(start: Int64 = 1_800_000_000_000) { current = start }
    func now() -> Timestamp {
        current += 1000
        return Timestamp(millisecondsSince1970: current)
    }
}

/// Runs a service call synchronously (the SQLite service's Observables are synchronous).
func run<T>(_ source: Observable<T>) throws -> T {
    var result: Result<T, any Error>?
    _ = source.subscribe(onNext: { result = .success($0) }, onError: { result = .failure($0) })
    guard let result else { throw NoResult() }
    return try result.get()
}

struct NoResult: Error {}

func makeService(_ folder: TemporaryFolder, name: String = "tasks.db") throws -> SQLiteTaskService {
    let clock = StepClock()
    return try SQLiteTaskService(path: folder.file(name), now: clock.now)
}

@Suite("SQLiteTaskService: fields and files")
struct TaskStoreFieldTests {
    @Test func everyFieldRoundTripsIncludingUnicodeAndALargeNote() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let notes = String(repeating: "메모 🎉 line\n", count: 1 << 16)  // about 1 MiB
        #expect(notes.utf8.count >= 1 << 20)
        let draft = TaskDraft(
            title: "장보기 🥛 e\u{301} \u{1B}[31mred\u{7}", notes: notes, list: "집 🏠",
            due: CalendarDay("2026-12-24"), priority: .high, tags: ["shop", "urgent", "shop"]
        )
        let created = try run(service.create([draft]))
        #expect(created.count == 1)
        let reopened = try SQLiteTaskService(path: folder.file("tasks.db"))
        let fetched = try run(reopened.task(id: created[0].id))
        #expect(fetched == created[0])
        #expect(fetched.title == draft.fields.title)
        #expect(fetched.notes == notes)
        #expect(fetched.list == "집 🏠")
        #expect(fetched.due?.day == CalendarDay(year: 2026, month: 12, day: 24))
        #expect(fetched.priority == .high)
        #expect(fetched.tags == ["shop", "urgent"])
        #expect(fetched.uuid.count == 36)
        #expect(!fetched.isDone && fetched.completed == nil)
    }

    @Test func sqlLookingTitlesAreStoredLiterally() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let titles = ["'); DROP TABLE task; --", "100% off_sale \\ back", "\" OR 1=1 --"]
        let created = try run(service.create(titles.map { TaskDraft(title: $0) }))
        #expect(try service.fetchNow(TaskQuery()).map(\.title) == titles)
        #expect(try run(service.fetch(TaskQuery(search: "100%"))).map(\.id) == [created[1].id])
        #expect(try run(service.fetch(TaskQuery(search: "f_s"))).map(\.id) == [created[1].id])
        #expect(try run(service.fetch(TaskQuery(search: "%"))).count == 1, "% is a character, not a wildcard")
    }

    @Test func theFileIsPrivateAndInWALMode() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder, name: "deep/er/tasks.db")
        #expect(fileMode(folder.file("deep/er/tasks.db")) == 0o600)
        #expect(fileMode(folder.file("deep")) == 0o700)
        #expect(try service.db.scalarString("PRAGMA journal_mode") == "wal")
    }

    @Test func aNewerFileIsRefusedUntouched() throws {
        let folder = TemporaryFolder()
        let path = folder.file("tasks.db")
        do {
            let service = try SQLiteTaskService(path: path)
            _ = try run(service.create([TaskDraft(title: "keep me")]))
            try service.db.execute("PRAGMA user_version = 99")
        }
        let before = readBytes(path)
        #expect(throws: TaskServiceError.newerSchema(path: path, found: 99, supported: TaskSchema.migrations.count)) {
            try SQLiteTaskService(path: path)
        }
        #expect(readBytes(path) == before)
    }

    @Test func aTextFileIsATypedErrorAndUntouched() throws {
        let folder = TemporaryFolder()
        let path = folder.file("todo.txt")
        writeBytes(path, Array("- buy milk\n".utf8))
        #expect(throws: TaskServiceError.notADatabase(path: path, reason: "file is not a database")) {
            try SQLiteTaskService(path: path)
        }
        #expect(readBytes(path) == Array("- buy milk\n".utf8))
    }

    @Test func aFolderThatCannotBeCreatedIsATypedError() {
        let folder = TemporaryFolder()
        writeBytes(folder.file("file"), [1])
        let path = folder.file("file/sub/tasks.db")
        #expect(throws: TaskServiceError.cannotCreate(path: path, reason: folder.file("file/sub") + ": Not a directory")) {
            try SQLiteTaskService(path: path)
        }
    }
}

@Suite("SQLiteTaskService: changes are all or nothing")
struct TaskStoreBatchTests {
    @Test func aBatchWithOneBadDraftAddsNothing() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try run(service.create([TaskDraft(title: "existing")]))
        var events: [TaskEvent] = []
        let subscription = service.event.subscribe(onNext: { events.append($0) })
        #expect(throws: TaskServiceError.unexpected(service.path + ": CHECK constraint failed: length(trim(title)) > 0")) {
            try run(service.create([TaskDraft(title: "a"), TaskDraft(title: "   "), TaskDraft(title: "c")]))
        }
        #expect(try service.fetchNow(TaskQuery()).map(\.title) == ["existing"])
        #expect(events.isEmpty, "no event for a rolled-back batch")
        subscription.dispose()
    }

    @Test func severalIdsWithOneMissingChangeNothingAndNameIt() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let tasks = try run(service.create([TaskDraft(title: "a"), TaskDraft(title: "b")]))
        let ids = tasks.map(\.id)
        #expect(throws: TaskServiceError.notFound(ids: [999])) { try run(service.toggle(ids: ids + [999])) }
        #expect(throws: TaskServiceError.notFound(ids: [998, 999])) { try run(service.delete(ids: [ids[0], 998, 999])) }
        #expect(throws: TaskServiceError.notFound(ids: [999])) { try run(service.setDone(ids: [999], true)) }
        #expect(try service.fetchNow(TaskQuery()).map(\.id) == ids, "nothing changed")
    }

    @Test func toggleDoneReopenAndDelete() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let ids = try run(service.create([TaskDraft(title: "a"), TaskDraft(title: "b")])).map(\.id)
        let toggled = try run(service.toggle(ids: [ids[0]])).changedTasks
        #expect(toggled[0].isDone && toggled[0].completed != nil)
        #expect(try run(service.setDone(ids: ids, true)).changedTasks.map(\.id) == [ids[1]], "done stays done")
        #expect(try run(service.setDone(ids: ids, false)).changedTasks.count == 2)
        #expect(try service.fetchNow(TaskQuery(status: .done)).isEmpty)
        #expect(try run(service.delete(ids: [ids[0], ids[0]])).map(\.id) == [ids[0]])
        #expect(try service.fetchNow(TaskQuery(status: .all)).map(\.id) == [ids[1]])
        let next = try run(service.create([TaskDraft(title: "c")]))
        #expect(next[0].id > ids[1], "ids are never reused")
    }

    @Test func eventsComeAfterTheCommit() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let observer = try SQLiteTaskService(path: folder.file("tasks.db"))
        var seenByAnotherConnection: [Int64] = []
        let subscription = service.event.subscribe(onNext: { event in
            // Another connection sees the change already: it was committed before the event.
            seenByAnotherConnection.append(try! observer.db.scalar("SELECT count(*) FROM task") ?? -1)
        })
        _ = try run(service.create([TaskDraft(title: "a")]))
        _ = try run(service.create([TaskDraft(title: "b"), TaskDraft(title: "c")]))
        #expect(seenByAnotherConnection == [1, 3])
        subscription.dispose()
    }

    @Test func updateKeepsUntouchedFields() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let task = try run(service.create([TaskDraft(title: "a", notes: "keep", due: CalendarDay("2026-01-02"), tags: ["x"])]))[0]
        let updated = try run(service.update(id: task.id, TaskChanges(title: "b", addTags: ["y"], removeTags: ["x"])))
        #expect(updated.title == "b")
        #expect(updated.notes == "keep")
        #expect(updated.due?.day == CalendarDay("2026-01-02"))
        #expect(updated.tags == ["y"])
        #expect(updated.modified > task.modified)
        let cleared = try run(service.update(id: task.id, TaskChanges(due: .clear)))
        #expect(cleared.due == nil)
        #expect(try run(service.task(id: task.id)) == cleared)
    }
}

@Suite("SQLiteTaskService: queries and order")
struct TaskStoreQueryTests {
    @Test func filtersAndSortsHappenInSQL() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let made = try run(service.create([
            TaskDraft(title: "Buy MILK", list: "Home", due: CalendarDay("2026-12-01"), priority: .low, tags: ["shop"]),
            TaskDraft(title: "Write report", notes: "about milk prices", list: "Work", priority: .high),
            TaskDraft(title: "Call mum", list: "Home", due: CalendarDay("2026-11-01"), tags: ["phone"]),
            TaskDraft(title: "Ship it", list: "Work", due: CalendarDay("2027-01-01"), priority: .medium, tags: ["shop"]),
        ]))
        _ = try run(service.toggle(ids: [made[3].id]))
        func titles(_ query: TaskQuery) throws -> [String] { try service.fetchNow(query).map(\.title) }
        #expect(try titles(TaskQuery()) == ["Buy MILK", "Call mum", "Write report"])
        #expect(try titles(TaskQuery(status: .done)) == ["Ship it"])
        #expect(try titles(TaskQuery(status: .all, filter: .term(.list("Work", exact: true)))) == ["Write report", "Ship it"])
        #expect(try titles(TaskQuery(status: .all, filter: .term(.tag("shop")))) == ["Buy MILK", "Ship it"])
        #expect(try titles(TaskQuery(search: "milk")) == ["Buy MILK", "Write report"], "title or notes, any case")
        let high = try FilterParser(settings: FilterSettings(dates: DateContext(now: Timestamp(millisecondsSince1970: 0), today: .unixEpoch,
                                                                                 zone: .fixed(offsetSeconds: 0)))).parse(["priority:H"]).filter
        #expect(try titles(TaskQuery(filter: high)) == ["Write report"])
        #expect(try titles(TaskQuery(dueBefore: TaskDate("2026-12-01"))) == ["Call mum"])
        #expect(try titles(TaskQuery(status: .all, sort: .due, grouping: .none)) == ["Call mum", "Buy MILK", "Ship it", "Write report"])
        #expect(try titles(TaskQuery(status: .all, sort: .priority, grouping: .none)) == ["Write report", "Ship it", "Buy MILK", "Call mum"])
        #expect(try titles(TaskQuery(status: .all, grouping: .byStatus)) == ["Buy MILK", "Call mum", "Write report", "Ship it"])
        for query in [TaskQuery(), TaskQuery(status: .all, sort: .due, grouping: .none), TaskQuery(search: "MILK")] {
            let all = try service.fetchNow(TaskQuery(status: .all))
            let expected = all.filter { query.matches($0) }.sorted { query.orders($0, before: $1) }
            if query.grouping == .none || query.sort == .manual {
                #expect(try service.fetchNow(query) == expected, "TaskQuery.matches and orders agree with the SQL")
            }
        }
        #expect(try run(service.lists()) == [
            TaskListSummary(name: "Home", pending: 2, done: 0),
            TaskListSummary(name: "Work", pending: 1, done: 1),
        ])
    }

    @Test func movesWithinAndAcrossLists() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let ids = try run(service.create(["a", "b", "c", "d"].map { TaskDraft(title: $0) })).map(\.id)
        func order() throws -> [String] { try service.fetchNow(TaskQuery()).map(\.title) }
        _ = try run(service.move(id: ids[3], to: .top))
        #expect(try order() == ["d", "a", "b", "c"])
        _ = try run(service.move(id: ids[3], to: .bottom))
        #expect(try order() == ["a", "b", "c", "d"])
        _ = try run(service.move(id: ids[0], to: .after(ids[2])))
        #expect(try order() == ["b", "c", "a", "d"])
        _ = try run(service.move(id: ids[3], to: .before(ids[1])))
        #expect(try order() == ["d", "b", "c", "a"])
        let moved = try run(service.move(id: ids[1], to: .list("Later")))
        #expect(moved.list == "Later")
        #expect(try order() == ["d", "c", "a", "b"])
        #expect(throws: TaskServiceError.moveRelativeToItself(id: ids[0])) { try run(service.move(id: ids[0], to: .before(ids[0]))) }
        #expect(throws: TaskServiceError.notFound(ids: [77])) { try run(service.move(id: ids[0], to: .before(77))) }
    }

    @Test func manyMovesIntoTheSameGapRenumberAndKeepTheOrder() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let ids = try run(service.create((0..<10).map { TaskDraft(title: "t\($0)") })).map(\.id)
        // Move the last task in front of t1 forty times, each time a new one: the gap halves each time.
        var expected = (0..<10).map { "t\($0)" }
        for round in 0..<40 {
            let last = try service.fetchNow(TaskQuery()).last?.id ?? ids[9]
            _ = try run(service.move(id: last, to: .after(ids[0])))
            let title = expected.removeLast()
            expected.insert(title, at: 1)
            #expect(try service.fetchNow(TaskQuery()).map(\.title) == expected, "round \(round)")
        }
    }
}

/// Whether this machine can make a file unwritable even for its user: `chmod` for a normal
/// user; for root, who ignores modes, the immutable attribute (`chattr +i`).
func makeUnwritable(_ path: String) -> Bool {
    if geteuid() == 0 {
        guard system("chattr +i '\(path)' 2>/dev/null") == 0 else { return false }
    } else {
        chmod(path, 0o444)
    }
    guard let file = fopen(path, "r+") else { return true }
    fclose(file)
    return false
}

func makeWritable(_ path: String) {
    if geteuid() == 0 { _ = system("chattr -i '\(path)' 2>/dev/null") } else { chmod(path, 0o600) }
}

let unwritableFilesPossible: Bool = {
    let folder = TemporaryFolder()
    let probe = folder.file("probe")
    writeBytes(probe, [0])
    defer { makeWritable(probe) }
    return makeUnwritable(probe)
}()

@Suite("SQLiteTaskService: a read-only file")
struct TaskStoreReadOnlyTests {
    @Test(.enabled(if: unwritableFilesPossible, "needs chmod, or chattr +i as root"))
    func aReadOnlyFileCanBeReadAndRefusesWritesWithATypedError() throws {
        let folder = TemporaryFolder()
        let path = folder.file("tasks.db")
        do {
            let service = try SQLiteTaskService(path: path)
            _ = try run(service.create([TaskDraft(title: "keep me")]))
            try service.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let before = readBytes(path)
        #expect(makeUnwritable(path))
        defer { makeWritable(path) }
        let service = try SQLiteTaskService(path: path)
        #expect(try service.fetchNow(TaskQuery()).map(\.title) == ["keep me"])
        #expect(throws: TaskServiceError.readOnly(path: path)) {
            try run(service.create([TaskDraft(title: "new")]))
        }
        #expect(readBytes(path) == before)
    }
}

@Suite("UUIDs")
struct UUIDTests {
    @Test func timeOrderedUUIDsAreVersion7IncreasingAndUnique() {
        var clock: Int64 = 1_800_000_000_000
        let make = TimeOrderedUUID.generator(now: {
            // Many per millisecond, then a step back in time: still increasing.
            clock += 1
            return Timestamp(millisecondsSince1970: clock / 5_000 * 5_000 - (clock % 7 == 0 ? 10 : 0))
        })
        let uuids = (0..<20_000).map { _ in make() }
        #expect(uuids == uuids.sorted(), "each one sorts after the one before")
        #expect(Set(uuids).count == uuids.count)
        for uuid in uuids.prefix(100) {
            let characters = Array(uuid)
            #expect(characters.count == 36)
            #expect(characters[14] == "7", "version 7")
            #expect("89ab".contains(characters[19]), "RFC 9562 variant")
        }
        #expect(uuids[0].hasPrefix("01a3185c-"), "the first 48 bits are the milliseconds: 1.8e12 >> 16 is 0x01a3185c")
    }

    @Test func randomUUIDsAreVersion4() {
        let uuid = Array(UUIDText.random())
        #expect(uuid.count == 36 && uuid[14] == "4" && "89ab".contains(uuid[19]))
    }
}
