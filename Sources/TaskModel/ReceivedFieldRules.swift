/// What a change received from a remote may hold: the rules a value typed into `add` or read by
/// `import` meets, applied field by field through the field table (issue 50). A change with a
/// value that breaks them is not applied: the sync goes on without it and keeps it aside
/// (`tasks sync --rejected`), so that one peer's bad row or one server's broken item never stops
/// every sync, and never puts into the file what the file's own checks would refuse.
public enum ReceivedFieldRules {
    /// The earliest and latest moments a time field may hold: the years 1 to 9999, which every
    /// reader of a moment here (ISO 8601, the history, iCalendar) can write.
    public static let times: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// Why `change` cannot be applied, or nil when every value it holds is one `add` or
    /// `import` could have written. Fields no version of `tasks` knows are left to the apply,
    /// which sets only task fields.
    public static func refusal(of change: SyncChange) -> String? {
        if let reason = change.rejection { return reason }
        if let reason = refusal(task: change.task) { return reason }
        for name in change.fields.keys.sorted() {
            if let value = change.fields[name], let reason = refusal(name, value) { return reason }
        }
        return nil
    }

    /// Why `task` cannot name a task: a uuid, or another client's UID (any text), but not empty,
    /// not over 1,024 bytes, and without control characters.
    public static func refusal(task: String) -> String? {
        if task.isEmpty { return "its task has no uuid" }
        if task.utf8.count > 1024 { return "its task's uuid is \(task.utf8.count) bytes long" }
        if task.unicodeScalars.contains(where: { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }) { return "its task's uuid holds control characters" }
        return nil
    }

    /// The fields a received change may set to null: those whose kind is optional and that an
    /// empty task holds none of (`created` is a time every task has), and `position` — a task
    /// received without one goes to the bottom of its list, and a task here keeps its own.
    static let nullable: Set<TaskField> = Set(TaskFields.all.filter { $0.kind.isOptional && $0.stored(Task(unsaved: "")) == .null }.map(\.field))
        .union([.position])

    /// Each synced field, its kind and whether it may be null, in `SyncField.all`'s order: read
    /// once, not copied out of the field table for every value (a first sync checks millions).
    static let synced: [(field: TaskField, kind: FieldKind, nullable: Bool)] = TaskFields.synced.map { spec in
        (spec.field, spec.kind, nullable.contains(spec.field))
    }

    /// Why `value` cannot be the field `name` of a received task, or nil when it can.
    public static func refusal(_ name: String, _ value: SyncValue) -> String? {
        if name == SyncField.deleted {
            return value == .integer(0) || value == .integer(1) ? nil : "deleted is \(shown(value)), not 0 or 1"
        }
        guard let field = TaskField(rawValue: name) else { return nil }
        return refusal(field, kind: TaskFields.spec(field).kind, nullable: nullable.contains(field), value)
    }

    /// Why `value` cannot be the synced field at `index` of `SyncField.all`, or nil.
    public static func refusal(synced index: Int, _ value: SyncValue) -> String? {
        guard synced.indices.contains(index) else { return nil }
        return refusal(synced[index].field, kind: synced[index].kind, nullable: synced[index].nullable, value)
    }

    static func refusal(_ field: TaskField, kind: FieldKind, nullable: Bool, _ value: SyncValue) -> String? {
        let name = field.rawValue
        if value == .null {
            return nullable ? nil : "\(name) is null"
        }
        switch (kind, value) {
        case (.text, .text(let text)):
            do throws(TaskFieldError) {
                if field == .title { _ = try FieldRules.title(text) }
                if field == .list { _ = try FieldRules.list(text) }
            } catch {
                return "\(name): \(error)"
            }
            return nil
        case (.optionalText, .text):
            return nil
        case (.flag, .integer(let number)):
            return number == 0 || number == 1 ? nil : "\(name) is \(number), not 0 or 1"
        case (.number, .integer):
            return nil
        case (.day, .text(let text)):
            return CalendarDay(text) == nil ? "\(name) is \(shown(value)), not a day" : nil
        case (.date, .text(let text)):
            return TaskDate(text) == nil ? "\(name) is \(shown(value)), not a date" : nil
        case (.priority, .integer(let rank)):
            return Priority(rank: rank) == nil ? "\(name) is \(rank), not a priority (0, 1 or 2)" : nil
        case (.tags, .text(let text)):
            for word in TagsText.decode(text) {
                do throws(TaskFieldError) {
                    if field == .depends { _ = try FieldRules.uuid(word) } else { try FieldRules.checkTag(word) }
                } catch {
                    return "\(name): \(error)"
                }
            }
            return nil
        case (.time, .integer(let milliseconds)):
            return times.contains(milliseconds) ? nil : "\(name) is \(milliseconds), outside the years 1 to 9999"
        case (.rule, .text(let text)):
            return RepeatRule(text) == nil ? "\(name) is \(shown(value)), not a repeat rule" : nil
        case (.duration, .integer(let seconds)):
            return seconds >= 0 ? nil : "\(name) is \(seconds), less than nothing"
        case (.annotations, .text):
            return nil
        case (.reminders, .text(let text)):
            let words = TagsText.decode(text)
            if let bad = words.first(where: { RemindersText.decode(" \($0) ").isEmpty }) { return "\(name): '\(bad.prefix(40))' is not a reminder" }
            return nil
        default:
            return "\(name) is \(shown(value)), not \(kind.noun)"
        }
    }

    /// A value as a message shows it: at most 40 characters of its text.
    static func shown(_ value: SyncValue) -> String {
        guard case .text(let text) = value, text.count > 40 else { return value.description }
        return "\"" + text.prefix(40) + "…\" (\(text.utf8.count) bytes)"
    }
}

extension FieldKind {
    /// What a value of this kind is, for a message.
    var noun: String {
        switch self {
        case .text, .optionalText, .annotations: "text"
        case .flag: "0 or 1"
        case .number, .duration: "a whole number"
        case .day: "a day"
        case .date: "a date"
        case .priority: "a priority"
        case .tags, .reminders: "words"
        case .time: "a moment in milliseconds"
        case .rule: "a repeat rule"
        }
    }
}
