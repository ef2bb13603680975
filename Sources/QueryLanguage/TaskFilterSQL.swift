import SQLiteDB
import TaskModel

/// A `TaskFilter` as one SQL condition on the `task` table, with its arguments — the rules
/// of `TaskFilter.matches`, stated for SQLite (a test evaluates random filters both ways on
/// random tasks and compares). Every term is a range or an equality on its column where the
/// column allows, so that the indexes serve; `not` reads an unknown (NULL) as false, as Swift
/// does.
struct TaskFilterSQL {
    let clock: FilterClock
    let context: QueryContext
    /// Whether the rows include the tombstones (`TaskQuerySQL.source`), each with its `deleted` column.
    let tombstones: Bool
    var arguments: [(any SQLiteBindable)?] = []

    init(clock: FilterClock, tombstones: Bool = false) {
        self.clock = clock
        self.context = QueryContext(today: clock.today)
        self.tombstones = tombstones
    }

    mutating func condition(_ filter: TaskFilter) -> String {
        switch filter {
        case .term(let term): return condition(term)
        case .not(let inner): return "NOT ((\(condition(inner))) IS TRUE)"
        case .and(let parts): return parts.isEmpty ? "1" : "(" + parts.map { condition($0) }.joined(separator: " AND ") + ")"
        case .or(let parts): return parts.isEmpty ? "0" : "(" + parts.map { condition($0) }.joined(separator: " OR ") + ")"
        case .xor(let a, let b): return "((\(condition(a))) IS TRUE) <> ((\(condition(b))) IS TRUE)"
        }
    }

    /// `?`, with `value` as its argument.
    mutating func bind(_ value: (any SQLiteBindable)?) -> String {
        arguments.append(value)
        return "?"
    }

    /// A date is past when it is a day before today, or a moment before now (see
    /// `TaskQuerySQL.whereClause`).
    mutating func past(_ column: String) -> String {
        let today = clock.today.description
        return "(\(column) < \(bind(today)) OR (\(column) > \(bind(today)) AND \(column) < \(bind(clock.now))))"
    }

    /// The uuids a task's `depends` holds, as a table (`value`).
    private static func dependencies(_ column: String) -> String {
        "json_each('[\"' || replace(trim(\(column)), ' ', '\",\"') || '\"]')"
    }

    private static let blocked = "(coalesce(task.depends, '') <> '' AND EXISTS (SELECT 1 FROM \(dependencies("task.depends")) AS d JOIN task AS b ON b.uuid = d.value WHERE b.done = 0))"

    private mutating func compare(_ column: String, _ comparison: FilterComparison, low: any SQLiteBindable, high: any SQLiteBindable) -> String {
        switch comparison {
        case .equal: return "(\(column) >= \(bind(low)) AND \(column) < \(bind(high)))"
        case .notEqual: return "(\(column) IS NULL OR \(column) < \(bind(low)) OR \(column) >= \(bind(high)))"
        case .less: return "\(column) < \(bind(low))"
        case .greater: return "\(column) >= \(bind(high))"
        case .lessOrEqual: return "\(column) < \(bind(high))"
        }
    }

    private mutating func ordered(_ value: String, _ comparison: FilterComparison, _ operand: any SQLiteBindable) -> String {
        switch comparison {
        case .equal: return "\(value) = \(bind(operand))"
        case .notEqual: return "(\(value) IS NULL OR \(value) <> \(bind(operand)))"
        case .less: return "\(value) < \(bind(operand))"
        case .greater: return "\(value) > \(bind(operand))"
        case .lessOrEqual: return "\(value) <= \(bind(operand))"
        }
    }

    private mutating func interval(_ field: QueryField, _ expression: String, _ comparison: FilterComparison, _ bounds: DateBounds) -> String {
        guard case .date(let encoding) = field.type else { return "0" }
        let (low, high) = encoding.ends(bounds)
        return compare(expression, comparison, low: low.bindable, high: high.bindable)
    }

    private mutating func condition(_ term: FilterTerm) -> String {
        switch term {
        case .text(let needle):
            if needle.count >= 3 {
                // The trigram index finds the rows (a phrase there is a substring, any case).
                return "id IN (SELECT rowid FROM task_text WHERE task_text MATCH \(bind("\"" + needle.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"")))"
            }
            return "(instr(tasks_fold(title), \(bind(needle))) > 0 OR instr(tasks_fold(notes), \(bind(needle))) > 0)"
        case .regex(let pattern):
            return "(tasks_regexp(\(bind(pattern)), title) OR tasks_regexp(\(bind(pattern)), notes))"
        case .tag(let tag):
            return "instr(tags, \(bind(" \(tag) "))) > 0"
        case .list(let name, let exact):
            if exact { return "list = \(bind(name))" }
            // `Work` and every list under it: `Work.` up to `Work/` (the byte after `.`).
            return "(list = \(bind(name)) OR (list >= \(bind(name + ".")) AND list < \(bind(name + "/"))))"
        case .ids(let ranges):
            return "(" + ranges.map { range in
                range.lowerBound == range.upperBound ? "id = \(bind(range.lowerBound))" : "id BETWEEN \(bind(range.lowerBound)) AND \(bind(range.upperBound))"
            }.joined(separator: " OR ") + ")"
        case .uuid(let prefix):
            if prefix.utf8.count == 36 { return "uuid = \(bind(prefix))" }
            return "(uuid >= \(bind(prefix)) AND uuid < \(bind(prefix + "~")))"
        case .field(let field, let comparison, let operand):
            let expression = field.sql(context)
            switch operand {
            case .none: return expression + (comparison == .equal ? " IS NULL" : " IS NOT NULL")
            case .value(let value, _)?:
                // The table's constant for a missing value, written in: the expression may be repeated.
                let compared = field.missing.map { "coalesce(\(expression), \($0.sqlLiteral))" } ?? expression
                return ordered(compared, comparison, value.bindable)
            case .date(let bounds)?: return interval(field, expression, comparison, bounds)
            }
        case .range(let field, let low, let high):
            guard case .date(let encoding) = field.type else { return "0" }
            let expression = field.sql(context)
            return "(\(expression) >= \(bind(encoding.ends(low).low.bindable)) AND \(expression) < \(bind(encoding.ends(high).high.bindable)))"
        case .match(let field, let match, let text):
            let value = "tasks_fold(\(field.sql(context)))"
            switch match {
            case .contains: return "instr(\(value), \(bind(text))) > 0"
            case .startswith: return "instr(\(value), \(bind(text))) = 1"
            case .endswith: return "tasks_ends(\(value), \(bind(text)))"
            }
        case .status(let status):
            // Without the tombstones every row is a task's; with them, a status but deleted
            // is a live row's.
            let live = tombstones ? "deleted = 0 AND " : ""
            switch status {
            case .deleted: return tombstones ? "deleted = 1" : "0"
            case .done: return "(\(live)done = 1)"
            case .waiting: return "(\(live)done = 0 AND wait > \(bind(clock.now)))"
            case .expired: return "(\(live)done = 0 AND until IS NOT NULL AND \(past("until")))"
            case .pending: return "(\(live)done = 0 AND (wait IS NULL OR wait <= \(bind(clock.now))) AND (until IS NULL OR NOT \(past("until"))))"
            }
        case .flag(let flag):
            switch flag {
            case .overdue: return "(done = 0 AND due IS NOT NULL AND \(past("due")))"
            case .active: return "start IS NOT NULL"
            case .blocked: return Self.blocked
            case .blocking:
                return "uuid IN (SELECT d.value FROM task AS p, \(Self.dependencies("p.depends")) AS d WHERE p.done = 0 AND coalesce(p.depends, '') <> '')"
            case .ready:
                // Each field that holds a task back (`scheduled`) not set, or reached.
                let reached = FieldVocabulary.heldBack.map { field in
                    let expression = field.sql(context)
                    return " AND (\(expression) IS NULL OR \(expression) <= \(bind(clock.now)))"
                }
                return "(done = 0 AND (wait IS NULL OR wait <= \(bind(clock.now))) AND NOT \(Self.blocked)\(reached.joined()))"
            case .repeating: return "repeat IS NOT NULL"
            case .annotated: return "coalesce(annotations, '') <> ''"
            case .tagged: return "coalesce(tags, '') <> ''"
            case .instance: return "series IS NOT NULL"
            case .latest: return "id = (SELECT max(id) FROM task)"
            case .parent: return "uuid IN (SELECT c.parent FROM task AS c WHERE c.parent IS NOT NULL)"
            }
        case .named(_, let filter):
            return condition(filter)
        case .subtaskOf(let ranges):
            let ids = ranges.map { "p.id BETWEEN \(bind($0.lowerBound)) AND \(bind($0.upperBound))" }.joined(separator: " OR ")
            return "parent IN (SELECT p.uuid FROM task AS p WHERE \(ids))"
        case .orphan(let declared):
            return "tasks_orphans(extras, \(bind(declared.joined(separator: " "))))"
        }
    }
}

extension QueryValue {
    /// The value bound as an SQL argument.
    public var bindable: any SQLiteBindable {
        switch self {
        case .text(let text): text
        case .integer(let number): number
        case .real(let number): number
        }
    }

    /// The value as a row holds it.
    public var sqliteValue: SQLiteValue {
        switch self {
        case .text(let text): .text(text)
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        }
    }
}

