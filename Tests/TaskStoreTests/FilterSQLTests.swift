import QueryLanguage
import SQLiteDB
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// The filter grammar evaluated by SQLite equals `TaskFilter.matches` on the same tasks.
@Suite("Filters: SQL and Swift agree")
struct FilterSQLTests {
    static let today = CalendarDay(year: 2026, month: 12, day: 2) ?? .unixEpoch
    static let noon = Timestamp(millisecondsSince1970: Int64(today.daysSince1970) * 86_400_000 + 12 * 3_600_000)
    static let custom: [String: CustomField] = [
        "est": CustomField(name: "est", kind: .duration), "size": CustomField(name: "size", kind: .string, values: ["S", "M", "L"]),
        "when": CustomField(name: "when", kind: .date), "points": CustomField(name: "points", kind: .number),
    ]
    static var settings: FilterSettings {
        FilterSettings(dates: DateContext(now: noon, today: today, zone: .fixed(offsetSeconds: 0)), customFields: custom)
    }

    /// Tasks with every field the filter reads, varied.
    static func tasks(_ count: Int, _ random: inout SplitMix) -> [Task] {
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func date() -> TaskDate? {
            let day = today.adding(days: Int(random.next() % 15) - 7) ?? today
            return pick([nil, nil, TaskDate(day), TaskDate(day),
                         TaskDate(day: day, clock: Int(random.next() % 86_400), offsetSeconds: pick([0, 3600, -18_000]))])
        }
        var made: [Task] = []
        for index in 1...count {
            var task = Task(id: Int64(index), uuid: "", title: pick(["Buy milk", "bake bread", "Call mum", "Ärger im Büro", "σίσυφος task", "Pay bills", "mi"]),
                            notes: pick(["", "", "milk notes", "MILK", "bread"]), list: pick(["Work", "Work.Q4", "Home", "Inbox", "Workshop"]),
                            created: Timestamp(millisecondsSince1970: noon.millisecondsSince1970 - Int64(random.next() % 10) * 86_400_000),
                            modified: Timestamp(millisecondsSince1970: noon.millisecondsSince1970 - Int64(random.next() % 3) * 86_400_000))
            task.tags = ["a", "b", "c"].filter { _ in random.next() % 3 == 0 }
            task.priority = pick([nil, .high, .medium, .low])
            task.due = date()
            task.wait = date()
            task.scheduled = date()
            task.until = pick([nil, nil, date()])
            task.isDone = random.next() % 4 == 0
            task.completed = task.isDone ? Timestamp(millisecondsSince1970: noon.millisecondsSince1970 - Int64(random.next() % 5) * 86_400_000) : nil
            task.start = random.next() % 5 == 0 ? noon : nil
            task.repeat = random.next() % 6 == 0 ? (try? FieldRules.repeatRule("every 1w")) ?? nil : nil
            task.annotations = random.next() % 4 == 0 ? [Annotation(entry: noon, text: "note")] : []
            var extras: [String] = []
            if random.next() % 2 == 0 { extras.append("\"est\":\"" + pick(["PT1H", "PT30M", "PT2H", "P1D"]) + "\"") }
            if random.next() % 2 == 0 { extras.append("\"size\":\"" + pick(["S", "M", "L"]) + "\"") }
            if random.next() % 2 == 0 { extras.append("\"when\":\"" + pick(["20261201T000000Z", "20261202T120000Z", "20261203T000000Z"]) + "\"") }
            if random.next() % 2 == 0 { extras.append("\"points\":" + pick(["1", "3", "5.5"])) }
            // Members no custom field declares: Taskwarrior's own (kept) and an orphan.
            if random.next() % 5 == 0 { extras.append(pick(["\"rtype\":\"periodic\"", "\"colour\":\"red\""])) }
            task.series = random.next() % 7 == 0 ? "0000000a-0000-7000-8000-000000000001" : nil
            task.extras = extras.joined(separator: ",")
            made.append(task)
        }
        return made
    }

    /// The tasks written into a new store, every column as given; returns them as stored.
    static func store(_ tasks: [Task], _ folder: TemporaryFolder) throws -> (SQLiteTaskService, [Task]) {
        let service = try makeService(folder)
        let created = try service.createNow(tasks.map { TaskDraft(fields: Task(unsaved: $0.title, notes: $0.notes, list: $0.list, tags: [])) })
        var stored: [Task] = []
        for (index, var task) in tasks.enumerated() {
            task.id = created[index].id
            task.uuid = created[index].uuid
            task.position = created[index].position
            stored.append(task)
        }
        // Dependencies on other tasks of the set, some on done ones.
        var random = SplitMix(seed: 99)
        for index in stored.indices where random.next() % 4 == 0 {
            stored[index].depends = [stored[Int(random.next() % UInt64(stored.count))].uuid].filter { $0 != stored[index].uuid }
        }
        for task in stored { try service.overwrite(task) }
        return (service, try service.fetchNow(query(nil)))
    }

    static func query(_ filter: TaskFilter?) -> TaskQuery {
        TaskQuery.every(filter, today: today, now: noon, zone: .fixed(offsetSeconds: 0))
    }

    static let words = handWords + tableWords

    /// Words of every shape, written by hand.
    static let handWords: [String] = [
        "+a", "-a", "+b", "-c", "milk", "mi", "bread", "büro", "ΣΊΣΥΦΟΣ", "/^b.*d$/", "/MILK/", "list:Work", "list.is:Work", "list.not:Home",
        "project:Home", "priority:H", "priority:", "priority.any:", "priority.above:L", "priority.below:M", "priority.not:M", "priority.by:M",
        "due:today", "due.before:eow", "due.after:tomorrow", "due.by:fri", "due:", "due.any:", "due.not:today", "due.before:2026-12-02T12:00",
        "due.after:2026-12-02T09:30", "wait.after:today", "wait:", "scheduled.before:today", "scheduled.by:now", "until:", "until.before:today",
        "completed.after:2026-11-29", "completed:", "created.before:2026-11-29", "created:today", "modified:today", "modified.after:yesterday",
        "status:pending", "status:done", "status:waiting", "status:expired", "status.not:done", "+OVERDUE", "+TODAY", "+TOMORROW", "+WEEK",
        "+MONTH", "+ACTIVE", "+BLOCKED", "+BLOCKING", "+READY", "+WAITING", "+REPEATING", "+ANNOTATED", "+TAGGED", "+PENDING", "+DONE",
        "-TAGGED", "title.startswith:bu", "title.endswith:k", "title.contains:ll", "1-5", "3", "2,7-9", "est.after:1h", "est.by:1h", "est:",
        "est.any:", "size:M", "size.not:M", "size.contains:m", "size.startswith:s", "when.before:2026-12-02", "when:2026-12-02", "when.after:today",
        "points.after:2", "points:5.5", "points:", "tags:", "tags.hasnt:b",
        "+UNBLOCKED", "-UNBLOCKED", "+CHILD", "+INSTANCE", "+LATEST", "-LATEST", "+DUE", "+DUETODAY", "+YESTERDAY", "+QUARTER", "+YEAR",
        "+SCHEDULED", "+UNTIL", "+PROJECT", "-PROJECT", "+PRIORITY", "+UDA", "-UDA", "+ORPHAN", "-ORPHAN", "+TEMPLATE", "+PARENT",
    ]

    /// Every comparison of every field the vocabulary filters on (the custom fields above
    /// included), with a value of its type: a new entry is compared without a word here.
    static let tableWords: [String] = {
        var words: [String] = []
        for field in settings.vocabulary.fields(.filter) {
            words.append(field.name + ":" + field.example(for: field.defaultModifier))
            for modifier in field.type.modifiers { words.append(field.name + "." + modifier + ":" + field.example(for: modifier)) }
        }
        return words
    }()

    /// A random expression of words: terms, `not`, `and`, `or`, `xor`, parentheses.
    static func expression(_ random: inout SplitMix, depth: Int = 0) -> [String] {
        let roll = random.next() % 10
        if depth > 2 || roll < 4 { return [words[Int(random.next() % UInt64(words.count))]] }
        if roll < 5 { return ["not"] + expression(&random, depth: depth + 1) }
        let left = expression(&random, depth: depth + 1), right = expression(&random, depth: depth + 1)
        let op = ["and", "or", "xor", ""][Int(random.next() % 4)]
        return ["("] + left + (op.isEmpty ? [] : [op]) + right + [")"]
    }

    @Test func randomFiltersSelectTheSameRowsInSQLAndInSwift() throws {
        let folder = TemporaryFolder()
        var random = SplitMix(seed: 2026)
        let (service, all) = try Self.store(Self.tasks(160, &random), folder)
        #expect(all.count == 160)
        let world = FilterWorld.of(all)
        let parser = FilterParser(settings: Self.settings)
        var nonEmpty = 0, notAll = 0
        for round in 0..<400 {
            let words = Self.expression(&random)
            let filter = try #require(try parser.parse(words).filter, "\(words)")
            let query = Self.query(filter)
            let sql = try service.fetchNow(query).map(\.id)
            let swift = all.filter { query.matches($0, world: world) }.map(\.id)
            #expect(sql == swift, "round \(round): \(words.joined(separator: " "))\n\(filter.explained().joined(separator: "\n"))")
            if !sql.isEmpty { nonEmpty += 1 }
            if sql.count < all.count { notAll += 1 }
        }
        // The filters chose something, and not everything: the comparison compared something.
        #expect(nonEmpty > 200 && notAll > 200)
        // Every single word on its own, too.
        for word in Self.words {
            let query = Self.query(try parser.parse([word]).filter)
            #expect(try service.fetchNow(query).map(\.id) == all.filter { query.matches($0, world: world) }.map(\.id), "\(word)")
        }
    }

    /// A fixed set: what each form selects, by title.
    @Test func eachFormSelectsTheRowsItNames() throws {
        let folder = TemporaryFolder()
        let today = Self.today
        func task(_ title: String, list: String = "Inbox", tags: [String] = [], priority: Priority? = nil, due: String? = nil,
                  done: Bool = false, wait: String? = nil, extras: String = "") -> Task {
            var task = Task(id: 0, uuid: "", title: title, list: list, isDone: done, priority: priority, tags: tags,
                            created: Self.noon, modified: Self.noon)
            task.due = due.flatMap { TaskDate($0) }
            task.wait = wait.flatMap { TaskDate($0) }
            task.completed = done ? Self.noon : nil
            task.extras = extras
            return task
        }
        let (service, _) = try Self.store([
            task("Pay bills", tags: ["bills"], priority: .high, due: "2026-11-30"),
            task("Buy milk", list: "Home", tags: ["errand"], due: "2026-12-04"),
            task("Buy oat milk", list: "Home.Kitchen", tags: ["errand", "bills"], priority: .medium, due: "2026-12-02T15:00:00+00:00"),
            task("Write report", list: "Work", priority: .low, due: "2026-12-06", extras: "\"est\":\"PT2H\""),
            task("Ship it", list: "Work", done: true),
            task("Later", list: "Workshop", wait: "2026-12-10"),
        ], folder)
        func titles(_ text: String, pendingOnly: Bool = true) throws -> [String] {
            let parsed = try FilterParser(settings: Self.settings).parse(try FilterParser.words(of: text))
            var query = Self.query(parsed.filter)
            if pendingOnly && parsed.filter?.choosesStatus != true {
                query.status = .pending
                query.waiting = .hidden
                query.expired = .hidden
            }
            _ = today
            return try service.fetchNow(query).map(\.title)
        }
        #expect(try titles("+bills") == ["Pay bills", "Buy oat milk"])
        #expect(try titles("-bills") == ["Buy milk", "Write report"])
        #expect(try titles("list:Home") == ["Buy milk", "Buy oat milk"], "Home and Home.*")
        #expect(try titles("list.is:Home") == ["Buy milk"])
        #expect(try titles("project:Work") == ["Write report"], "not Workshop")
        #expect(try titles("milk Buy") == ["Buy milk", "Buy oat milk"], "words are ANDed, in any order")
        #expect(try titles("\"oat milk\"") == ["Buy oat milk"])
        #expect(try titles("priority:H") == ["Pay bills"])
        #expect(try titles("priority:") == ["Buy milk"])
        #expect(try titles("priority.above:L") == ["Pay bills", "Buy oat milk"])
        #expect(try titles("priority.not:H") == ["Buy milk", "Buy oat milk", "Write report"])
        #expect(try titles("due:today") == ["Buy oat milk"])
        #expect(try titles("due.before:eow") == ["Pay bills", "Buy milk", "Buy oat milk"], "eow is Sunday 2026-12-06")
        #expect(try titles("due.by:eow") == ["Pay bills", "Buy milk", "Buy oat milk", "Write report"])
        #expect(try titles("due.after:today") == ["Buy milk", "Write report"])
        #expect(try titles("+OVERDUE") == ["Pay bills"])
        #expect(try titles("+TODAY") == ["Buy oat milk"])
        #expect(try titles("+WEEK") == ["Pay bills", "Buy milk", "Buy oat milk", "Write report"], "Monday 2026-11-30 through Sunday")
        #expect(try titles("+bills or +errand due.after:today") == ["Pay bills", "Buy milk", "Buy oat milk"], "and binds tighter than or")
        #expect(try titles("(+bills or +errand) due.after:today") == ["Buy milk"])
        #expect(try titles("+bills xor +errand") == ["Pay bills", "Buy milk"])
        #expect(try titles("not +errand") == ["Pay bills", "Write report"])
        #expect(try titles("status:done") == ["Ship it"])
        #expect(try titles("status:waiting") == ["Later"])
        #expect(try titles("+WAITING or +DONE") == ["Ship it", "Later"])
        #expect(try titles("title.startswith:buy") == ["Buy milk", "Buy oat milk"])
        #expect(try titles("est.after:1h") == ["Write report"])
        #expect(try titles("1-2,4") == ["Pay bills", "Buy milk", "Write report"])
        #expect(try titles("5") == ["Ship it"], "an id names a task, done or not")
        #expect(try titles("'/^buy .*milk$/'") == ["Buy milk", "Buy oat milk"], "a quoted pattern keeps its space")
    }
}
