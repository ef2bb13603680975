import TextFormats
import TaskModel

/// Taskwarrior's JSON (2.6 and 3.x `task export`, and what `task import` accepts).
///
/// In: `description` → title, `project` → list (none: Inbox), `tags`, `priority`, `due`
/// (a UTC time meant as a local day), `entry` → created, `modified`, `end` → completed, and
/// `annotations` → notes, one line each, `wait` → wait (a local day). `pending` and `waiting`
/// are pending, `completed` is done. A recurring instance (`recur`, `parent`) is a task
/// repeating on that schedule, its series the template's uuid; Taskwarrior makes instances
/// ahead of time, and only the first pending one of a series is kept (one pending occurrence
/// at a time), the others reported as skipped. A `deleted` task and a `recurring` template
/// are skipped; every other attribute — `scheduled`, `until`, `start`, `depends`,
/// user-defined ones — is reported as not kept. `id` and `urgency` are computed by
/// Taskwarrior, not data.
///
/// Out: the same mapping back; notes become one annotation per non-empty line; a task
/// repeating on a schedule carries `recur` (Taskwarrior makes it a template with instances);
/// one repeating after completion cannot be said in Taskwarrior 2.6 and is reported.
public enum Taskwarrior {
    public static func read(_ bytes: [UInt8], localTime zone: LocalTime) throws -> ImportedFile {
        let localTime = CachedLocalTime(zone)
        var reader = JSONReader(bytes)
        var records: [TaskRecord] = []
        var numbers: [Int] = []
        var notKept = NotKept()
        var skipped = NotKept()
        try reader.forEachRecord(allowingLines: true, notJSONHint: "Taskwarrior's 'task export' writes a JSON array") { number, reader in
            guard let record = try readRecord(&reader, number: number, localTime: localTime, notKept: &notKept, skipped: &skipped) else { return }
            records.append(record)
            numbers.append(number)
        }
        // One pending occurrence per series: the first due; Taskwarrior's later ones are skipped.
        var firstOfSeries: [String: Int] = [:]
        var keep = [Bool](repeating: true, count: records.count)
        for (index, record) in records.enumerated() where record.fields.repeat != nil && !record.fields.isDone {
            guard let series = record.fields.series else { continue }
            if let other = firstOfSeries[series] {
                let earlier = (records[index].fields.due ?? .unixEpoch) < (records[other].fields.due ?? .unixEpoch)
                keep[earlier ? other : index] = false
                if earlier { firstOfSeries[series] = index }
                skipped.add("occurrences Taskwarrior made ahead of time")
            } else {
                firstOfSeries[series] = index
            }
        }
        let kept = records.indices.filter { keep[$0] }
        return ImportedFile(batch: TaskImportBatch(records: kept.map { records[$0] }, numbers: kept.map { numbers[$0] }),
                            notKept: notKept.lines, skipped: skipped.lines)
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

    /// Attributes of recurrence, reported together.
    private static let recurrence: Set<String> = ["rtype", "mask", "imask"]

    private static func readRecord(_ reader: inout JSONReader, number: Int, localTime: CachedLocalTime,
                                   notKept: inout NotKept, skipped: inout NotKept) throws -> TaskRecord? {
        var record = TaskRecord(title: "")
        var status = "pending"
        var hasDescription = false
        var end: Timestamp?
        var annotations: [(Timestamp, String)] = []
        var unkept: [String] = []
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
            switch key {
            case "uuid": record.uuid = try reader.member(key, record: number) { try $0.string() }
            case "description":
                record.fields.title = try reader.member(key, record: number) { try $0.string() }
                hasDescription = true
            case "status": status = try reader.member(key, record: number) { try $0.string() }
            case "entry": record.created = try reader.member(key, record: number, time)
            case "modified": record.modified = try reader.member(key, record: number, time)
            case "end": end = try reader.member(key, record: number, time)
            case "due": record.fields.due = localTime.day(try reader.member(key, record: number, time))
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
                    unkept.append("priority '\(text)'")
                }
            case "annotations":
                annotations = try reader.member(key, record: number) { reader in
                    try reader.beginArray()
                    var found: [(Timestamp, String)] = []
                    var isFirstAnnotation = true
                    while try reader.nextElement(isFirst: &isFirstAnnotation) {
                        var entry = Timestamp(millisecondsSince1970: 0)
                        var text = ""
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
            case "id", "urgency", "rtype", "mask", "imask":
                try reader.skipValue()
            case "recur":
                let text = try reader.member(key, record: number) { try $0.string() }
                if let rule = rule(text) { record.fields.repeat = rule } else { unkept.append("recurrence '\(text)'") }
            case "parent": record.fields.series = try reader.member(key, record: number) { try $0.string() }
            case "wait": record.fields.wait = localTime.day(try reader.member(key, record: number, time))
            case "scheduled": record.fields.scheduled = localTime.day(try reader.member(key, record: number, time))
            case "until": record.fields.until = localTime.day(try reader.member(key, record: number, time))
            default:
                try reader.skipValue()
                unkept.append(recurrence.contains(key) ? "recurrence" : key)
            }
        }
        if !hasDescription { throw InterchangeError("record \(number): \"description\" is missing; every task needs one") }
        switch status {
        case "pending": break
        case "waiting": break
        case "completed":
            record.fields.isDone = true
            record.fields.completed = end ?? record.modified
        case "deleted":
            skipped.add("deleted")
            return nil
        case "recurring":
            skipped.add("recurring templates")
            return nil
        default:
            throw InterchangeError("record \(number): \"status\" is '\(status)'; Taskwarrior writes pending, completed, deleted, waiting or recurring")
        }
        for what in Set(unkept).sorted() { notKept.add(what) }
        if !annotations.isEmpty {
            // Oldest first, as Taskwarrior lists them.
            record.fields.notes = annotations.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
                .map(\.element.1).joined(separator: "\n")
        }
        return record
    }

    /// The task as a Taskwarrior object, straight into `bytes`.
    static func append(_ task: Task, localTime: CachedLocalTime, to bytes: inout [UInt8], notKept: inout NotKept) {
        func key(_ name: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        func string(_ text: String) { JSONValue.appendString(text, to: &bytes) }
        key("{\"uuid\":"); string(task.uuid)
        key(",\"description\":"); string(task.title)
        key(task.isDone ? ",\"status\":\"completed\"" : ",\"status\":\"pending\"")
        key(",\"entry\":"); string(TimestampText.taskwarrior(task.created))
        key(",\"modified\":"); string(TimestampText.taskwarrior(task.modified))
        if task.isDone {
            key(",\"end\":"); string(TimestampText.taskwarrior(task.completed ?? task.modified))
        }
        if let due = task.due {
            key(",\"due\":"); string(TimestampText.taskwarrior(localTime.midnight(due)))
        }
        if task.list != Task.defaultList {
            key(",\"project\":"); string(task.list)
        }
        if let priority = task.priority {
            key(",\"priority\":"); string(priority.rawValue)
        }
        if let rule = task.repeat, !task.isDone {
            if let recur = recur(rule) {
                key(",\"recur\":"); string(recur)
                if task.due == nil { key(",\"due\":"); string(TimestampText.taskwarrior(localTime.midnight(task.anchor ?? .unixEpoch))) }
            } else {
                notKept.add("repeating \(rule.kind == .after ? "after completion" : "every few weekdays") (Taskwarrior repeats on a calendar)")
            }
        }
        if let wait = task.wait {
            key(",\"wait\":"); string(TimestampText.taskwarrior(localTime.midnight(wait)))
        }
        if let scheduled = task.scheduled {
            key(",\"scheduled\":"); string(TimestampText.taskwarrior(localTime.midnight(scheduled)))
        }
        if let until = task.until {
            key(",\"until\":"); string(TimestampText.taskwarrior(localTime.midnight(until)))
        }
        if !task.tags.isEmpty {
            key(",\"tags\":[")
            for (index, tag) in task.tags.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(tag)
            }
            key("]")
        }
        let lines = task.notes.split(separator: "\n", omittingEmptySubsequences: true)
        if !lines.isEmpty {
            // One annotation per line, a second apart: Taskwarrior keys annotations by their time.
            key(",\"annotations\":[")
            for (index, line) in lines.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                key("{\"entry\":")
                string(TimestampText.taskwarrior(Timestamp(millisecondsSince1970: task.created.millisecondsSince1970 + Int64(index) * 1000)))
                key(",\"description\":")
                string(String(line))
                key("}")
            }
            key("]")
        }
        key("}")
    }
}
