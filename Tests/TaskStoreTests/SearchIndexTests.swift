import QueryLanguage
import SQLiteDB
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// A large insert sets the search index's trigger aside and fills the index once at its end
/// (`SearchIndex`): the index must still hold every task, and the trigger must come back as the
/// migration made it — or, when the insert fails, never have gone.
@Suite("The search index after a large insert")
struct SearchIndexTests {
    struct Failed: Error {}

    static func trigger(_ db: Connection) throws -> String? {
        try db.scalarString("SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = 'task_text_insert'")
    }

    /// FTS5's own check, comparing the index with the tasks (rank 1); throws when they differ.
    static func checkIndex(_ db: Connection) throws {
        try db.execute("INSERT INTO task_text (task_text, rank) VALUES ('integrity-check', 1)")
    }

    static func found(_ service: SQLiteTaskService, _ text: String) throws -> [String] {
        try run(service.fetch(TaskQuery(status: .all, search: text))).map(\.title)
    }

    @Test func theCheckFindsATaskMissingFromTheIndex() throws {
        let folder = TemporaryFolder()
        let service = try SQLiteTaskService(path: folder.file("check.db"))
        _ = try run(service.create([TaskDraft(title: "indexed")]))
        try Self.checkIndex(service.db)
        try service.db.execute("DROP TRIGGER task_text_insert")
        try service.db.execute("INSERT INTO task (uuid, title, position, created, modified) VALUES ('x', 'not indexed', 1, 1, 1)")
        #expect(throws: (any Error).self) { try Self.checkIndex(service.db) }
    }

    /// Streamed, or checked ahead to its end (`add -` of an input that fits its read-ahead,
    /// written through the rollback journal).
    @Test(arguments: [false, true])
    func aStreamedAddPastTheThresholdIsFoundAndTheTriggerIsBackAsItWas(checked: Bool) throws {
        let folder = TemporaryFolder()
        let service = try SQLiteTaskService(path: folder.file("streamed.db"))
        _ = try run(service.create([TaskDraft(title: "before the batch")]))
        let before = try Self.trigger(service.db)
        #expect(before == SearchIndex.insertTrigger, "the migration's text is the constant's")
        let count = SearchIndex.deferredFrom + 2_500
        var n = 0
        _ = try run(service.create(streaming: TaskTitleStream(template: TaskDraft(title: ""), checkedCount: checked ? count : nil) {
            n += 1
            return n <= count ? "streamed \(n) ärger" : nil
        }))
        #expect(try Self.trigger(service.db) == before)
        try Self.checkIndex(service.db)
        #expect(try Self.found(service, "streamed 7 ") == ["streamed 7 ärger"], "a row indexed by the trigger")
        #expect(try Self.found(service, "streamed \(count) ") == ["streamed \(count) ärger"], "a row indexed at the end")
        #expect(try Self.found(service, "ÄRGER").count == count)
        _ = try run(service.create([TaskDraft(title: "after the batch")]))
        #expect(try Self.found(service, "after the") == ["after the batch"], "the trigger indexes again")
        try Self.checkIndex(service.db)
    }

    @Test func aStreamedAddFailingAfterTheTriggerWasSetAsideLeavesEverythingAsItWas() throws {
        let folder = TemporaryFolder()
        let service = try SQLiteTaskService(path: folder.file("failed.db"))
        _ = try run(service.create([TaskDraft(title: "kept")]))
        var n = 0
        #expect(throws: Failed.self) {
            _ = try run(service.create(streaming: TaskTitleStream(template: TaskDraft(title: "")) {
                n += 1
                if n == SearchIndex.deferredFrom + 500 { throw Failed() }
                return "streamed \(n)"
            }))
        }
        #expect(n == SearchIndex.deferredFrom + 500, "the failure came after the trigger was set aside")
        #expect(try Self.trigger(service.db) == SearchIndex.insertTrigger)
        #expect(try service.db.scalar("SELECT count(*) FROM task") == 1)
        #expect(try Self.settings(service.db) == [nil, nil], "the fill's settings went with the rows")
        try Self.checkIndex(service.db)
        _ = try run(service.create([TaskDraft(title: "then one more")]))
        #expect(try Self.found(service, "one more") == ["then one more"])
    }

    static func settings(_ db: Connection) throws -> [Int64?] {
        try SearchIndex.fillSettings.map { try db.scalar("SELECT v FROM task_text_config WHERE k = ?", $0.key) }
    }

    @Test func theFillsSettingsArePutBackAsTheyWere() throws {
        let folder = TemporaryFolder()
        let service = try SQLiteTaskService(path: folder.file("settings.db"))
        _ = try run(service.create([TaskDraft(title: "before the batch")]))
        #expect(try Self.settings(service.db) == [nil, nil], "a new file keeps FTS5's defaults")
        func add(_ count: Int) throws {
            var n = 0
            _ = try run(service.create(streaming: TaskTitleStream(template: TaskDraft(title: "")) {
                n += 1
                return n <= count ? "streamed \(n)" : nil
            }))
        }
        try add(SearchIndex.deferredFrom + 10)
        #expect(try Self.settings(service.db) == SearchIndex.fillSettings.map(\.standard), "FTS5's defaults, written out")
        // A value someone set on the index stays theirs.
        try service.db.execute("INSERT INTO task_text (task_text, rank) VALUES ('automerge', 8)")
        try add(SearchIndex.deferredFrom + 10)
        #expect(try Self.settings(service.db) == [SearchIndex.fillSettings[0].standard, 8])
        #expect(SearchIndex.fillSettings.allSatisfy { $0.value != $0.standard }, "the fill's own values differ from both")
        try Self.checkIndex(service.db)
    }

    @Test func aLargeImportIsFoundAndTheTasksItUpdatesAreIndexedAgain() throws {
        let folder = TemporaryFolder()
        let service = try SQLiteTaskService(path: folder.file("import.db"))
        _ = try run(service.create([TaskDraft(title: "old title"), TaskDraft(title: "untouched")]))
        let existing = try run(service.fetch(TaskQuery(status: .all)))
        let renamed = try #require(existing.first { $0.title == "old title" })
        var records = (1...SearchIndex.deferredFrom).map { TaskRecord(title: "imported \($0)") }
        records.append(TaskRecord(uuid: renamed.uuid, title: "new title"))
        let result = try run(service.importTasks(records))
        #expect(result.created == SearchIndex.deferredFrom && result.updated == 1)
        #expect(try Self.trigger(service.db) == SearchIndex.insertTrigger)
        try Self.checkIndex(service.db)
        #expect(try Self.found(service, "old title").isEmpty)
        #expect(try Self.found(service, "new title") == ["new title"])
        #expect(try Self.found(service, "untouched") == ["untouched"])
        #expect(try Self.found(service, "imported \(SearchIndex.deferredFrom)") == ["imported \(SearchIndex.deferredFrom)"])
    }
}

@Suite("The search index after a large sync")
struct SyncSearchIndexTests {
    @Test func manyTasksReceivedAreFoundAndATaskChangedThereIsIndexedAgain() throws {
        let folder = TemporaryFolder(), server = MemoryServer()
        let laptop = try Machine(folder, "laptop", server: server, clockStart: 1_800_000_000_000)
        let desktop = try Machine(folder, "desktop", server: server, clockStart: 1_800_000_000_000)
        _ = try run(desktop.service.create([TaskDraft(title: "desktop's own")]))
        try desktop.sync()
        let count = SearchIndex.deferredFrom + 10
        _ = try run(laptop.service.create((1...count).map { TaskDraft(title: "carried \($0) ärger") }))
        try laptop.sync()
        _ = try run(laptop.service.update(id: try laptop.id(of: "desktop's own"), TaskChanges(title: "renamed on the laptop")))
        try laptop.sync()
        let received = try desktop.sync()
        #expect(received.created == count && received.changed == 1, "enough tasks received to index them at the end")
        #expect(try SearchIndexTests.trigger(desktop.service.db) == SearchIndex.insertTrigger)
        try SearchIndexTests.checkIndex(desktop.service.db)
        #expect(try SearchIndexTests.found(desktop.service, "carried \(count) ") == ["carried \(count) ärger"])
        #expect(try SearchIndexTests.found(desktop.service, "ÄRGER").count == count)
        #expect(try SearchIndexTests.found(desktop.service, "renamed on the") == ["renamed on the laptop"])
        #expect(try SearchIndexTests.found(desktop.service, "desktop's own").isEmpty)
    }
}

/// Migration v13: the index made again without FTS5's per-row column sizes.
@Suite("TaskStore: the search index of a schema-11 file, made again")
struct SearchIndexUpgradeTests {
    @Test func theIndexKeepsNoColumnSizesFindsWhatItFoundAndKeepsItsSettings() throws {
        let folder = TemporaryFolder()
        let path = try copyOfFixture("schema-v11.db", into: folder)
        do {
            let old = try Connection(path: path)
            #expect(try old.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'task_text_docsize'") == 1)
            try old.execute("INSERT INTO task_text (task_text, rank) VALUES ('automerge', 8)")
        }
        let service = try SQLiteTaskService(path: path, create: false)
        #expect(try service.db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'task_text_docsize'") == 0)
        #expect(try service.db.scalarString("SELECT sql FROM sqlite_schema WHERE name = 'task_text'")?.contains("columnsize = 0") == true)
        #expect(try service.db.scalar("SELECT v FROM task_text_config WHERE k = 'automerge'") == 8, "a setting made on the old index")
        try SearchIndexTests.checkIndex(service.db)
        #expect(try SearchIndexTests.found(service, "UY MIL") == ["Buy milk"], "a task written before the migration")
        #expect(try SearchIndexTests.found(service, "two") == ["two"])
        _ = try run(service.create([TaskDraft(title: "written after it")]))
        #expect(try SearchIndexTests.found(service, "after it") == ["written after it"])
        _ = try run(service.update(id: 1, { var changes = TaskChanges(); changes.title = "Buy oat milk"; return changes }()))
        #expect(try SearchIndexTests.found(service, "oat m") == ["Buy oat milk"])
        #expect(try SearchIndexTests.found(service, "Buy milk").isEmpty, "the old title left the index")
        try SearchIndexTests.checkIndex(service.db)
    }
}
