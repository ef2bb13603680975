import SQLiteDB
import TaskModel

/// The task table's columns, in order: the one list every SELECT, INSERT and decoder goes by.
enum TaskColumn: Int32, CaseIterable {
    case id, uuid, title, notes, list, done, completed, due, priority, tags, position, created, modified
    case `repeat`, series, anchor, wait

    /// The column's name in SQL. Spelled out rather than `"\(column)"`, which reflects on the
    /// enum at run time: that reflection was 8 % of a whole `tasks add` (perf, issue 18).
    var name: String {
        switch self {
        case .id: "id"
        case .uuid: "uuid"
        case .title: "title"
        case .notes: "notes"
        case .list: "list"
        case .done: "done"
        case .completed: "completed"
        case .due: "due"
        case .priority: "priority"
        case .tags: "tags"
        case .position: "position"
        case .created: "created"
        case .modified: "modified"
        case .repeat: "repeat"
        case .series: "series"
        case .anchor: "anchor"
        case .wait: "wait"
        }
    }

    /// `id, uuid, title, …`: what every task query selects and every full insert names.
    static let names = allCases.map(\.name).joined(separator: ", ")
    /// `(?, ?, …)`: one row of parameters for every column.
    static let parameterRow = "(" + repeatElement("?", count: allCases.count).joined(separator: ", ") + ")"
    static let count = Int32(allCases.count)
    /// `names` with the columns `.listed` leaves out read as constants, so that `decode` reads
    /// either at the same indexes.
    static let listedNames = allCases.map { column in
        switch column {
        case .uuid, .notes: return "''"
        case .completed, .series, .anchor: return "NULL"
        case .modified: return "0"
        default: return column.name
        }
    }.joined(separator: ", ")

    /// The columns `fields` reads.
    static func names(_ fields: TaskFieldSet) -> String { fields == .all ? names : listedNames }

    /// The task in the current row of a statement that selected `names`.
    static func decode(_ row: Statement) -> Task {
        Task(
            id: row.int64(id.rawValue),
            uuid: row.string(uuid.rawValue),
            title: row.string(title.rawValue),
            notes: row.string(notes.rawValue),
            list: row.string(list.rawValue),
            isDone: row.int64(done.rawValue) != 0,
            completed: row.optionalInt64(completed.rawValue).map(Timestamp.init(millisecondsSince1970:)),
            due: row.optionalString(due.rawValue).flatMap { CalendarDay($0) },
            priority: row.optionalInt64(priority.rawValue).flatMap(Priority.init(rank:)),
            tags: TagsColumn.decode(row.string(tags.rawValue)),
            position: row.int64(position.rawValue),
            created: Timestamp(millisecondsSince1970: row.int64(created.rawValue)),
            modified: Timestamp(millisecondsSince1970: row.int64(modified.rawValue)),
            repeat: row.optionalString(Self.repeat.rawValue).flatMap(RepeatRule.init),
            series: row.optionalString(series.rawValue),
            anchor: row.optionalString(anchor.rawValue).flatMap { CalendarDay($0) },
            wait: row.optionalString(wait.rawValue).flatMap { CalendarDay($0) }
        )
    }

    /// The column that holds `field`.
    init(_ field: TaskField) {
        switch field {
        case .title: self = .title
        case .notes: self = .notes
        case .list: self = .list
        case .done: self = .done
        case .completed: self = .completed
        case .due: self = .due
        case .priority: self = .priority
        case .tags: self = .tags
        case .position: self = .position
        case .repeat: self = .repeat
        case .series: self = .series
        case .anchor: self = .anchor
        case .wait: self = .wait
        }
    }

    /// What this column holds for `task`.
    func value(of task: Task) -> SQLiteValue {
        switch self {
        case .id: return .integer(task.id)
        case .uuid: return .text(task.uuid)
        case .title: return .text(task.title)
        case .notes: return .text(task.notes)
        case .list: return .text(task.list)
        case .done: return .integer(task.isDone ? 1 : 0)
        case .completed: return task.completed.map { .integer($0.millisecondsSince1970) } ?? .null
        case .due: return task.due.map { .text($0.description) } ?? .null
        case .priority: return task.priority.map { .integer(Int64($0.rank)) } ?? .null
        case .tags: return .text(TagsColumn.encode(task.tags))
        case .position: return .integer(task.position)
        case .created: return .integer(task.created.millisecondsSince1970)
        case .modified: return .integer(task.modified.millisecondsSince1970)
        case .repeat: return task.repeat.map { .text($0.description) } ?? .null
        case .series: return task.series.map(SQLiteValue.text) ?? .null
        case .anchor: return task.anchor.map { .text($0.description) } ?? .null
        case .wait: return task.wait.map { .text($0.description) } ?? .null
        }
    }

    /// A value this column held, as the field's typed value.
    func fieldValue(_ value: SQLiteValue) -> FieldValue {
        switch (self, value) {
        case (_, .null): return .none
        case (.done, .integer(let flag)): return .flag(flag != 0)
        case (.completed, .integer(let time)), (.created, .integer(let time)), (.modified, .integer(let time)):
            return .time(Timestamp(millisecondsSince1970: time))
        case (.due, .text(let text)), (.anchor, .text(let text)), (.wait, .text(let text)):
            return CalendarDay(text).map(FieldValue.day) ?? .text(text)
        case (.priority, .integer(let rank)): return Priority(rank: rank).map(FieldValue.priority) ?? .number(rank)
        case (.tags, .text(let text)): return .tags(TagsColumn.decode(text))
        case (_, .integer(let number)): return .number(number)
        case (_, .text(let text)): return .text(text)
        case (_, .real(let number)): return .number(Int64(number))
        case (_, .blob): return .none
        }
    }

    /// Binds every column of `task` to the parameters from `first` on, in this order. An id
    /// of 0 binds NULL: SQLite gives the row the next id.
    static func bind(_ task: Task, to statement: Statement, from first: Int32) throws {
        func at(_ column: TaskColumn) -> Int32 { first + column.rawValue }
        try statement.bind(integer: task.id == 0 ? nil : task.id, at: at(id))
        try statement.bind(text: task.uuid, at: at(uuid))
        try statement.bind(text: task.title, at: at(title))
        try statement.bind(text: task.notes, at: at(notes))
        try statement.bind(text: task.list, at: at(list))
        try statement.bind(integer: task.isDone ? 1 : 0, at: at(done))
        try statement.bind(integer: task.completed?.millisecondsSince1970, at: at(completed))
        try statement.bind(text: task.due?.description, at: at(due))
        try statement.bind(integer: task.priority.map { Int64($0.rank) }, at: at(priority))
        try statement.bind(text: TagsColumn.encode(task.tags), at: at(tags))
        try statement.bind(integer: task.position, at: at(position))
        try statement.bind(integer: task.created.millisecondsSince1970, at: at(created))
        try statement.bind(integer: task.modified.millisecondsSince1970, at: at(modified))
        try statement.bind(text: task.repeat?.description, at: at(Self.repeat))
        try statement.bind(text: task.series, at: at(series))
        try statement.bind(text: task.anchor?.description, at: at(anchor))
        try statement.bind(text: task.wait?.description, at: at(wait))
    }
}

/// Tags as one text column: sorted, each once, space-delimited with a space at each end
/// (`' a b '`), so that `instr(tags, ' a ')` finds a tag.
enum TagsColumn {
    static func normalized(_ tags: [String]) -> [String] {
        Array(Set(tags.filter { !$0.isEmpty })).sorted()
    }

    static func encode(_ tags: [String]) -> String {
        tags.isEmpty ? "" : " " + tags.joined(separator: " ") + " "
    }

    static func decode(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: " ").map(String.init)
    }
}

extension Priority {
    /// The priority stored as `rank`.
    init?(rank: Int64) {
        guard let priority = Priority.allCases.first(where: { Int64($0.rank) == rank }) else { return nil }
        self = priority
    }
}
