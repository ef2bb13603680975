import TextFormats
import TaskModel

/// Our own JSON: an array of the task objects `tasks list --format json` prints, with every
/// field of the contract. Export, import into an empty file and export again gives the same
/// bytes.
public enum TaskJSON {
    /// The task as one JSON object — every field — straight into `bytes` (on a terminal, give
    /// it `task.escapingControls()`).
    public static func append(_ task: Task, to bytes: inout [UInt8]) {
        func key(_ name: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        func string(_ text: String) {
            JSONValue.appendString(text, to: &bytes)
        }
        func optional(_ text: String?) {
            if let text { string(text) } else { key("null") }
        }
        key("{\"id\":")
        DecimalText.append(task.id, to: &bytes)
        key(",\"uuid\":"); string(task.uuid)
        key(",\"title\":"); string(task.title)
        key(",\"notes\":"); string(task.notes)
        key(",\"list\":"); string(task.list)
        key(task.isDone ? ",\"done\":true" : ",\"done\":false")
        key(",\"completed\":"); optional(task.completed.map(TimestampText.iso8601))
        key(",\"due\":"); optional(task.due?.description)
        key(",\"priority\":"); optional(task.priority?.rawValue)
        key(",\"tags\":[")
        for (index, tag) in task.tags.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(tag)
        }
        key("],\"position\":")
        DecimalText.append(task.position, to: &bytes)
        key(",\"created\":"); string(TimestampText.iso8601(task.created))
        key(",\"modified\":"); string(TimestampText.iso8601(task.modified))
        key(",\"repeat\":"); optional(task.repeat?.description)
        key(",\"series\":"); optional(task.series)
        key(",\"anchor\":"); optional(task.anchor?.description)
        key(",\"wait\":"); optional(task.wait?.description)
        key(",\"scheduled\":"); optional(task.scheduled?.description)
        key(",\"until\":"); optional(task.until?.description)
        // Another tool's attributes, as it wrote them: an object, `{}` when there are none.
        key(",\"extras\":{"); bytes.append(contentsOf: task.extras.utf8)
        key("},\"start\":"); optional(task.start.map(TimestampText.iso8601))
        key(",\"spent\":"); DecimalText.append(task.spent, to: &bytes)
        key(",\"depends\":[")
        for (index, uuid) in task.depends.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(uuid)
        }
        key("],\"annotations\":[")
        for (index, annotation) in task.annotations.enumerated() {
            key(index > 0 ? ",{\"entry\":" : "{\"entry\":"); string(TimestampText.iso8601(annotation.entry))
            key(",\"text\":"); string(annotation.text)
            key("}")
        }
        key("]")
        // Reminders, when it has any (`["due-15min","20261207T140000Z"]`).
        if !task.reminders.isEmpty {
            key(",\"reminders\":[")
            for (index, reminder) in task.reminders.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(reminder.description)
            }
            key("]")
        }
        // The task it is a subtask of, when it is one.
        if let parent = task.parent { key(",\"parent\":"); string(parent) }
        // A deleted task's tombstone (read by `status:deleted`) says so; a task says nothing.
        key(task.isDeleted ? ",\"deleted\":true}" : "}")
    }

    /// Ids and positions an import accepts are below this (2^62), so that the next id and a
    /// position a gap beyond the last can never overflow.
    static let limit: Int64 = 1 << 62

    /// Each member's place in `members` (one hash per key, not a search of 24 names: that
    /// search was 5% of importing a million tasks).
    static let memberBits: [String: Member] = Dictionary(uniqueKeysWithValues: Member.allCases.map { (members[$0.rawValue], $0) })

    /// A member of `members`, by its place there (its bit in a record's set of members seen).
    /// A record's members are told apart by one dictionary lookup and a switch on this: a
    /// switch on the name compared it with each case in turn, a twentieth of an import's
    /// instructions (callgrind).
    enum Member: Int, CaseIterable {
        case id, uuid, title, notes, list, done, completed, due, priority, tags
        case position, created, modified, `repeat`, series, anchor, wait, scheduled, until, extras
        case start, spent, depends, annotations, deleted, reminders, parent
    }

    /// The members a task object may have; every one but `title` may be left out or `null`.
    static let members = ["id", "uuid", "title", "notes", "list", "done", "completed", "due", "priority", "tags",
                          "position", "created", "modified", "repeat", "series", "anchor", "wait", "scheduled", "until", "extras",
                          "start", "spent", "depends", "annotations", "deleted", "reminders", "parent"]

    /// What a record starts from, made once: made for each record (a task built and copied
    /// over three initializers) it was 7% of an import (callgrind).
    private static let emptyRecord = TaskRecord(fields: Task(decodingID: 0, uuid: ""))

    /// `members` as UTF-8, for the reader to compare keys with in place.
    static let memberBytes = members.map { Array($0.utf8) }

    /// Reads an array of task objects. Strict, since it is our own format: an unknown member,
    /// a member twice or a value of the wrong kind stops the import, naming the record.
    public static func read(_ bytes: [UInt8]) throws -> ImportedFile {
        var reader = JSONReader(bytes)
        var records: [TaskRecord] = []
        try reader.forEachRecord(allowingLines: false,
                                 notJSONHint: "for a todo.txt file use --format todotxt") { number, reader in
            records.append(try readRecord(&reader, number: number))
        }
        return ImportedFile(batch: TaskImportBatch(records: records))
    }

    static func readRecord(_ reader: inout JSONReader, number: Int) throws -> TaskRecord {
        var record = emptyRecord
        var seen: UInt32 = 0  // a bit per member of `members`: a set without hashing
        var hasTitle = false
        try reader.beginObject()
        var isFirst = true
        // Our export writes the members in `members`' order: the next one is compared first,
        // in place, and looked up only when it is another (the lookups were 8% of an import).
        var expected = 0
        let names = memberBytes  // (once, not a lazy global's check a member)
        while let found = try reader.nextKey(isFirst: &isFirst, expecting: expected < names.count ? names[expected] : nil) {
            var unknown: String?
            let predicted: Member?
            switch found {
            case .expected: predicted = Member(rawValue: expected)
            case .other(let key): (predicted, unknown) = (memberBits[key], key)
            }
            guard let member = predicted else {
                let key = unknown ?? ""
                let hint = ["description", "status", "entry", "project"].contains(key)
                    ? "; this looks like Taskwarrior's export: use --format taskwarrior"
                    : "; a task has \(members.joined(separator: ", "))"
                throw InterchangeError("record \(number): unknown member \"\(key)\"" + hint)
            }
            // The member's name, made only for a message (each string made was a retain and a
            // release a member).
            var key: String { members[member.rawValue] }
            guard seen & (1 << member.rawValue) == 0 else { throw InterchangeError("record \(number): \"\(key)\" appears twice") }
            seen |= 1 << member.rawValue
            expected = member.rawValue + 1
            func time(_ reader: inout JSONReader) throws -> Timestamp? {
                if try reader.null() { return nil }
                // Read in place; a string with escapes (or no time at all) is read again as
                // text, to parse or to name in the message.
                let start = reader.index
                if let bytes = reader.plainString() {
                    if let time = TimestampText.parse(utf8: bytes) { return time }
                    reader.index = start
                }
                guard let text = try reader.optionalString() else { return nil }
                guard let time = TimestampText.parse(text) else {
                    throw InterchangeError("record \(number): \"\(key)\" is '\(text)', not a time; use ISO 8601 such as 2026-11-29T23:44:46.123Z")
                }
                return time
            }
            switch member {
            case .id:
                record.id = try reader.member(key, record: number) { try $0.null() ? nil : try $0.integer() }
                if let id = record.id, id <= 0 || id >= TaskJSON.limit {
                    throw InterchangeError("record \(number): \"id\" is \(id); ids start at 1 and are less than 2^62")
                }
            case .uuid: record.uuid = try reader.member(key, record: number) { try $0.optionalString() }
            case .title:
                record.fields.title = try reader.member(key, record: number) { try $0.string() }
                hasTitle = true
            case .notes: record.fields.notes = try reader.member(key, record: number) { try $0.optionalString() } ?? ""
            case .list: record.fields.list = try reader.member(key, record: number) { try $0.optionalString() } ?? Task.defaultList
            case .done: record.fields.isDone = try reader.member(key, record: number) { try $0.null() ? false : try $0.bool() }
            case .deleted: record.fields.isDeleted = try reader.member(key, record: number) { try $0.null() ? false : try $0.bool() }
            case .completed: record.fields.completed = try reader.member(key, record: number, time)
            case .created: record.created = try reader.member(key, record: number, time)
            case .modified: record.modified = try reader.member(key, record: number, time)
            case .due, .wait, .scheduled, .until:
                if let text = try reader.member(key, record: number, { try $0.optionalString() }) {
                    guard let date = TaskDate(text) else {
                        throw InterchangeError("record \(number): \"\(key)\" is '\(text)', not a date; use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS+HH:MM")
                    }
                    switch member {
                    case .wait: record.fields.wait = date
                    case .scheduled: record.fields.scheduled = date
                    case .until: record.fields.until = date
                    default: record.fields.due = date
                    }
                }
            case .priority:
                if let text = try reader.member(key, record: number, { try $0.optionalString() }) {
                    guard let priority = Priority(rawValue: text) else {
                        throw InterchangeError("record \(number): \"priority\" is '\(text)'; use \"H\", \"M\", \"L\" or null")
                    }
                    record.fields.priority = priority
                }
            case .tags: record.fields.tags = try reader.member(key, record: number) { try $0.strings() }
            case .position:
                record.position = try reader.member(key, record: number) { try $0.null() ? nil : try $0.integer() }
                if let position = record.position, position <= -TaskJSON.limit || position >= TaskJSON.limit {
                    throw InterchangeError("record \(number): \"position\" is \(position); positions are within ±2^62")
                }
            case .repeat:
                if let text = try reader.member(key, record: number, { try $0.optionalString() }) {
                    guard let rule = RepeatRule(text) else {
                        throw InterchangeError("record \(number): \"repeat\" is '\(text)'; write \"every 2w\", \"after 3d\" or null")
                    }
                    record.fields.repeat = rule
                }
            case .series: record.fields.series = try reader.member(key, record: number) { try $0.optionalString() }
            case .extras:
                // No attributes of another tool (`{}`, nearly every task): nothing to keep.
                if reader.skip("{}") {
                    record.fields.extras = ""
                    continue
                }
                let raw = try reader.member(key, record: number) { try $0.null() ? "{}" : try $0.rawValue() }
                guard raw.hasPrefix("{") else {
                    throw InterchangeError("record \(number): \"extras\" is \(raw); write an object of another tool's attributes, {} or null")
                }
                record.fields.extras = String(raw.dropFirst().dropLast())
            case .start: record.fields.start = try reader.member(key, record: number, time)
            case .spent:
                let spent = try reader.member(key, record: number) { try $0.null() ? 0 : try $0.integer() }
                guard spent >= 0 && spent < TaskJSON.limit else { throw InterchangeError("record \(number): \"spent\" is \(spent); give whole seconds, 0 or more") }
                record.fields.spent = spent
            case .parent:
                let parent = try reader.member(key, record: number) { try $0.optionalString() }
                if let parent, parent.isEmpty || parent.utf8.count > 255 || parent.contains(where: { $0.isNewline }) {
                    throw InterchangeError("record \(number): \"parent\" is no task's uuid; give the uuid of the task it is a subtask of, or null")
                }
                record.fields.parent = parent
            case .reminders:
                let texts = try reader.member(key, record: number) { try $0.null() ? [] : try $0.strings() }
                record.fields.reminders = try texts.map { text in
                    guard let reminder = RemindersText.decode(" \(text) ").first, !text.contains(" ") else {
                        throw InterchangeError("record \(number): \"reminders\" holds '\(text)', not a reminder; use due-15min, start-1h or 20261207T140000Z")
                    }
                    return reminder
                }
                record.fields.reminders = Array(Set(record.fields.reminders)).sorted { $0.description < $1.description }
            case .depends:
                let depends = try reader.member(key, record: number) { try $0.null() ? [] : try $0.strings() }
                if !depends.isEmpty { record.fields.depends = TagsText.normalized(depends) }
            case .annotations:
                record.fields.annotations = try reader.member(key, record: number) { reader in
                    if try reader.null() { return [] }
                    var found: [Annotation] = []
                    try reader.beginArray()
                    var isFirst = true
                    while try reader.nextElement(isFirst: &isFirst) {
                        var entry: Timestamp?, text: String?
                        try reader.beginObject()
                        var isFirstMember = true
                        while let member = try reader.nextKey(isFirst: &isFirstMember) {
                            switch member {
                            case "entry": entry = try time(&reader)
                            case "text": text = try reader.string()
                            default: throw InterchangeError("record \(number): an annotation has \"\(member)\"; give {\"entry\": TIME, \"text\": TEXT}")
                            }
                        }
                        guard let entry, let text, !text.isEmpty else {
                            throw InterchangeError("record \(number): an annotation needs \"entry\" (a time) and \"text\" (not empty)")
                        }
                        found.append(Annotation(entry: entry, text: text))
                    }
                    return found
                }
            case .anchor:
                if let text = try reader.member(key, record: number, { try $0.optionalString() }) {
                    guard let day = CalendarDay(text) else {
                        throw InterchangeError("record \(number): \"\(key)\" is '\(text)', not a day; use YYYY-MM-DD")
                    }
                    record.fields.anchor = day
                }
            }
        }
        if !hasTitle { throw InterchangeError("record \(number): \"title\" is missing; every task needs one") }
        return record
    }
}
