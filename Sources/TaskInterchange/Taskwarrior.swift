import TextFormats
import TaskModel

/// Taskwarrior's JSON (2.6 and 3.x `task export`, and what `task import` accepts).
///
/// In: `description` → title, `project` → list (none: Inbox), `tags`, `priority`, `entry` →
/// created, `modified`, `end` → completed, `annotations` → annotations (one to one, with their
/// times), `start` → start (active), `depends` → depends (2.x's string or 3.x's array), and
/// the dates `due`, `wait`, `scheduled`, `until`: a local midnight is that day, any other time
/// that moment. `pending` and `waiting` are pending, `completed` is done. A recurring instance
/// (`recur`, `parent`) is a task repeating on that schedule, its series the template's uuid;
/// Taskwarrior makes instances ahead of time, and each comes in (the series goes on through
/// them), a `deleted` one as a tombstone. A `recurring` template is no task here: it is kept as
/// written (`Taskwarrior+Templates.swift`) and goes back with its `mask` brought up to date.
/// Every other attribute — user-defined ones,
/// recurrence's bookkeeping, an odd priority — is kept as written in `Task.extras` (and named
/// on import). `id` and `urgency` are computed by Taskwarrior, not data.
///
/// Out: the same mapping back (a day as its local midnight, a moment as itself), the notes'
/// lines as more annotations (Taskwarrior has no notes), and every kept attribute verbatim —
/// so that `task import` of the export changes nothing there. A task repeating on a schedule
/// carries `recur`, and `parent` when it is an occurrence of a Taskwarrior series (one made
/// here becomes a template with instances there); one repeating after completion cannot be
/// said in Taskwarrior 2.6, and time spent has no place there: both are reported.
public enum Taskwarrior {
    /// `customFields`: the names declared as custom fields here, which are kept in `extras`
    /// as fields, not named as kept aside.
    public static func read(_ bytes: [UInt8], localTime zone: LocalTime, customFields: Set<String> = []) throws -> ImportedFile {
        let localTime = CachedLocalTime(zone)
        var reader = JSONReader(bytes)
        var records: [TaskRecord] = []
        var numbers: [Int] = []
        var templates: [String: KeptRecord] = [:]
        var notKept = NotKept()
        var keptAside = NotKept()
        try reader.forEachRecord(allowingLines: true, notJSONHint: "Taskwarrior's 'task export' writes a JSON array") { number, reader in
            let start = reader.index
            var isTemplate = false
            let record = try readRecord(&reader, number: number, localTime: localTime, customFields: customFields, notKept: &notKept,
                                        keptAside: &keptAside, isTemplate: &isTemplate)
            if isTemplate {
                // A series' template: no task here (its instances are), kept as written for the
                // way back; its uuid is what its instances' `parent` names.
                guard let uuid = record.uuid.flatMap(UUIDText.normalized) else {
                    let found = record.uuid.map { "'\($0.prefix(40))' is not a uuid" } ?? "it has no uuid"
                    throw InterchangeError("record \(number): a recurring template, and \(found); Taskwarrior writes one for every task")
                }
                templates[uuid] = KeptRecord(format: "taskwarrior", uuid: uuid, body: String(decoding: reader.bytes[start..<reader.index], as: UTF8.self))
                keptAside.add("recurring templates")
                return
            }
            records.append(record)
            numbers.append(number)
        }
        // Every instance comes in, the ones Taskwarrior made ahead of time too: completing one
        // here makes no next occurrence while the series has a later one pending
        // (`SQLiteTaskService.makeNextOccurrence`), so the series goes on through them.
        return ImportedFile(batch: TaskImportBatch(records: records, numbers: numbers, kept: templates.values.sorted { $0.uuid < $1.uuid }),
                            notKept: notKept.lines, keptAside: keptAside.lines)
    }

    /// Taskwarrior's `recur` values: `daily`, `weekly`, `monthly`, `yearly`, `weekdays`,
    /// `biweekly`, `quarterly`, `semiannual`, `annual`, or a count with `d`, `w`/`wk`,
    /// `mo`/`months`, `y`/`yr`, `q`. Minutes and hours have no place here.
    static func rule(_ recur: String) -> RepeatRule? {
        let text = recur.lowercased()
        if let (count, unit) = namedRecurrences[text] { return RepeatRule(kind: .every, count: count, unit: unit) }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        // More than four digits is more than a rule holds (and could overflow the scaling).
        guard digits.count <= 4, let count = digits.isEmpty ? 1 : Int(digits),
              let (scale, unit) = recurrenceUnits[String(text.dropFirst(digits.count))] else { return nil }
        return RepeatRule(kind: .every, count: count * scale, unit: unit)
    }

    private static let namedRecurrences: [String: (Int, RepeatRule.Unit)] = [
        "daily": (1, .day), "day": (1, .day), "weekly": (1, .week), "week": (1, .week), "biweekly": (2, .week),
        "fortnight": (2, .week), "monthly": (1, .month), "month": (1, .month), "bimonthly": (2, .month),
        "quarterly": (3, .month), "semiannual": (6, .month), "yearly": (1, .year), "annual": (1, .year),
        "year": (1, .year), "biannual": (2, .year), "weekdays": (1, .weekday),
    ]

    private static let recurrenceUnits: [String: (Int, RepeatRule.Unit)] = [
        "d": (1, .day), "day": (1, .day), "days": (1, .day), "w": (1, .week), "wk": (1, .week), "wks": (1, .week),
        "week": (1, .week), "weeks": (1, .week), "mo": (1, .month), "mth": (1, .month), "mths": (1, .month),
        "month": (1, .month), "months": (1, .month), "q": (3, .month), "qtr": (3, .month), "quarters": (3, .month),
        "y": (1, .year), "yr": (1, .year), "yrs": (1, .year), "year": (1, .year), "years": (1, .year),
    ]

    /// A rule as Taskwarrior writes it; nil for one it cannot hold (after completion).
    static func recur(_ rule: RepeatRule) -> String? {
        guard rule.kind == .every else { return nil }
        switch (rule.unit, rule.count) {
        case (.day, 1): return "daily"
        case (.week, 1): return "weekly"
        case (.month, 1): return "monthly"
        case (.year, 1): return "yearly"
        case (.weekday, 1): return "weekdays"
        case (.weekday, _): return nil
        case (.day, let count): return "\(count)d"
        case (.week, let count): return "\(count)w"
        case (.month, let count): return "\(count)mo"
        case (.year, let count): return "\(count)y"
        }
    }


    private static func readRecord(_ reader: inout JSONReader, number: Int, localTime: CachedLocalTime, customFields: Set<String>,
                                   notKept: inout NotKept, keptAside: inout NotKept, isTemplate: inout Bool) throws -> TaskRecord {
        var record = TaskRecord(title: "")
        var status = "pending"
        var hasDescription = false
        var end: Timestamp?
        var annotations: [(Timestamp, String)] = []
        var notesText: String?
        // Every attribute as Taskwarrior wrote it, where what it maps to here could not give
        // it back exactly (a time of day, an annotation's time) or it maps to nothing: the
        // export writes it back (`Task.extras`).
        var kept: [(key: String, value: String)] = []
        var aside: [String] = []
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(isFirst: &isFirst) {
            func time(_ reader: inout JSONReader) throws -> Timestamp {
                let text = try reader.string()
                guard let time = TimestampText.parse(text) else {
                    throw InterchangeError("record \(number): \"\(key)\" is '\(text)', not a Taskwarrior time such as 20261130T021820Z")
                }
                return time
            }
            /// A date attribute: a local midnight is that day; any other time is that moment,
            /// read on the local clock (exact to the second either way).
            func day(_ reader: inout JSONReader) throws -> TaskDate {
                let time = try time(&reader)
                let day = localTime.day(time)
                return localTime.midnight(day) == time ? TaskDate(day) : TaskDate(time, in: localTime.zone)
            }
            switch key {
            case "uuid": record.uuid = try reader.member(key, record: number) { try $0.string() }
            case "description":
                record.fields.title = try reader.member(key, record: number) { try $0.string() }
                hasDescription = true
            case "status": status = try reader.member(key, record: number) { try $0.string() }
            case "entry": record.created = try reader.member(key, record: number, time)
            case "modified": record.modified = try reader.member(key, record: number, time)
            case "end": end = try reader.member(key, record: number, time)
            case "due": record.fields.due = try reader.member(key, record: number, day)
            case "project": record.fields.list = try reader.member(key, record: number) { try $0.string() }
            case "tags":
                // 2.x and 3.x write an array; some older files hold one comma-separated string.
                record.fields.tags = try reader.member(key, record: number) { reader in
                    reader.peek() == UInt8(ascii: "\"")
                        ? try reader.string().split(separator: ",").map(String.init) : try reader.strings()
                }
            case "priority":
                let text = try reader.member(key, record: number) { try $0.string() }
                if let priority = Priority(rawValue: text) {
                    record.fields.priority = priority
                } else if !text.isEmpty {
                    kept.append((key, Extras.quoted(text)))
                    aside.append("priority '\(text)'")
                }
            case "annotations":
                annotations = try reader.member(key, record: number) { try readAnnotations(&$0, time: time) }
            case "tasksnotes": notesText = try reader.member(key, record: number) { try $0.string() }
            case "tasksparent": record.fields.parent = try reader.member(key, record: number) { try $0.string() }
            case "tasksreminders":
                // Our reminders, which went out as this attribute (Taskwarrior has none): a
                // word that is no reminder is kept aside, never lost.
                let text = try reader.member(key, record: number) { try $0.string() }
                let words = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
                let read = words.compactMap { RemindersText.decode(" \($0) ").first }
                if read.count == words.count {
                    record.fields.reminders = Array(Set(read)).sorted { $0.description < $1.description }
                } else {
                    kept.append((key, Extras.quoted(text)))
                    aside.append("tasksreminders '\(text.prefix(40))'")
                }
            case "start": record.fields.start = try reader.member(key, record: number, time)
            case "depends":
                // 2.x writes one comma-separated string, 3.x an array.
                let uuids = try reader.member(key, record: number) { reader in
                    reader.peek() == UInt8(ascii: "\"") ? try reader.string().split(separator: ",").map(String.init) : try reader.strings()
                }
                record.fields.depends = TagsText.normalized(uuids)
            case "id", "urgency":
                try reader.skipValue()
            case "rtype", "mask", "imask":
                kept.append((key, try reader.member(key, record: number) { try $0.rawValue() }))
            case "recur":
                let text = try reader.member(key, record: number) { try $0.string() }
                kept.append((key, Extras.quoted(text)))
                if let rule = rule(text) { record.fields.repeat = rule } else { aside.append("recurrence '\(text)'") }
            case "parent":
                // The series, and kept as written: an instance whose series is stopped here
                // (no series then) still goes back as the instance it is (see `append`).
                let parent = try reader.member(key, record: number) { try $0.string() }
                record.fields.series = parent
                kept.append((key, Extras.quoted(parent)))
            case "wait": record.fields.wait = try reader.member(key, record: number, day)
            case "scheduled": record.fields.scheduled = try reader.member(key, record: number, day)
            case "until": record.fields.until = try reader.member(key, record: number, day)
            default:
                kept.append((key, try reader.member(key, record: number) { try $0.rawValue() }))
                if !customFields.contains(key) { aside.append(key) }
            }
        }
        if !hasDescription { throw InterchangeError("record \(number): \"description\" is missing; every task needs one") }
        switch status {
        case "pending": break
        case "waiting": kept.append(("status", Extras.quoted(status)))
        case "completed":
            record.fields.isDone = true
            record.fields.completed = end ?? record.modified
        case "deleted":
            // Kept as a tombstone, deleted when it was (its end; else its last change).
            record.fields.isDeleted = true
            if let end { record.modified = end }
        case "recurring":
            isTemplate = true
            return record
        default:
            throw InterchangeError("record \(number): \"status\" is '\(status)'; Taskwarrior writes pending, completed, deleted, waiting or recurring")
        }
        for what in Set(aside).sorted() { keptAside.add(what) }
        record.fields.extras = Extras.text(kept)
        // Oldest first, as Taskwarrior lists them.
        var sorted = annotations.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            .map { Annotation(entry: $0.element.0, text: $0.element.1) }
        if let notesText {
            // Our notes, which went out as the last annotations and `tasksnotes`: the notes
            // again, and those annotations theirs while they still say the same.
            record.fields.notes = notesText
            let lines = notesText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            if sorted.suffix(lines.count).map(\.text) == lines { sorted.removeLast(lines.count) }
        }
        record.fields.annotations = sorted
        return record
    }

    /// An `annotations` array: each one's time (read by `time`) and text.
    private static func readAnnotations(_ reader: inout JSONReader, time: (inout JSONReader) throws -> Timestamp) throws -> [(Timestamp, String)] {
        try reader.beginArray()
        var found: [(Timestamp, String)] = []
        var isFirst = true
        while try reader.nextElement(isFirst: &isFirst) {
            var entry = Timestamp.unixEpoch, text = ""
            try reader.beginObject()
            var isFirstMember = true
            while let member = try reader.nextKey(isFirst: &isFirstMember) {
                switch member {
                case "entry": entry = try time(&reader)
                case "description": text = try reader.string()
                default: try reader.skipValue()
                }
            }
            found.append((entry, text))
        }
        return found
    }

    /// Taskwarrior's bookkeeping of an instance of a series, written only beside its `recur`.
    private static let recurrenceKeys: Set<String> = ["imask", "mask", "rtype"]

    /// The attributes `Taskwarrior.append` writes from a task's fields; a kept one of these
    /// is written back only while the field still says the same.
    private static let mapped: Set<String> = ["uuid", "description", "status", "entry", "modified", "end", "due", "project",
                                              "priority", "recur", "parent", "wait", "scheduled", "until", "tags", "annotations",
                                              "start", "depends", "tasksnotes", "tasksreminders", "tasksparent"]

    /// The task as a Taskwarrior object, straight into `bytes`.
    static func append(_ task: Task, localTime: CachedLocalTime, to bytes: inout [UInt8], notKept: inout NotKept) {
        func key(_ name: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        func string(_ text: String) { JSONValue.appendString(text, to: &bytes) }
        let extras = Extras.pairs(task.extras)
        func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }
        /// A date: a moment as it is, a day as its local midnight (as Taskwarrior writes a day).
        func date(_ name: String, _ date: TaskDate) {
            key(","); string(name); key(":")
            string(TimestampText.taskwarrior(date.time ?? localTime.midnight(date.day)))
        }
        key("{\"uuid\":"); string(task.uuid)
        key(",\"description\":"); string(task.title)
        if task.isDeleted {
            key(",\"status\":\"deleted\"")
        } else if !task.isDone && task.wait != nil && Extras.value("status", in: extras) == Extras.quoted("waiting") {
            key(",\"status\":\"waiting\"")
        } else {
            key(task.isDone ? ",\"status\":\"completed\"" : ",\"status\":\"pending\"")
        }
        key(",\"entry\":"); string(TimestampText.taskwarrior(task.created))
        key(",\"modified\":"); string(TimestampText.taskwarrior(task.modified))
        if task.isDeleted {
            // A tombstone's `modified` is the moment it was deleted: Taskwarrior's end of a deleted task.
            key(",\"end\":"); string(TimestampText.taskwarrior(task.modified))
        } else if task.isDone {
            key(",\"end\":"); string(TimestampText.taskwarrior(task.completed ?? task.modified))
        }
        if let due = task.due { date("due", due) }
        if task.list != Task.defaultList {
            key(",\"project\":"); string(task.list)
        }
        if let priority = task.priority {
            key(",\"priority\":"); string(priority.rawValue)
        } else if let kept = Extras.value("priority", in: extras) {
            key(",\"priority\":"); raw(kept)
        }
        // Recurrence: a pending task repeating on a calendar, or an occurrence of a Taskwarrior
        // series done or not (its `parent` with it: an instance without the two is what
        // Taskwarrior's import refuses). Without `recur`, its bookkeeping is not written either.
        let ofSeries = task.series.map { $0 != task.uuid } ?? false
        var writesRecur = false
        if let rule = task.repeat, !task.isDone || ofSeries {
            if let recur = recur(rule) {
                writesRecur = true
                key(",\"recur\":")
                if let kept = Extras.value("recur", in: extras), let text = Extras.string(kept), Self.rule(text) == rule { raw(kept) } else { string(recur) }
                if let series = task.series, series != task.uuid { key(",\"parent\":"); string(series) }
                if task.due == nil { key(",\"due\":"); string(TimestampText.taskwarrior(localTime.midnight(task.anchor ?? .unixEpoch))) }
            } else {
                notKept.add("repeating \(rule.kind == .after ? "after completion" : "every few weekdays") (Taskwarrior repeats on a calendar)")
            }
        } else if task.repeat == nil, let recur = Extras.value("recur", in: extras), let parent = Extras.value("parent", in: extras) {
            // An instance of a Taskwarrior series stopped here: the instance it is, as written
            // (one without `recur` and `parent` is what `task import` aborts on), its template
            // going back deleted (`Taskwarrior.mark`), which is how Taskwarrior stops a series.
            writesRecur = true
            key(",\"recur\":"); raw(recur)
            key(",\"parent\":"); raw(parent)
        }
        if let wait = task.wait { date("wait", wait) }
        if let scheduled = task.scheduled { date("scheduled", scheduled) }
        if let until = task.until { date("until", until) }
        if !task.tags.isEmpty {
            key(",\"tags\":[")
            for (index, tag) in task.tags.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(tag)
            }
            key("]")
        }
        if let start = task.start { key(",\"start\":"); string(TimestampText.taskwarrior(start)) }
        if !task.depends.isEmpty { key(",\"depends\":"); string(task.depends.joined(separator: ",")) }
        if task.spent > 0 { notKept.add("time spent (Taskwarrior keeps none; Timewarrior does)") }
        // The annotations, then the notes' lines as more (Taskwarrior has no notes), a second
        // apart after the task's creation: Taskwarrior keys annotations by their time.
        let lines = task.notes.split(separator: "\n", omittingEmptySubsequences: true)
        if !task.annotations.isEmpty || !lines.isEmpty {
            key(",\"annotations\":[")
            var first = true
            func annotation(_ entry: Timestamp, _ text: String) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                key("{\"entry\":"); string(TimestampText.taskwarrior(entry))
                key(",\"description\":"); string(text)
                key("}")
            }
            for kept in task.annotations { annotation(kept.entry, kept.text) }
            // After the annotations, so that they stay the last ones (what the way back looks for).
            let after = (task.annotations.map(\.entry.millisecondsSince1970).max() ?? task.created.millisecondsSince1970 - 1000) / 1000 * 1000 + 1000
            for (index, line) in lines.enumerated() {
                annotation(Timestamp(millisecondsSince1970: max(after, task.created.millisecondsSince1970) + Int64(index) * 1000), String(line))
            }
            key("]")
        }
        // The notes whole (blank lines and all), kept by Taskwarrior as an attribute it does
        // not know: what the way back makes notes again.
        if !task.notes.isEmpty { key(",\"tasksnotes\":"); string(task.notes) }
        // The reminders as one attribute (a UDA to Taskwarrior: `uda.tasksreminders.type=string`).
        // The task it is a subtask of (Taskwarrior's `parent` is a series' template: another attribute).
        if let parent = task.parent { key(",\"tasksparent\":"); string(parent) }
        if !task.reminders.isEmpty { key(",\"tasksreminders\":"); string(task.reminders.map(\.description).joined(separator: ",")) }
        for (name, value) in extras where !mapped.contains(name) && (writesRecur || !recurrenceKeys.contains(name)) {
            key(","); string(name); key(":"); raw(value)
        }
        key("}")
    }
}
