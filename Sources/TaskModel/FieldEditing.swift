import TextFormats

/// How a field is set by a person: its flag on `add` and `edit`, its line in the editor of
/// `tasks ui`, and the words a bad value is refused with. A field with an `edit` entry is set
/// by the same code everywhere — `TaskDraft`, `TaskChanges`, the editor reactor's form, the
/// command line's flags and the screen's editor all go through `TaskFields.edited` — so a new
/// field of a kind the table already reads (a day, a priority, text) needs nothing more.
///
/// The fields with behaviour of their own — the title (required, one line), the notes (many
/// lines, from `$EDITOR`), the list (a move to its bottom), the tags (added and removed one by
/// one) and the repeat rule (two flags, a schedule to start) — keep named code of their own.
public struct FieldEdit: Sendable {
    /// The name of its value in help: `DATE`, `H|M|L`.
    public let valueName: String
    /// Its flag's one-letter form (`-p`), if it has one.
    public let short: Character?
    /// The help of its flag.
    public let help: String
    /// What a value that cannot be read is not: `'fry' is not a date; use …`.
    public let noun: String
    /// Its flag's name when not the field's (`--remind` sets `reminders`).
    public let flag: String?

    public init(_ valueName: String, short: Character? = nil, flag: String? = nil, help: String, noun: String) {
        self.valueName = valueName
        self.short = short
        self.flag = flag
        self.help = help
        self.noun = noun
    }
}

extension TaskFields {
    /// The fields set through their `edit` entry, in the form's order.
    public static let edited: [TaskFieldSpec] = form.map(spec).filter { $0.edit != nil }
}

extension TaskFieldSpec {
    /// The value `text` gives it (as typed: `friday`, `due-3d`, `h`; empty clears it, `.none`),
    /// counted from `context`; a value that cannot be read throws, naming the field.
    public func judge(_ text: String, in context: DateContext) throws(TaskFieldError) -> FieldValue {
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty { return .none }
        switch kind {
        case .day, .date:
            do throws(DateGrammarError) {
                if kind == .date { return .date(try DateGrammar.date(trimmed, in: context)) }
                return .day(try DateGrammar.day(trimmed, in: context))
            } catch {
                switch error {
                case .unreadable, .timeOfDay: throw .badValue(field, text)
                case .missingField(let base): throw .dateFromUnsetField(field, base: base, text)
                }
            }
        case .priority:
            guard let priority = Priority(rawValue: trimmed.uppercased()) else { throw .badValue(field, text) }
            return .priority(priority)
        case .text, .optionalText: return .text(trimmed)
        case .reminders:
            // Several, by commas or spaces; `tomorrow 9:00` is one moment, read whole.
            var reminders: [Reminder] = []
            for part in trimmed.split(separator: ",") {
                let words = part.split(separator: " ").map(String.init)
                if let whole = Reminder.judge(words.joined(separator: " "), in: context) {
                    reminders.append(whole)
                    continue
                }
                for word in words {
                    guard let reminder = Reminder.judge(word, in: context) else { throw .badValue(field, word) }
                    reminders.append(reminder)
                }
            }
            return .tags(TagsText.normalized(reminders.map(\.description)))
        case .flag, .number, .tags, .time, .rule, .duration, .annotations: throw .badValue(field, text)
        }
    }

    /// `judge(_:in:)` counting from `today` alone (midnight UTC).
    public func judge(_ text: String, today: CalendarDay) throws(TaskFieldError) -> FieldValue {
        try judge(text, in: .on(today))
    }

    /// Sets it on `task` to `value` as its column holds it.
    public func set(_ value: SyncValue, on task: inout Task) {
        read(&task, OneValueRow(value), 0)
    }

    /// Sets it on `task` to `value` (`.none` clears it).
    public func assign(_ value: FieldValue, to task: inout Task) {
        set(kind.stored(value), on: &task)
    }

    /// Its value on `task` as a form shows it: `2026-12-24`, `H`, or empty.
    public func typedText(of task: Task) -> String { value(of: task).plainText }
}

extension FieldKind {
    /// What a person may type for it, after `use` in a refusal.
    var grammar: String {
        switch self {
        case .day, .date: DateGrammar.forms
        case .priority: "H, M or L"
        case .reminders: "due-15min, start-1h, due, or a time such as 'tomorrow 9:00' (a day alone is no moment), comma-separated"
        case .text, .optionalText, .flag, .number, .tags, .time, .rule, .duration, .annotations: "text"
        }
    }

    /// A typed value as its column holds it: the inverse of `typed(_:)`.
    public func stored(_ value: FieldValue) -> SyncValue {
        switch value {
        case .none: .null
        case .text(let text): .text(text)
        case .flag(let flag): .integer(flag ? 1 : 0)
        case .number(let number): .integer(number)
        case .day(let day): .text(day.description)
        case .date(let date): .text(date.description)
        case .priority(let priority): .integer(Int64(priority.rank))
        case .tags(let tags): .text(TagsText.encode(tags))
        case .time(let time): .integer(time.millisecondsSince1970)
        case .annotations(let annotations): .text(AnnotationsText.encode(annotations))
        }
    }
}

extension FieldValue {
    /// The date it holds, if it is one.
    public var date: TaskDate? {
        if case .date(let date) = self { return date }
        return nil
    }

    /// As one line of text, as a form and `tasks show` give it: nothing for none, `true`/`false`,
    /// a day as `YYYY-MM-DD`, a priority as its letter, tags separated by spaces, ISO 8601 times.
    public var plainText: String {
        switch self {
        case .none: ""
        case .text(let text): text
        case .flag(let flag): flag ? "true" : "false"
        case .number(let number): String(number)
        case .day(let day): day.description
        case .date(let date): date.description
        case .priority(let priority): priority.rawValue
        case .tags(let tags): tags.joined(separator: " ")
        case .time(let time): TimestampText.iso8601(time)
        case .annotations(let annotations):
            annotations.map { TimestampText.iso8601($0.entry) + " " + $0.text }.joined(separator: "\n")
        }
    }
}

extension FieldKind {
    /// A stored value as plain text — what `FieldValue.plainText` says of it typed, without
    /// reading a date's text back (`csv` export, a million rows).
    public func plainText(_ value: SyncValue) -> String {
        switch (self, value) {
        case (_, .null): return ""
        case (.flag, .integer(let flag)): return flag != 0 ? "true" : "false"
        case (.time, .integer(let time)): return TimestampText.iso8601(Timestamp(millisecondsSince1970: time))
        case (.priority, .integer(let rank)): return Priority(rank: rank)?.rawValue ?? String(rank)
        case (.tags, .text(let text)): return TagsText.decode(text).joined(separator: " ")
        case (.annotations, .text(let text)): return FieldValue.annotations(AnnotationsText.decode(text)).plainText
        case (_, .integer(let number)): return String(number)
        case (_, .text(let text)): return text
        }
    }
}

/// One stored value as a row of one column, for a field's `read`.
private final class OneValueRow: ColumnRow {
    let value: SyncValue
    init(_ value: SyncValue) { self.value = value }

    func int64(_ index: Int32) -> Int64 { value.integer ?? 0 }
    func optionalInt64(_ index: Int32) -> Int64? { value.integer }
    func string(_ index: Int32) -> String { value.text ?? "" }
    func optionalString(_ index: Int32) -> String? { value.text }
}
