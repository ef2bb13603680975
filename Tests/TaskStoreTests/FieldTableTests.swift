import SQLiteDB
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// Issue 25: a field is one entry of `TaskFields.all`, and the table's columns, the history and
/// sync follow it. These pin that the entries, the schema and the task agree.
@Suite("The field table")
struct FieldTableTests {
    @Test func everyFieldHasOneEntryInItsOrder() {
        #expect(TaskFields.all.map(\.field) == TaskField.allCases, "one entry per key, in the key's order")
        for field in TaskField.allCases { #expect(TaskFields.spec(field).field == field) }
        #expect(Set(TaskFields.all.map(\.name)).count == TaskFields.all.count, "names (show's labels too) are distinct")
    }

    @Test func theColumnsAreTheSchemasAndTheDeletedTasksToo() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let columns = { (table: String) in
            try service.db.query("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid") { $0.string(0) }
        }
        #expect(try columns("task") == TaskColumn.names.split(separator: ", ").map(String.init), "the task table's columns, in order")
        #expect(try columns("deleted_task") == ["entry"] + TaskColumn.names.split(separator: ", ").map(String.init),
                "a deleted task keeps every column, for undo")
        let synced = try columns("sync_base")
        for field in TaskFields.synced { #expect(synced.contains(field.column), "sync_base holds \(field.name)") }
    }

    @Test func eachFieldIsStoredAndRestoredWhole() throws {
        let task = Task(id: 7, uuid: "u", title: "t", notes: "n\nm", list: "L", isDone: true, completed: Timestamp(millisecondsSince1970: 5),
                        due: CalendarDay("2026-12-24"), priority: .medium, tags: ["a", "b"], position: 9,
                        created: Timestamp(millisecondsSince1970: 1), modified: Timestamp(millisecondsSince1970: 2),
                        repeat: RepeatRule("every 2w"), series: "s", anchor: CalendarDay("2026-12-10"), wait: CalendarDay("2026-12-20"))
        var rebuilt = Task(id: 7, uuid: "u", title: "", created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0))
        let row = StoredRow(TaskFields.all.map { $0.stored(task) })
        for (index, field) in TaskFields.all.enumerated() { field.read(&rebuilt, row, Int32(index)) }
        #expect(rebuilt == task)
        for field in TaskFields.all {
            #expect(field.stored(task) != field.stored(task.cleared()), "\(field.name) is set here, so the round trip tests it")
        }
        #expect(task.recordedFieldsDiffering(from: task).isEmpty)
        var edited = task
        edited.wait = nil
        edited.modified = Timestamp(millisecondsSince1970: 3)
        #expect(task.recordedFieldsDiffering(from: edited).map(\.name) == ["wait"], "modified is no field of the history")
    }
}

private extension Task {
    /// The task with every optional field cleared and every other at its empty value.
    func cleared() -> Task {
        Task(id: id, uuid: uuid, title: "", created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0))
    }
}

/// A row of stored values, read as SQLite reads a row (null as 0 or empty text).
private final class StoredRow: ColumnRow {
    let values: [SyncValue]
    init(_ values: [SyncValue]) { self.values = values }
    func int64(_ index: Int32) -> Int64 { optionalInt64(index) ?? 0 }
    func optionalInt64(_ index: Int32) -> Int64? { values[Int(index)].integer }
    func string(_ index: Int32) -> String { optionalString(index) ?? "" }
    func optionalString(_ index: Int32) -> String? { values[Int(index)].text }
}
