import TaskModel

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
    /// The virtual tag that selects the tasks that have it (`+SCHEDULED`), if any.
    public let setTag: String?
    /// Whether, while its date is ahead, a task is not ready (`+READY`): `scheduled`.
    public let holdsBack: Bool

    public init(name: String, aliases: [String] = [], type: QueryType, roles: QueryRoles, stored: TaskField? = nil, custom: CustomField? = nil,
                isOptional: Bool, defaultModifier: String = "is", missing: QueryValue? = nil,
                read: @escaping @Sendable (Task, QueryContext) -> QueryValue?, sql: @escaping @Sendable (QueryContext) -> String,
                cell: @escaping @Sendable (Task, QueryContext, Bool) -> String,
                ordering: (@Sendable (QueryContext, Bool) -> [OrderPart])? = nil, setTag: String? = nil, holdsBack: Bool = false) {
        self.setTag = setTag
        self.holdsBack = holdsBack
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

extension DateEncoding {
    /// `bounds`' low and high ends in this encoding.
    public func ends(_ bounds: DateBounds) -> (low: QueryValue, high: QueryValue) {
        switch self {
        case .text: (.text(bounds.lowText), .text(bounds.highText))
        case .milliseconds: (.integer(bounds.lowTime), .integer(bounds.highTime))
        case .stamp: (.text(bounds.lowStamp), .text(bounds.highStamp))
        }
    }
}
