/// The words a field is known by in the query language, as the field table (`TaskFields`)
/// gives them: a field's query type and roles, the values comparisons and orders read, and
/// the parts of an order. The language itself — the vocabulary made of these, the parser, the
/// filter tree and its SQL — is the module QueryLanguage.

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

/// How the query language names and uses a stored field (`TaskFieldSpec.words`): its other
/// names, its roles, and where it differs from what its kind gives — its type, its cell, its
/// order.
public struct FieldWords: Sendable {
    public let aliases: [String]
    public let roles: QueryRoles
    public let type: QueryType?
    /// What `name:value` compares by (`contains` for text read in parts).
    public let defaultModifier: String
    public let cell: (@Sendable (Task, QueryContext, Bool) -> String)?
    public let ordering: (@Sendable (QueryContext, Bool) -> [OrderPart])?
    /// The virtual tag (`SCHEDULED`) that selects the tasks that have it.
    public let setTag: String?
    /// Whether, while its date is still ahead, the task is not ready (`+READY`).
    public let holdsBack: Bool

    public init(_ roles: QueryRoles, aliases: [String] = [], type: QueryType? = nil, defaultModifier: String = "is", cell: (@Sendable (Task, QueryContext, Bool) -> String)? = nil,
                ordering: (@Sendable (QueryContext, Bool) -> [OrderPart])? = nil, setTag: String? = nil, holdsBack: Bool = false) {
        self.setTag = setTag
        self.holdsBack = holdsBack
        self.aliases = aliases
        self.roles = roles
        self.type = type
        self.defaultModifier = defaultModifier
        self.cell = cell
        self.ordering = ordering
    }
}
