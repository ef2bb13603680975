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
        let kept = try columns("deleted_task")
        #expect(kept.filter { !["entry", "tombstone", "removed", "purged"].contains($0) } == TaskColumn.names.split(separator: ", ").map(String.init)
                && kept.first == "entry", "a deleted task keeps every column, for undo and as its tombstone")
        for table in ["sync_base", "sync_remote_base"] {
            let synced = try columns(table)
            for field in TaskFields.synced { #expect(synced.contains(field.column), "\(table) holds \(field.name)") }
        }
    }

    @Test func eachFieldIsStoredAndRestoredWhole() throws {
        let task = Task(id: 7, uuid: "u", title: "t", notes: "n\nm", list: "L", isDone: true, completed: Timestamp(millisecondsSince1970: 5),
                        due: CalendarDay("2026-12-24"), priority: .medium, tags: ["a", "b"], position: 9,
                        created: Timestamp(millisecondsSince1970: 1), modified: Timestamp(millisecondsSince1970: 2),
                        repeat: RepeatRule("every 2w"), series: "s", anchor: CalendarDay("2026-12-10"), wait: CalendarDay("2026-12-20"))
            .with { $0.scheduled = TaskDate("2026-12-15T09:30:00+01:00[Europe/Berlin]"); $0.until = TaskDate("2027-01-31"); $0.extras = #""estimate":"3h""#
                $0.start = Timestamp(millisecondsSince1970: 7); $0.spent = 90; $0.depends = ["u2", "u3"]
                $0.annotations = [Annotation(entry: Timestamp(millisecondsSince1970: 8), text: "a\tb\\c\nd")]
                $0.reminders = [Reminder(at: Timestamp(millisecondsSince1970: 9_000))] + (Reminder(anchor: .due, offset: -900).map { [$0] } ?? [])
                $0.parent = "u0" }
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

    /// The form names each field a person sets once; those without code of their own are set
    /// through their `FieldEdit`, by the same code for every one.
    @Test func theFormsFieldsAreNamedOrEditedAndEachEditedOneIsSetWhole() throws {
        let named: Set<TaskField> = [.title, .notes, .list, .tags, .repeat]
        #expect(Set(TaskFields.form).count == TaskFields.form.count, "each field once")
        for field in TaskFields.form where !named.contains(field) {
            #expect(TaskFields.spec(field).edit != nil, "\(field.rawValue) is in the form, so it has an edit entry")
        }
        #expect(TaskFields.edited.map(\.field) == TaskFields.form.filter { !named.contains($0) })
        let today = try #require(CalendarDay("2026-12-01"))
        let typed: [FieldKind: (String, FieldValue)] = [
            .date: ("fri", .date(TaskDate(try #require(CalendarDay("2026-12-04"))))), .priority: ("m", .priority(.medium)),
            .reminders: ("due-15m, tomorrow 9:00, start+1h", .tags(["20261202T090000Z", "due-15min", "start+1h"])),
        ]
        for spec in TaskFields.edited {
            let (text, value) = try #require(typed[spec.kind], "a kind the test knows: \(spec.name)")
            #expect(try spec.judge(text, today: today) == value)
            #expect(try spec.judge("  ", today: today) == FieldValue.none, "empty clears")
            #expect(throws: TaskFieldError.badValue(spec.field, "nonsense")) { try spec.judge("nonsense", today: today) }
            var task = Task(unsaved: "t")
            spec.assign(value, to: &task)
            #expect(task.value(of: spec.field) == value, "\(spec.name) is set from its value")
            #expect(spec.typedText(of: task) == value.plainText)
            #expect(task.recordedFieldsDiffering(from: Task(unsaved: "t")).map(\.field) == [spec.field], "and nothing else is")
            spec.assign(.none, to: &task)
            #expect(task == Task(unsaved: "t"), "\(spec.name) is cleared by none")
        }
    }

    /// A change names only what it changes; its values go through the table.
    @Test func aChangesValuesAreAppliedThroughTheTable() throws {
        let day = try #require(CalendarDay("2026-12-24"))
        var task = Task(unsaved: "t")
        task.wait = TaskDate(day)
        let changes = TaskChanges(due: .set(day), priority: .set(.high), wait: .clear)
        #expect(changes.values == [.due: .date(TaskDate(day)), .priority: .priority(.high), .wait: FieldValue.none])
        changes.applyingValues(to: &task)
        #expect(task.due == TaskDate(day) && task.priority == .high && task.wait == nil)
        #expect(TaskChanges(wait: .keep).isEmpty)
    }
}

private extension Task {
    /// The task with `change` made.
    func with(_ change: (inout Task) -> Void) -> Task {
        var task = self
        change(&task)
        return task
    }

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
