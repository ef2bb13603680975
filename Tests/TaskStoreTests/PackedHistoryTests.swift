import SQLiteDB
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// Migration v12: an entry's changes packed in its own row (`PackedChanges`), a large entry's
/// first parts in `history_part`.
@Suite("The history: an entry's changes in its own row")
struct PackedHistoryTests {
    @Test func aOneTaskCommandIsOneRowWithItsFieldsTyped() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let made = try run(service.create([TaskDraft(title: "milk \"2%\"\n")]))
        _ = try run(service.setDone(ids: [1], true))
        #expect(try service.db.scalar("SELECT count(*) FROM sqlite_schema WHERE name IN ('history_change', 'history_field')") == 0)
        #expect(try service.db.scalar("SELECT count(*) FROM history_part") == 0)
        let packed = try service.db.query("SELECT lo, hi, changes FROM history WHERE id = 2") { ($0.int64(0), $0.int64(1), $0.string(2)) }
        #expect(packed.first?.0 == 1 && packed.first?.1 == 1)
        #expect(packed.first?.2.hasPrefix("[[1,1,1,\"\(made[0].uuid)\",[[\"done\",0,1],[\"completed\",null,") == true)
        let stored = try service.storedChanges(of: 2)
        #expect(stored.count == 1)
        #expect(stored.first?.fields.first.map { $0.name == "done" && $0.before == .integer(0) && $0.after == .integer(1) } == true)
        #expect(stored.first?.fields.last?.before == .null)
    }

    @Test func valuesOfEveryTypeComeBackAsTheyWere() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try run(service.create([TaskDraft(title: "a")]))
        let values: [SQLiteValue] = [.null, .integer(-9_007_199_254_740_993), .real(0.1), .real(1e300), .real(-2),
                                     .text("ünïcode \"quoted\" \\ \u{1} \u{2028} 😀"), .text("12"), .blob([0, 0xFF, 0x10]), .blob([])]
        let recorder = EntryRecorder(db: try service.db, kind: .command, command: "test", time: Timestamp(millisecondsSince1970: 1))
        try recorder.changed(taskID: 1, uuid: "u", fields: values.map { (TaskField.notes, before: $0, after: $0) })
        try recorder.finish(summary: "values")
        let id = try #require(recorder.id)
        let fields = try #require(try service.storedChanges(of: id).first).fields
        #expect(fields.map(\.before) == values)
        #expect(fields.map(\.after) == values)
    }

    @Test func anEntryOfManyChangesIsWrittenInPartsFoundByTaskAndUndoneWhole() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try run(service.create((1...600).map { TaskDraft(title: "task \($0)") }))
        _ = try run(service.setDone(ids: Array(1...600), true))
        #expect(try service.db.query("SELECT part, lo, hi, json_array_length(changes) FROM history_part WHERE entry = 2 ORDER BY part") {
            [$0.int64(0), $0.int64(1), $0.int64(2), $0.int64(3)]
        } == [[1, 1, 256, 256], [2, 257, 512, 256]])
        #expect(try service.db.scalar("SELECT json_array_length(changes) FROM history WHERE id = 2") == 88)
        let entry = try #require(try run(service.history(HistoryQuery(withChanges: true))).first)
        #expect(entry.changes.map(\.taskID) == Array(1...600), "every change, in order, across the parts")
        #expect(entry.changes.allSatisfy { $0.fields.map(\.field) == [.done, .completed] })
        for task: Int64 in [1, 300, 512, 513, 600] {
            #expect(try run(service.history(HistoryQuery(taskID: task))).map(\.id) == [2, 1], "task \(task)")
        }
        #expect(try run(service.history(HistoryQuery(taskID: 601))).isEmpty)
        _ = try run(service.undo(entry: nil))
        #expect(try service.db.scalar("SELECT count(*) FROM task WHERE done = 1") == 0)
        _ = try run(service.redo())
        #expect(try service.db.scalar("SELECT count(*) FROM task WHERE done = 1") == 600)
    }

    @Test func aLaterChangeToATaskInAnyPartRefusesTheUndo() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try run(service.create((1...600).map { TaskDraft(title: "task \($0)") }))
        _ = try run(service.setDone(ids: Array(1...600), true))
        _ = try run(service.toggle(ids: [300]))
        #expect(throws: TaskServiceError.changedLater(entry: 2, taskID: 300, title: "task 300", later: 3, laterSummary: "reopened 300 \"task 300\"")) {
            try run(service.undo(entry: 2))
        }
        #expect(throws: TaskServiceError.changedLater(entry: 1, taskID: 600, title: "task 600", later: 2, laterSummary: "done 600 tasks")) {
            try run(service.undo(entry: 1))
        }
        _ = try run(service.toggle(ids: [300]))
        _ = try run(service.undo(entry: nil))
        _ = try run(service.undo(entry: nil))
        #expect(try service.db.scalar("SELECT count(*) FROM task WHERE done = 1") == 600, "the later changes undone, the entry is free")
        _ = try run(service.undo(entry: 2))
        #expect(try service.db.scalar("SELECT count(*) FROM task WHERE done = 1") == 0)
    }
}

/// `Fixtures/TaskStore/schema-v11.db`: written by the version before migration v12 (tasks 1–4,
/// one added alone and three together; 2 done, 3 edited, 4 deleted, 1's notes edited), with
/// entry 6's `before` made a BLOB by hand, as another SQLite tool could leave a column.
@Suite("TaskStore: upgrading a schema-11 history in place")
struct PackedHistoryUpgradeTests {
    @Test func everyEntryKeepsItsChangesAndStillUndoes() throws {
        let folder = TemporaryFolder()
        let path = try copyOfFixture("schema-v11.db", into: folder)
        let service = try SQLiteTaskService(path: path, create: false)
        #expect(try service.db.scalar("PRAGMA user_version") == Int64(TaskSchema.migrations.count))
        #expect(try service.db.scalar("SELECT count(*) FROM sqlite_schema WHERE name IN ('history_change', 'history_field')") == 0)
        #expect(try service.db.scalarString("PRAGMA integrity_check") == "ok")
        let entries = try run(service.history(HistoryQuery(withChanges: true)))
        #expect(entries.map(\.id) == [6, 5, 4, 3, 2, 1])
        #expect(entries.map { $0.changes.map { "\($0.kind) \($0.taskID)-\($0.lastTaskID)" } } == [
            ["changed 1-1"], ["deleted 4-4"], ["changed 3-3"], ["changed 2-2"], ["created 2-4"], ["created 1-1"],
        ])
        #expect(entries[2].changes[0].fields.map(\.field) == [.due, .priority])
        #expect(entries[3].changes[0].fields.map(\.field) == [.done, .completed])
        #expect(try run(service.history(HistoryQuery(taskID: 3))).map(\.id) == [4, 2])
        #expect(try run(service.history(HistoryQuery(taskID: 4))).map(\.id) == [5, 2])
        _ = try run(service.undo(entry: nil))
        #expect(try service.db.query("SELECT typeof(notes), hex(notes) FROM task WHERE id = 1") { "\($0.string(0)) \($0.string(1))" }
            == ["blob 00FF10"], "the BLOB the entry kept is put back as a BLOB")
        _ = try run(service.undo(entry: nil))
        #expect(try service.db.query("SELECT title FROM task WHERE id = 4") { $0.string(0) } == ["three"])
        _ = try run(service.undo(entry: 4))
        #expect(try service.db.query("SELECT due, priority FROM task WHERE id = 3") { "\($0.optionalString(0) ?? "-") \($0.optionalString(1) ?? "-")" } == ["- -"])
    }
}
