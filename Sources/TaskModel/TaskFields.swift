/// The fields of a task, described once. Every place that goes field by field — the task
/// table's columns (their list, binding and decoding), the history (which fields a change
/// touched, their values before and after, undo), sync (what travels, which conflicts are
/// reported), `tasks show` — iterates `TaskFields.all` instead of naming the fields again.
/// A new field is an entry here (with its place in `form` when a person sets it), a stored
/// property of `Task`, a migration that adds its column, and the interchange mappings it needs
/// (our JSON, Taskwarrior, todo.txt).
///
/// The id and uuid are a task's identity, not fields: they never change, and each table
/// spells them itself.
public enum TaskFields {
    /// Every field, in the task table's column order (and our JSON's).
    public static let all: [TaskFieldSpec] = [
        TaskFieldSpec(.title, kind: .text, shown: .head, words: { FieldWords(.every.subtracting(.set), aliases: ["description"], defaultModifier: "contains") }, reported: true,
                      stored: { .text($0.title) }, read: { $0.title = $1.string($2) }),
        TaskFieldSpec(.notes, kind: .text, shown: .tail, words: { FieldWords([.filter, .column], defaultModifier: "contains") }, listed: false, reported: true,
                      stored: { .text($0.notes) }, read: { $0.notes = $1.string($2) }),
        TaskFieldSpec(.list, kind: .text, shown: .head, words: { FieldWords(.every, aliases: ["project"], type: .list) }, reported: true,
                      stored: { .text($0.list) }, read: { $0.list = $1.string($2) }),
        TaskFieldSpec(.done, kind: .flag, shown: .head, words: { FieldWords(.shown) }, reported: true,
                      stored: { .integer($0.isDone ? 1 : 0) }, read: { $0.isDone = $1.int64($2) != 0 }),
        TaskFieldSpec(.completed, kind: .time, shown: .head, words: { FieldWords([.filter, .sort, .column], aliases: ["end"]) }, listed: false,
                      stored: { $0.completed.map { .integer($0.millisecondsSince1970) } ?? .null },
                      read: { $0.completed = $1.optionalInt64($2).map(Timestamp.init(millisecondsSince1970:)) }),
        TaskFieldSpec(.due, kind: .date, shown: .head, words: { FieldWords(.every) }, reported: true,
                      edit: FieldEdit("DATE", help: "Due date: YYYY-MM-DD, today, tomorrow, +3d, a weekday, eow; a time: fri 17:30; '' clears.", noun: "a date"),
                      stored: { $0.due.map { .text($0.description) } ?? .null }, read: { $0.due = $1.optionalString($2).flatMap { TaskDate($0) } }),
        TaskFieldSpec(.priority, kind: .priority, shown: .head, words: { FieldWords(.every, setTag: "PRIORITY") }, reported: true,
                      edit: FieldEdit("H|M|L", short: "p", help: "Priority; '' clears.", noun: "a priority"),
                      stored: { $0.priority.map { .integer(Int64($0.rank)) } ?? .null },
                      read: { $0.priority = $1.optionalInt64($2).flatMap(Priority.init(rank:)) }),
        TaskFieldSpec(.tags, kind: .tags, shown: .head, words: { FieldWords([.filter, .column], aliases: ["tag"]) }, reported: true,
                      stored: { .text(TagsText.encode($0.tags)) }, read: { $0.tags = TagsText.decode($1.string($2)) }),
        TaskFieldSpec(.position, kind: .number, shown: .tail, words: { FieldWords(.sort, aliases: ["manual"], ordering: TaskFields.manualOrder) },
                      stored: { .integer($0.position) }, read: { $0.position = $1.int64($2) }),
        TaskFieldSpec(.created, kind: .time, shown: .tail, words: { FieldWords([.filter, .sort, .column], aliases: ["entry"]) }, recorded: false,
                      stored: { .integer($0.created.millisecondsSince1970) },
                      read: { $0.created = Timestamp(millisecondsSince1970: $1.int64($2)) }),
        TaskFieldSpec(.modified, kind: .time, shown: .tail, words: { FieldWords([.filter, .sort, .column]) }, listed: false, recorded: false, synced: false,
                      stored: { .integer($0.modified.millisecondsSince1970) },
                      read: { $0.modified = Timestamp(millisecondsSince1970: $1.int64($2)) }),
        TaskFieldSpec(.repeat, kind: .rule, shown: .body, words: { FieldWords([.column, .set], aliases: ["recur", "every", "after"]) }, reported: true,
                      stored: { $0.repeat.map { .text($0.description) } ?? .null }, read: { $0.repeat = $1.optionalString($2).flatMap(RepeatRule.init) }),
        TaskFieldSpec(.series, kind: .optionalText, shown: .hidden, listed: false,
                      stored: { $0.series.map(SyncValue.text) ?? .null }, read: { $0.series = $1.optionalString($2) }),
        TaskFieldSpec(.anchor, kind: .day, shown: .hidden, listed: false,
                      stored: { $0.anchor.map { .text($0.description) } ?? .null }, read: { $0.anchor = $1.optionalString($2).flatMap { CalendarDay($0) } }),
        TaskFieldSpec(.wait, kind: .date, shown: .body, words: { FieldWords(.every) }, reported: true,
                      edit: FieldEdit("DATE", help: "Hide from lists until DATE (a day, or a time: tomorrow 9:00); '' clears.", noun: "a date to wait for"),
                      stored: { $0.wait.map { .text($0.description) } ?? .null }, read: { $0.wait = $1.optionalString($2).flatMap { TaskDate($0) } }),
        TaskFieldSpec(.scheduled, kind: .date, shown: .body, words: { FieldWords(.every, setTag: "SCHEDULED", holdsBack: true) }, reported: true,
                      edit: FieldEdit("DATE", help: "When work can start (a day or a time); '' clears.", noun: "a date to schedule"),
                      stored: { $0.scheduled.map { .text($0.description) } ?? .null },
                      read: { $0.scheduled = $1.optionalString($2).flatMap { TaskDate($0) } }),
        TaskFieldSpec(.until, kind: .date, shown: .body, words: { FieldWords(.every, setTag: "UNTIL") }, reported: true,
                      edit: FieldEdit("DATE", help: "Expire, still pending, after DATE or time (hidden, kept); '' clears.", noun: "a date to expire after"),
                      stored: { $0.until.map { .text($0.description) } ?? .null },
                      read: { $0.until = $1.optionalString($2).flatMap { TaskDate($0) } }),
        TaskFieldSpec(.extras, kind: .text, shown: .tail, listed: false,
                      stored: { .text($0.extras) }, read: { $0.extras = $1.string($2) }),
        TaskFieldSpec(.start, kind: .time, shown: .body, words: { FieldWords([.filter, .sort, .column], aliases: ["started"]) }, listed: false, reported: true,
                      stored: { $0.start.map { .integer($0.millisecondsSince1970) } ?? .null },
                      read: { $0.start = $1.optionalInt64($2).map(Timestamp.init(millisecondsSince1970:)) }),
        TaskFieldSpec(.spent, kind: .duration, shown: .body, listed: false,
                      stored: { .integer($0.spent) }, read: { $0.spent = $1.int64($2) }),
        TaskFieldSpec(.depends, kind: .tags, shown: .body, words: { FieldWords([.column, .set], type: .shown, cell: { task, _, _ in task.depends.isEmpty ? "" : String(task.depends.count) }) }, listed: false, reported: true,
                      stored: { .text(TagsText.encode($0.depends)) }, read: { $0.depends = TagsText.decode($1.string($2)) }),
        TaskFieldSpec(.annotations, kind: .annotations, shown: .tail, listed: false, reported: true,
                      stored: { .text(AnnotationsText.encode($0.annotations)) }, read: { $0.annotations = AnnotationsText.decode($1.string($2)) }),
        TaskFieldSpec(.reminders, kind: .reminders, shown: .body,
                      words: { FieldWords([.column, .set], aliases: ["remind", "reminder"], type: .shown, cell: { task, _, _ in task.reminders.map(\.description).joined(separator: " ") }) },
                      listed: false, reported: true,
                      edit: FieldEdit("WHEN,…", flag: "remind", help: "Reminders: due-15min, start-1h, due, or a time (tomorrow 9:00), comma-separated; '' clears.",
                                      noun: "a reminder"),
                      stored: { .text(RemindersText.encode($0.reminders)) }, read: { $0.reminders = RemindersText.decode($1.string($2)) }),
        TaskFieldSpec(.parent, kind: .optionalText, shown: .body, words: { FieldWords([.filter, .column], aliases: ["subtaskof"]) }, reported: true,
                      stored: { $0.parent.map(SyncValue.text) ?? .null }, read: { $0.parent = $1.optionalString($2) }),
    ]

    /// The order a form shows the fields a person sets — the editor of `tasks ui`, the flags of
    /// `add` and `edit`. A new settable field takes its place here.
    public static let form: [TaskField] = [.title, .notes, .list, .due, .priority, .tags, .repeat, .wait, .scheduled, .until, .reminders]

    /// The fields a change records in the history (not `created` and `modified`, which every
    /// change sets and none reverts).
    public static let recorded = all.filter { $0.isRecorded }
    /// The fields a sync sends, in a fixed order.
    public static let synced = all.filter { $0.isSynced }

    /// A list's manual order (`tasks move`): by list, then position in it.
    static let manualOrder: @Sendable (QueryContext, Bool) -> [OrderPart] = { _, descending in
        [OrderPart(sql: "list", descending: descending) { .text($0.list) }, OrderPart(sql: "position", descending: descending) { .integer($0.position) }]
    }

    /// The entry of `field`.
    public static func spec(_ field: TaskField) -> TaskFieldSpec { all[field.index] }
}

/// A task's fields by their JSON names: the keys of `TaskFields.all`, in its order.
public enum TaskField: String, CaseIterable, Sendable {
    case title, notes, list, done, completed, due, priority, tags, position, created, modified
    case `repeat`, series, anchor, wait, scheduled, until, extras, start, spent, depends, annotations, reminders, parent

    /// Where its entry is in `TaskFields.all`, which is in the cases' order (FieldTableTests
    /// checks it). Found among the cases, not the entries: comparing entries copied each one
    /// (a struct of closures), 4% of `add -`.
    public var index: Int { Self.ordered.firstIndex(of: self) ?? 0 }

    private static let ordered = allCases
}

/// One field: its key, its names, how it is typed and stored, and where it appears.
public struct TaskFieldSpec: Sendable {
    /// Where `tasks show` puts it: with the fields a person reads first, after them, with the
    /// bookkeeping at the end, or not at all.
    public enum Shown: Sendable { case head, body, tail, hidden }

    /// The key: its name in JSON, in the history, in a sync change, and its column.
    public let field: TaskField
    public let kind: FieldKind
    public let shown: Shown
    /// Read by a listing (`TaskFieldSet.listed`); the others are read as their empty value.
    public let isListed: Bool
    /// Recorded by the history (before and after) and reverted by undo.
    public let isRecorded: Bool
    /// Sent by a sync.
    public let isSynced: Bool
    /// A sync reports a conflict on it (what a person wrote), rather than merging silently.
    public let isReported: Bool
    /// Its value as the task table's column holds it (and as a sync sends it). A closure, not
    /// a key path: a key-path literal is an object the runtime makes on first use, which a
    /// one-task command pays for each one (docs/benchmark-notes.md, Start-up).
    public let stored: @Sendable (Task) -> SyncValue
    /// Sets it on a task from its column in a row being read (`row`, at `index`): straight
    /// from the column, as a hand-written decoder would — no value in between, which cost a
    /// listing of a million tasks a fifth of its time.
    public let read: @convention(thin) (_ task: inout Task, _ row: any ColumnRow, _ index: Int32) -> Void
    /// How a person sets it, when that is the same as every field of its kind (`FieldEdit`).
    public let edit: FieldEdit?
    /// How the query language names and uses it (`FieldVocabulary`); nil: it does not. A
    /// closure that captures nothing, called only when the vocabulary is made: a command that
    /// reads no filter (`tasks toggle`) makes none of it.
    public let words: (@Sendable () -> FieldWords)?

    init(_ field: TaskField, kind: FieldKind, shown: Shown, words: (@Sendable () -> FieldWords)? = nil, listed: Bool = true, recorded: Bool = true, synced: Bool = true,
         reported: Bool = false, edit: FieldEdit? = nil, stored: @escaping @Sendable (Task) -> SyncValue,
         read: @convention(thin) (inout Task, any ColumnRow, Int32) -> Void) {
        self.field = field
        self.kind = kind
        self.shown = shown
        self.isListed = listed
        self.isRecorded = recorded
        self.isSynced = synced
        self.isReported = reported
        self.stored = stored
        self.read = read
        self.edit = edit
        self.words = words
    }

    /// Its name: in JSON, the history, a sync change, `tasks show`, and the task table.
    public var name: String { field.rawValue }
    /// Its column in the task table.
    public var column: String { field.rawValue }

    /// Its value on `task`, typed as JSON shows it.
    public func value(of task: Task) -> FieldValue { kind.typed(stored(task)) }
}

/// A row being read, column by column: what a field's `read` takes its value from
/// (`SQLiteDB.Statement` is one). Null reads as 0 or empty text where no `optional` is asked for.
public protocol ColumnRow: AnyObject {
    func int64(_ index: Int32) -> Int64
    func optionalInt64(_ index: Int32) -> Int64?
    func string(_ index: Int32) -> String
    func optionalString(_ index: Int32) -> String?
}

/// How a field is typed: what its column holds, and what JSON and the history show.
public enum FieldKind: Sendable {
    /// Text, never null (title, notes, list).
    case text
    /// Text or nothing (a series' uuid).
    case optionalText
    /// 0 or 1, shown as false or true.
    case flag
    /// A whole number (position).
    case number
    /// A calendar day, `YYYY-MM-DD`, or nothing.
    case day
    /// A day or a moment (`TaskDate`), stored as its text, or nothing.
    case date
    /// H, M or L, stored as its rank (0–2), or nothing.
    case priority
    /// Words, stored as `' a b '`.
    case tags
    /// A moment, stored as milliseconds since 1970, or nothing.
    case time
    /// A repeat rule, stored as its text, or nothing.
    case rule
    /// A length of time in whole seconds, never null (the time spent).
    case duration
    /// Lines added at moments (`AnnotationsText`), never null.
    case annotations
    /// Reminders (`Reminder`): their texts as words, never null.
    case reminders

    /// Whether its column may be null.
    public var isOptional: Bool {
        switch self {
        case .text, .flag, .number, .tags, .duration, .annotations, .reminders: false
        case .optionalText, .day, .date, .priority, .time, .rule: true
        }
    }

    /// Whether its column holds a whole number (else text).
    public var isInteger: Bool {
        switch self {
        case .flag, .number, .priority, .time, .duration: true
        case .text, .optionalText, .day, .date, .tags, .rule, .annotations, .reminders: false
        }
    }

    /// A stored value, typed: what the history and JSON show.
    public func typed(_ value: SyncValue) -> FieldValue {
        switch (self, value) {
        case (_, .null): return .none
        case (.flag, .integer(let flag)): return .flag(flag != 0)
        case (.time, .integer(let time)): return .time(Timestamp(millisecondsSince1970: time))
        case (.day, .text(let text)): return CalendarDay(text).map(FieldValue.day) ?? .text(text)
        case (.date, .text(let text)): return TaskDate(text).map(FieldValue.date) ?? .text(text)
        case (.priority, .integer(let rank)): return Priority(rank: rank).map(FieldValue.priority) ?? .number(rank)
        case (.tags, .text(let text)), (.reminders, .text(let text)): return .tags(TagsText.decode(text))
        case (.annotations, .text(let text)): return .annotations(AnnotationsText.decode(text))
        case (_, .integer(let number)): return .number(number)
        case (_, .text(let text)): return .text(text)
        }
    }
}

/// A change to one optional field: leave it, set it, or clear it.
public enum FieldUpdate<Value: Equatable & Sendable>: Equatable, Sendable {
    case keep
    case set(Value)
    case clear

    /// `nil` clears.
    public static func to(_ value: Value?) -> FieldUpdate { value.map(FieldUpdate.set) ?? .clear }

    /// Whether it changes anything.
    public var isKeep: Bool { self == .keep }

    /// `value` after the update.
    public func applied(to value: Value?) -> Value? {
        switch self {
        case .keep: value
        case .set(let new): new
        case .clear: nil
        }
    }
}

/// Tags as one text column: sorted, each once, space-delimited with a space at each end
/// (`' a b '`), so that `instr(tags, ' a ')` finds a tag.
public enum TagsText {
    /// Each once, sorted, none empty.
    public static func normalized(_ tags: [String]) -> [String] {
        tags.isEmpty ? tags : Array(Set(tags.filter { !$0.isEmpty })).sorted()
    }

    public static func encode(_ tags: [String]) -> String {
        tags.isEmpty ? "" : " " + tags.joined(separator: " ") + " "
    }

    public static func decode(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: " ").map(String.init)
    }
}

extension SyncValue {
    /// The text it holds, if it is text.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The number it holds, if it is a number.
    public var integer: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }
}

extension Priority {
    /// The priority stored as `rank`.
    public init?(rank: Int64) {
        guard let priority = Priority.allCases.first(where: { Int64($0.rank) == rank }) else { return nil }
        self = priority
    }
}
