import TextFormats

/// A value as a query compares and sorts it: text by its UTF-8 bytes (SQLite's BINARY
/// collation, not Swift's canonical equivalence), numbers by value however they are kept,
/// numbers before text (as SQLite orders them).
public enum QueryValue: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case real(Double)

    /// Equal as SQLite compares: text byte for byte, numbers of the same kind by value.
    public static func == (a: QueryValue, b: QueryValue) -> Bool {
        switch (a, b) {
        case (.text(let x), .text(let y)): x.utf8.elementsEqual(y.utf8)
        case (.integer(let x), .integer(let y)): x == y
        case (.real(let x), .real(let y)): x == y
        default: false
        }
    }

    /// -1, 0 or 1: `a` before, with, or after `b`.
    public static func compare(_ a: QueryValue, _ b: QueryValue) -> Int {
        switch (a, b) {
        case (.text(let x), .text(let y)):
            if x.utf8.elementsEqual(y.utf8) { return 0 }
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
        case (.text, _): return 1
        case (_, .text): return -1
        case (.integer(let x), .integer(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        default:
            let x = a.number, y = b.number
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    var number: Double {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        case .text: 0
        }
    }

    /// The text it holds (a number as none).
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}

/// How a date field keeps its value, and so which of a `DateBounds`' ends it compares with:
/// a `TaskDate`'s text, milliseconds since 1970, or Taskwarrior's UTC stamp (custom fields).
public enum DateEncoding: Hashable, Sendable {
    case text, milliseconds, stamp

    /// `bounds`' low and high ends in this encoding.
    public func ends(_ bounds: DateBounds) -> (low: QueryValue, high: QueryValue) {
        switch self {
        case .text: (.text(bounds.lowText), .text(bounds.highText))
        case .milliseconds: (.integer(bounds.lowTime), .integer(bounds.highTime))
        case .stamp: (.text(bounds.lowStamp), .text(bounds.highStamp))
        }
    }
}

/// What a query reads a field as: how a filter word's value is read, which comparisons
/// (`.before`, `.contains`, …) it takes, how it sorts.
public enum QueryType: Hashable, Sendable {
    /// Text: equal, not, contains, starts or ends with (case-folded), set or not.
    case text
    /// A list and the lists under it (`list:Work` is `Work` and `Work.*`; `list.is:Work` only it).
    case list
    /// H, M or L; a task without one is below L.
    case priority
    case date(DateEncoding)
    case number
    /// A length of time (`3h`), compared in seconds.
    case duration
    /// Words a task has or has not (`tags:x`, `tags.hasnt:x`, `tags:` for none).
    case tags
    /// pending, done, waiting, expired.
    case status
    /// Ids and ranges of them.
    case id
    /// A uuid or its start.
    case uuid
    /// Shown and sorted only (a flag, a rule, a count).
    case shown

    /// The comparisons a filter word may ask of it, by their names (`QueryModifier`).
    public var modifiers: [String] {
        switch self {
        case .text: ["is", "not", "contains", "startswith", "endswith", "none", "any"]
        case .list, .status: ["is", "not"]
        case .priority, .date, .number, .duration: ["is", "not", "before", "after", "by", "none", "any"]
        case .tags: ["is", "not", "contains", "hasnt", "none", "any"]
        case .id: ["is"]
        case .uuid: ["is", "startswith"]
        case .shown: []
        }
    }
}

/// The comparisons of `name.modifier:value`, each with its other names (Taskwarrior's
/// included): one table for every field.
public enum QueryModifier {
    public static let aliases: [String: String] = [
        "is": "is", "equals": "is", "eq": "is", "not": "not", "isnt": "not", "ne": "not",
        "before": "before", "below": "before", "under": "before", "after": "after", "above": "after", "over": "after",
        "by": "by", "none": "none", "any": "any", "contains": "contains", "has": "contains",
        "hasnt": "hasnt", "startswith": "startswith", "left": "startswith", "endswith": "endswith", "right": "endswith",
    ]

    /// The comparison an ordering modifier asks for; nil for the others.
    public static func comparison(_ modifier: String) -> FilterComparison? {
        switch modifier {
        case "is": .equal
        case "not": .notEqual
        case "before": .less
        case "after": .greater
        case "by": .lessOrEqual
        default: nil
        }
    }
}

/// What a field is used for: filter words, `--sort` keys, report columns, and the words of
/// `add` that set it.
public struct QueryRoles: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let filter = QueryRoles(rawValue: 1)
    public static let sort = QueryRoles(rawValue: 2)
    public static let column = QueryRoles(rawValue: 4)
    public static let set = QueryRoles(rawValue: 8)
    public static let shown: QueryRoles = [.sort, .column]
    public static let every: QueryRoles = [.filter, .sort, .column, .set]
}

/// What reading a field's value may depend on: the day (a score), the zone (a time as a
/// table shows it) and the score's weights.
public struct QueryContext: Sendable {
    public var today: CalendarDay
    public var zone: LocalTime
    public var weights: TaskRank.Weights

    public init(today: CalendarDay, zone: LocalTime = .fixed(offsetSeconds: 0), weights: TaskRank.Weights = .standard) {
        self.today = today
        self.zone = zone
        self.weights = weights
    }
}

/// One part of an order: its SQL, which way it runs, and the same value in Swift.
public struct OrderPart: Sendable {
    public let sql: String
    public let descending: Bool
    public let value: @Sendable (Task) -> QueryValue

    public init(sql: String, descending: Bool, value: @escaping @Sendable (Task) -> QueryValue) {
        self.sql = sql
        self.descending = descending
        self.value = value
    }
}

/// One field as the query language knows it: its names, its type, what it is used for, and —
/// for each of those — how: its value in Swift and in SQL (filters and orders), its cell in a
/// report. The entries are `FieldVocabulary`'s; two are equal when their names and types are.
public struct QueryField: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// Other names it answers to, lower case (Taskwarrior's: `project`, `entry`, `end`, …).
    public let aliases: [String]
    public let type: QueryType
    public let roles: QueryRoles
    /// The task's field it is; nil for the ones made from others (`id`, `status`, `score`) and
    /// custom fields.
    public let stored: TaskField?
    /// The custom field it is, if it is one.
    public let custom: CustomField?
    /// What `name:value` compares by, with no modifier: `is` (`contains` for a title).
    public let defaultModifier: String
    /// Whether a task may be without it: then `name:` selects those without, and they sort last.
    public let isOptional: Bool
    /// What an ordered comparison reads a missing value as (none: a missing value is neither
    /// before nor after anything).
    public let missing: QueryValue?
    /// Its value on a task, as comparisons and orders read it; nil when the task has none.
    public let read: @Sendable (Task, QueryContext) -> QueryValue?
    /// The same in SQL, on the `task` table.
    public let sql: @Sendable (QueryContext) -> String
    /// Its cell in a report: as a table shows it (`true`) or as TSV and CSV carry it.
    public let cell: @Sendable (Task, QueryContext, _ forTable: Bool) -> String
    /// An order of its own (a list's manual order is by list, then position); nil: by its value.
    let ordering: (@Sendable (QueryContext, Bool) -> [OrderPart])?

    public init(name: String, aliases: [String] = [], type: QueryType, roles: QueryRoles, stored: TaskField? = nil, custom: CustomField? = nil,
                isOptional: Bool, defaultModifier: String = "is", missing: QueryValue? = nil,
                read: @escaping @Sendable (Task, QueryContext) -> QueryValue?, sql: @escaping @Sendable (QueryContext) -> String,
                cell: @escaping @Sendable (Task, QueryContext, Bool) -> String,
                ordering: (@Sendable (QueryContext, Bool) -> [OrderPart])? = nil) {
        self.name = name
        self.aliases = aliases
        self.type = type
        self.roles = roles
        self.stored = stored
        self.custom = custom
        self.isOptional = isOptional
        self.defaultModifier = defaultModifier
        self.missing = missing
        self.read = read
        self.sql = sql
        self.cell = cell
        self.ordering = ordering
    }

    public static func == (a: QueryField, b: QueryField) -> Bool { a.name == b.name && a.type == b.type }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }

    /// Every name it answers to.
    public var names: [String] { [name] + aliases }

    /// Whether its cells are dates (a table never cuts them).
    public var isDate: Bool {
        if case .date = type { return true }
        return false
    }

    /// A value its words take with `modifier` (empty for `.none` and `.any`): what the tests
    /// that walk the table type for each entry.
    public func example(for modifier: String) -> String {
        if modifier == "none" || modifier == "any" { return "" }
        switch type {
        case .text: return custom?.values.first ?? "mi"
        case .list: return "Work"
        case .priority: return "M"
        case .date: return modifier == "is" ? "today" : "2026-12-02T12:00"
        case .number: return "3"
        case .duration: return "1h"
        case .tags: return "a"
        case .status: return modifier == "is" ? "pending" : "done"
        case .id: return "3"
        case .uuid: return "00000000"
        case .shown: return roles.contains(.set) ? "1" : ""
        }
    }

    /// The parts of its order: a field a task may lack first by whether it is missing (always
    /// last, whichever way), then by its value.
    public func order(descending: Bool, in context: QueryContext) -> [OrderPart] {
        if let ordering { return ordering(context, descending) }
        let read = self.read, expression = sql(context)
        let zero: QueryValue
        switch type {
        case .text, .list, .status, .uuid, .tags, .shown: zero = .text("")
        case .date(let encoding): zero = encoding == .milliseconds ? .integer(0) : .text("")
        case .priority, .number, .duration, .id: zero = .integer(0)
        }
        let value = OrderPart(sql: isOptional ? "coalesce(\(expression), \(zero.sqlLiteral))" : expression, descending: descending) {
            read($0, context) ?? zero
        }
        guard isOptional else { return [value] }
        return [OrderPart(sql: "(\(expression) IS NULL)", descending: false) { .integer(read($0, context) == nil ? 1 : 0) }, value]
    }
}

extension QueryValue {
    /// A constant as SQL writes it (only the table's own constants, never a value from outside).
    public var sqlLiteral: String {
        switch self {
        case .text(let text): "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        }
    }
}
