import TaskModel
import _TestSupport
import Testing
@testable import TaskInterchange

/// The fixtures were written by the real tools in America/New_York (Fixtures/TaskInterchange/make-fixtures).
let newYork = LocalTime.fixed(offsetSeconds: -5 * 3600)

func day(_ text: String) -> CalendarDay? { CalendarDay(text) }
func time(_ text: String) -> Timestamp? { TimestampText.parse(text) }

func write(_ tasks: [Task], as format: InterchangeFormat, localTime: LocalTime = newYork) -> (String, [String]) {
    var writer = ExportWriter(format: format, localTime: localTime)
    var bytes: [UInt8] = []
    writer.begin(to: &bytes)
    for task in tasks { writer.append(task, to: &bytes) }
    writer.end(to: &bytes)
    return (String(decoding: bytes, as: UTF8.self), writer.notKeptLines)
}

let sampleTasks: [Task] = [
    Task(id: 1, uuid: "0190f1e2-7c3a-7b4d-8e5f-123456789abc", title: "Buy milk", list: "Home", due: day("2026-12-03"),
         priority: .high, tags: ["errand"], position: 65536, created: time("2026-11-29T10:00:00.123Z")!,
         modified: time("2026-11-29T10:00:00.123Z")!),
    Task(id: 4, uuid: "0190f1e2-7c3a-7b4d-8e5f-123456789abd", title: "Write report ✍️ 보고서 \"quoted\"",
         notes: "first line\n\nthird line\\ with a backslash\ttab", list: "Work.Q4", tags: ["urgent", "writing"],
         position: -3, created: time("2026-11-29T11:00:00.000Z")!, modified: time("2026-11-30T01:02:03.456Z")!),
    Task(id: 9, uuid: "0190f1e2-7c3a-7b4d-8e5f-123456789abe", title: "Done thing", isDone: true,
         completed: time("2026-11-30T02:00:00.000Z")!, priority: .low, position: 131072,
         created: time("2026-11-28T23:59:59.999Z")!, modified: time("2026-11-30T02:00:00.000Z")!),
]

@Suite struct TaskJSONTests {
    @Test func readsBackEveryFieldItWrites() throws {
        let (text, notKept) = write(sampleTasks, as: .json)
        #expect(notKept.isEmpty)
        let file = try TaskJSON.read(Array(text.utf8))
        #expect(file.batch.records == sampleTasks.map(TaskRecord.init))
        #expect(file.notKept.isEmpty && file.skipped.isEmpty)
    }

    @Test func optionalMembersMayBeLeftOutOrNull() throws {
        let file = try TaskJSON.read(Array(#"[{"title":"a"},{"title":"b","notes":null,"list":null,"tags":null,"due":null}]"#.utf8))
        #expect(file.batch.records == [TaskRecord(title: "a"), TaskRecord(title: "b")])
        #expect(try TaskJSON.read(Array("[]".utf8)).batch.records.isEmpty)
    }

    /// The catalogue of bad records: each stops the whole file with its number and reason.
    @Test func badRecordsAreNamed() {
        let cases: [(String, String)] = [
            ("", "the input is empty; for a todo.txt file use --format todotxt"),
            ("x Buy milk", "this is not JSON (it starts with 'x'); for a todo.txt file use --format todotxt"),
            (#"{"title":"a"}"#, "expected an array of tasks ('[' … ']'), as 'tasks export' writes, found one object"),
            (#"[{"title":"a"},"#, "line 1, column 16: the input ends inside an array"),
            (#"[{"title":"a"}] x"#, "line 1, column 17: more after the array's closing ']': 'x'"),
            (#"[{"title":"a"},{"notes":"b"}]"#, "record 2: \"title\" is missing; every task needs one"),
            (#"[{"title":1}]"#, "record 1: \"title\" should be a string"),
            (#"[{"title":"a","done":"yes"}]"#, "record 1: \"done\" should be true or false"),
            (#"[{"title":"a","tags":"x y"}]"#, "record 1: \"tags\" should be an array of strings"),
            (#"[{"title":"a","due":"2026-13-01"}]"#, "record 1: \"due\" is '2026-13-01', not a date; use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS+HH:MM"),
            (#"[{"title":"a","priority":"X"}]"#, "record 1: \"priority\" is 'X'; use \"H\", \"M\", \"L\" or null"),
            (#"[{"title":"a","created":"yesterday"}]"#,
             "record 1: \"created\" is 'yesterday', not a time; use ISO 8601 such as 2026-11-29T23:44:46.123Z"),
            (#"[{"title":"a","id":0}]"#, "record 1: \"id\" is 0; ids start at 1 and are less than 2^62"),
            (#"[{"title":"a","id":9223372036854775807}]"#, "record 1: \"id\" is 9223372036854775807; ids start at 1 and are less than 2^62"),
            (#"[{"title":"a","position":-9223372036854775808}]"#,
             "record 1: \"position\" is -9223372036854775808; positions are within ±2^62"),
            (#"[{"title":"a","position":1.5}]"#, "record 1: \"position\" should be a whole number"),
            (#"[{"title":"a","title":"b"}]"#, "record 1: \"title\" appears twice"),
            (#"[{"title":"a","colour":"red"}]"#,
             "record 1: unknown member \"colour\"; a task has id, uuid, title, notes, list, done, completed, due, priority, tags, position, created, modified, repeat, series, anchor, wait, scheduled, until, extras, start, spent, depends, annotations, deleted, reminders, parent"),
            (#"[{"description":"a","status":"pending"}]"#,
             "record 1: unknown member \"description\"; this looks like Taskwarrior's export: use --format taskwarrior"),
            ("[{\"title\":\"a\u{1}\"}]", "line 1, column 13: a control character (byte 0x1) inside a string; write it as \\u0001 (in record 1)"),
            ("[1]", "line 1, column 2: expected a task object ('{'), found '1' (in record 1)"),
        ]
        for (input, message) in cases {
            #expect(throws: InterchangeError(message), "\(input)") { try TaskJSON.read(Array(input.utf8)) }
        }
    }
}

@Suite struct TaskwarriorTests {
    /// `task export` of Taskwarrior 2.6.2, kept as written.
    @Test func readsRealTaskwarriorExport() throws {
        let bytes = readBytes(fixturesFolder() + "/TaskInterchange/taskwarrior-2.6.2-export.json")
        let file = try Taskwarrior.read(bytes, localTime: newYork)
        let records = file.batch.records
        #expect(records.map(\.fields.title) == ["Buy milk", "Write report ✍️ 보고서", "Call \"mom\" back, 50% — tomorrow", "Renew passport",
                                         "Blocked task", "Has an orphan attribute", "Pay rent", "Old idea", "Done thing"])
        // The recurring template (record 5) is kept as written, for the way back, and said so;
        // the deleted task (record 9) is read as deleted, deleted when it ended (issue 53:
        // deleted tasks are kept).
        #expect(file.batch.numbers == [1, 2, 3, 4, 6, 7, 8, 9, 10])
        #expect(file.skipped == [])
        #expect(file.batch.kept.map(\.uuid) == ["2a1966a6-5d3c-47ce-90bc-e919274c12bb"])
        #expect(file.batch.kept.first?.body.hasPrefix(#"{"id":5,"description":"Pay rent","due":"20261201T050000Z","entry":"20261130T021856Z","mask":"-","#) == true)
        #expect(file.batch.kept.first?.body.hasSuffix(#""uuid":"2a1966a6-5d3c-47ce-90bc-e919274c12bb","urgency":9.29173}"#) == true)
        #expect(records.map(\.fields.isDeleted) == [false, false, false, false, false, false, false, true, false])
        #expect(records[7].modified == TimestampText.parse("2026-11-30T02:18:56Z"))
        #expect(file.notKept == [])
        #expect(file.keptAside == ["recurring templates: 1 task", "estimate: 1 task"], "start, depends and scheduled are fields now; the rest is kept")
        #expect(records[4].fields.depends == ["d3c4bd73-b328-47bd-b6ab-877ce43f87bf"] && records[4].fields.extras.isEmpty)
        let milk = records[0]
        #expect(milk.uuid == "d3c4bd73-b328-47bd-b6ab-877ce43f87bf")
        #expect(milk.fields.list == "Home" && milk.fields.tags == ["errand"] && milk.fields.priority == .high && milk.fields.due?.day == day("2026-12-03"))
        #expect(milk.created == time("2026-11-30T02:18:55Z") && milk.modified == time("2026-11-30T02:18:55Z"))
        #expect(records[1].fields.notes.isEmpty)
        #expect(records[1].fields.annotations.map(\.text) == ["First draft in shared folder", "Ask Kim about figures"], "one to one, oldest first")
        #expect(records[1].fields.list == "Work.Q4" && records[1].fields.tags == ["urgent", "writing"])
        #expect(records[2].fields.list == Task.defaultList && records[2].fields.priority == .low)
        #expect(records[3].fields.due?.day == day("2027-01-15") && !records[3].fields.isDone)
        #expect(records[4].fields.scheduled?.day == day("2026-12-10"), "scheduled, in New York's day")
        #expect(records[5].fields.tags == ["x", "Ünïcode"] && records[5].created == time("2026-11-29T12:00:00Z"))
        let done = records[8]
        #expect(done.fields.isDone && done.fields.completed == time("2026-11-30T02:18:56Z") && done.fields.list == "Work")
    }

    /// A template goes back with its mask saying each instance written when Taskwarrior needs
    /// it — a place past its mask's end, or a series stopped here — and not otherwise (its own
    /// copy may have moved on): the places it had, changed; a later place, with `?` between
    /// (where Taskwarrior makes nothing); a mask it lacked, added; every other member as
    /// written. A body that is not an object is not written. An `imask` that is no place is
    /// no mark.
    @Test func aTemplatesMaskSaysWhatItsInstancesAreNow() {
        let body = #"{"uuid":"2a1966a6-5d3c-47ce-90bc-e919274c12bb","description":"Pay \"rent\"","mask":"--","recur":"monthly","status":"recurring","x":[1, {"a":2}]}"#
        let marks = Taskwarrior.SeriesMarks(places: [0: UInt8(ascii: "+"), 1: UInt8(ascii: "X"), 4: UInt8(ascii: "-")])
        #expect(Taskwarrior.template(body, marks: marks)
                == #"{"uuid":"2a1966a6-5d3c-47ce-90bc-e919274c12bb","description":"Pay \"rent\"","mask":"+X??-","recur":"monthly","status":"recurring","x":[1,{"a":2}]}"#)
        #expect(Taskwarrior.template(body, marks: Taskwarrior.SeriesMarks(places: [0: UInt8(ascii: "+"), 1: UInt8(ascii: "X")])) == nil,
                "within its mask, Taskwarrior's import marks the places itself")
        #expect(Taskwarrior.template(#"{"uuid":"u","status":"recurring"}"#, marks: Taskwarrior.SeriesMarks(places: [1: UInt8(ascii: "+")]))
                == #"{"uuid":"u","status":"recurring","mask":"?+"}"#)
        #expect(Taskwarrior.template(#"{"uuid":"u","mask":"é-","status":"recurring"}"#, marks: Taskwarrior.SeriesMarks(places: [3: UInt8(ascii: "-")]))
                == #"{"uuid":"u","mask":"??--","status":"recurring"}"#, "a mask is ASCII")
        let stopped = Taskwarrior.SeriesMarks(places: [0: UInt8(ascii: "-")], stoppedAt: TimestampText.parse("2026-12-07T10:00:00Z"))
        #expect(Taskwarrior.template(#"{"uuid":"u","mask":"-","status":"recurring"}"#, marks: stopped)
                == #"{"uuid":"u","mask":"-","status":"deleted","end":"20261207T100000Z"}"#, "a series stopped here goes back deleted")
        for bad in ["{not json", "", "[1,2", "{}"] { #expect(Taskwarrior.template(bad, marks: marks) == nil, "\(bad)") }
        for raw in ["1", "1.0", "\"1\"", "1e0"] { #expect(Taskwarrior.maskPlace(raw) == 1, "\(raw)") }
        for raw in ["-1", "1.5", "10000", "1e300", "\"x\"", "nan", "9223372036854775808", String(repeating: "9", count: 400)] {
            #expect(Taskwarrior.maskPlace(raw) == nil, "\(raw)")
        }
    }

    /// A template is kept by its uuid: one without a uuid, or with something else there, is
    /// refused by its number (nothing is imported).
    @Test func aTemplateWithoutAUUIDIsRefused() {
        #expect(throws: InterchangeError("record 1: a recurring template, and it has no uuid; Taskwarrior writes one for every task")) {
            try Taskwarrior.read(Array(#"[{"description":"T","status":"recurring"}]"#.utf8), localTime: newYork)
        }
        #expect(throws: InterchangeError("record 1: a recurring template, and 'bad' is not a uuid; Taskwarrior writes one for every task")) {
            try Taskwarrior.read(Array(#"[{"uuid":"bad","description":"T","status":"recurring"}]"#.utf8), localTime: newYork)
        }
    }

    /// Two tasks in one place: the one further on wins, so that a done or deleted place is
    /// never marked pending again; an instance whose rule this side cannot read (`12h`) is not
    /// a series stopped here.
    @Test func marksKeepTheFurthestAndAnUnreadRuleStopsNothing() {
        func instance(_ uuid: String, place: Int, done: Bool = false, recur: String = "weekly", repeating: Bool = true) -> Task {
            var task = Task(id: 1, uuid: uuid, title: "t", isDone: done, created: .unixEpoch, modified: .unixEpoch)
            task.repeat = repeating ? Taskwarrior.rule(recur) : nil
            task.series = repeating ? "s" : nil
            task.extras = #""imask":\#(place),"recur":"\#(recur)","parent":"s""#
            return task
        }
        var marks = Taskwarrior.Marks()
        Taskwarrior.mark(instance("a", place: 2, done: true), into: &marks)
        Taskwarrior.mark(instance("b", place: 2), into: &marks)
        Taskwarrior.mark(instance("c", place: 3, recur: "12h", repeating: false), into: &marks)
        #expect(marks["s"]?.places == [2: UInt8(ascii: "+"), 3: UInt8(ascii: "-")] && marks["s"]?.stoppedAt == nil, "\(marks)")
        Taskwarrior.mark(instance("d", place: 4, repeating: false), into: &marks)
        #expect(marks["s"]?.stoppedAt != nil, "a weekly rule removed here stops the series")
        var plain = Task(id: 2, uuid: "p", title: "plain", created: .unixEpoch, modified: .unixEpoch)
        plain.extras = #""estimate":"PT3H""#
        var none = Taskwarrior.Marks()
        Taskwarrior.mark(plain, into: &none)
        #expect(none.isEmpty)
    }

    @Test func writesWhatItReadsBackWithSecondsAndNonEmptyNoteLines() throws {
        let (text, _) = write(sampleTasks, as: .taskwarrior)
        let records = try Taskwarrior.read(Array(text.utf8), localTime: newYork).batch.records
        #expect(records.count == 3)
        for (record, task) in zip(records, sampleTasks) {
            #expect(record.uuid == task.uuid && record.fields.title == task.title && record.fields.isDone == task.isDone)
            #expect(record.fields.list == task.list && record.fields.due == task.due && record.fields.priority == task.priority && record.fields.tags == task.tags)
            #expect(record.created?.millisecondsSince1970 == task.created.millisecondsSince1970 / 1000 * 1000)
        }
        // Taskwarrior has annotations, not notes: the notes go as one annotation per non-empty
        // line (what a Taskwarrior user sees) and whole as `tasksnotes`, and come back as notes.
        #expect(text.contains(#""description":"first line""#) && text.contains(#""tasksnotes":"#))
        #expect(records[1].fields.notes == sampleTasks[1].notes && records[1].fields.annotations.isEmpty)
        #expect(text.contains(#""due":"20261203T050000Z""#))
        #expect(!text.contains("\"project\":\"Inbox\""))
    }

    @Test func readsOneObjectPerLineAndOlderTags() throws {
        let text = """
            {"description":"a","status":"waiting","tags":"x,y","uuid":"9243A76B-AD8C-44DA-824A-43BB75E01020"}
            {"description":"b","status":"pending","priority":"Z"}
            """
        let file = try Taskwarrior.read(Array(text.utf8), localTime: newYork)
        #expect(file.batch.records.map(\.fields.tags) == [["x", "y"], []])
        #expect(file.keptAside == ["priority 'Z': 1 task"])
    }

    @Test func badRecordsAreNamed() {
        let cases: [(String, String)] = [
            (#"[{"status":"pending"}]"#, "record 1: \"description\" is missing; every task needs one"),
            (#"[{"description":"a","status":"archived"}]"#,
             "record 1: \"status\" is 'archived'; Taskwarrior writes pending, completed, deleted, waiting or recurring"),
            (#"[{"description":"a","entry":"2026-11-30"}]"#,
             "record 1: \"entry\" is '2026-11-30', not a Taskwarrior time such as 20261130T021820Z"),
            (#"[{"description":"a","annotations":{}}]"#, "record 1: \"annotations\" should be an array"),
            ("Buy milk", "this is not JSON (it starts with 'B'); Taskwarrior's 'task export' writes a JSON array"),
        ]
        for (input, message) in cases {
            #expect(throws: InterchangeError(message), "\(input)") { try Taskwarrior.read(Array(input.utf8), localTime: newYork) }
        }
    }
}

@Suite struct TodoTxtTests {
    /// todo.txt and done.txt as todo.txt-cli 2.11 wrote them.
    @Test func readsRealTodoTxtCliFiles() throws {
        let todo = try TodoTxt.read(readBytes(fixturesFolder() + "/TaskInterchange/todotxt-2.11-todo.txt"), localTime: newYork)
        let records = todo.batch.records
        #expect(records.map(\.fields.title) == ["Buy milk", "Write report ✍️ 보고서", "Call mom", "Water plants", "Plain task without anything", "Fix bike"])
        #expect(todo.batch.unit == "line" && todo.batch.numbers == [1, 2, 3, 4, 5, 6])
        #expect(records[0].fields.priority == .high && records[0].fields.list == "Home" && records[0].fields.tags == ["store"] && records[0].fields.due?.day == day("2026-12-03"))
        #expect(records[0].created == newYork.midnight(day("2026-11-29")!))
        #expect(records[1].fields.list == "Work" && records[1].fields.tags == ["desk", "office"])
        #expect(records[2].fields.priority == .medium && records[2].fields.list == "Family")
        #expect(records[4].fields.list == Task.defaultList && records[4].fields.tags.isEmpty)
        #expect(records[5].fields.isDone && records[5].fields.completed == newYork.midnight(day("2026-11-29")!))
        let done = try TodoTxt.read(readBytes(fixturesFolder() + "/TaskInterchange/todotxt-2.11-done.txt"), localTime: newYork)
        #expect(done.batch.records.map(\.fields.title) == ["Old errand"] && done.batch.records[0].fields.isDone)
    }

    @Test func writesTheLinesItReads() throws {
        let (text, notKept) = write(sampleTasks, as: .todotxt)
        #expect(text == """
            (A) 2026-11-29 Buy milk +Home @errand due:2026-12-03
            2026-11-29 Write report ✍️ 보고서 "quoted" +Work.Q4 @urgent @writing
            x 2026-11-29 2026-11-28 Done thing pri:C

            """)
        #expect(notKept == ["notes: 1 task"])
        let again = try TodoTxt.read(Array(text.utf8), localTime: newYork)
        let tasks = again.batch.records.enumerated().map { index, record in
            record.task(over: nil, id: Int64(index + 1), uuid: record.uuid ?? "", bottom: 0, now: Timestamp(millisecondsSince1970: 0))
        }
        #expect(write(tasks, as: .todotxt).0 == text)
    }

    @Test func sameTitleSameUUIDSoImportsAreIdempotent() throws {
        let text = "Call mom\nCall mom\nx 2026-11-30 Call mom\n\n   \n"
        let records = try TodoTxt.read(Array(text.utf8), localTime: newYork).batch.records
        #expect(records.count == 3)
        #expect(Set(records.compactMap(\.uuid)).count == 3)
        #expect(try TodoTxt.read(Array(text.utf8), localTime: newYork).batch.records == records)
        #expect(records[0].uuid == TodoTxt.uuid(title: "Call mom", occurrence: 0))
        #expect(records[0].uuid.map(UUIDText.normalized) == records[0].uuid)
    }

    @Test func badLinesAreNamed() {
        let cases: [([UInt8], String)] = [
            (Array("ok\nPay due:soon\n".utf8), "line 2: 'due:soon' is not a due date; write due:YYYY-MM-DD"),
            ([0x61, 0x0A, 0xFF, 0x0A], "line 2 is not valid UTF-8"),
            ([0x61, 0x00, 0x0A], "line 1 holds a NUL byte"),
        ]
        for (input, message) in cases {
            #expect(throws: InterchangeError(message)) { try TodoTxt.read(input, localTime: newYork) }
        }
    }
}

/// Name-based uuids are stored in files (todo.txt imports, next occurrences) and on remotes
/// (sync change ids): the same name must give the same uuid in every version of `tasks`.
@Suite struct NameBasedUUIDTests {
    @Test func theUUIDsOfNamesNeverChange() {
        #expect(TodoTxt.uuid(title: "Call mom", occurrence: 0) == "1432908e-80a1-89a2-aef2-0028433caadd")
        #expect(TodoTxt.uuid(title: "우유 사기", occurrence: 3) == "611ebe00-7bda-8814-9838-bf67460c2765")
        #expect(UUIDText.derived(from: "series 2026-12-14") == "02b23194-75b7-87e9-8bab-364b3566b28c")
        #expect(UUIDText.derived(from: "") == "ecba3df2-c338-8c52-8ed2-971655ab84f5")
    }
}

/// A recurrence from another tool is a `RepeatRule` only when its count fits one (1–9999): a
/// larger one once overflowed the scaling of Taskwarrior's `q` (a trap, status 132).
@Suite struct ForeignRecurrenceTests {
    @Test func taskwarriorsRecurWithAHugeCountIsReportedNotKept() throws {
        let text = #"[{"description":"a","status":"pending","recur":"4000000000000000000q"},{"description":"b","status":"pending","recur":"2q"}]"#
        let file = try Taskwarrior.read(Array(text.utf8), localTime: newYork)
        #expect(file.batch.records.map(\.fields.repeat) == [nil, RepeatRule(kind: .every, count: 6, unit: .month)])
        #expect(file.keptAside == ["recurrence '4000000000000000000q': 1 task"])
    }

    @Test func todoTxtsRecWithAHugeCountIsABadLine() {
        #expect(TodoTxt.recurrence("+9999w") == RepeatRule(kind: .every, count: 9999, unit: .week))
        #expect(TodoTxt.recurrence("+99999999999999w") == nil)
        #expect(TodoTxt.recurrence("4611686018427387904d") == nil)
    }
}
