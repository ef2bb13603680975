import TaskModel
import TextFormats

/// A filter: the words of a command line (`+bills list:Home due.before:eow`), a context's or a
/// report's, parsed once by `FilterParser` into a tree of terms. The store evaluates it in SQL
/// (`TaskFilterSQL`); `matches` states the same rules in Swift, and a test keeps them equal.
public indirect enum TaskFilter: Hashable, Sendable {
    case term(FilterTerm)
    case not(TaskFilter)
    case and([TaskFilter])
    case or([TaskFilter])
    case xor(TaskFilter, TaskFilter)

    /// Both, as one conjunction (nested conjunctions flattened; each side keeps its own
    /// parentheses, so nothing of one leaks into the other).
    public static func all(_ filters: [TaskFilter?]) -> TaskFilter? {
        var parts: [TaskFilter] = []
        for filter in filters {
            switch filter {
            case .none: break
            case .and(let inner)?: parts += inner
            case let other?: parts.append(other)
            }
        }
        if parts.isEmpty { return nil }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Whether it decides by itself which statuses show: it names a status (`status:done`,
    /// `+DONE`, `+WAITING`) or tasks by id or uuid. Then a report's default (pending, not
    /// waiting) is not added: `tasks list status:done` lists done tasks, `tasks done 3` finds
    /// task 3 whatever it is.
    public var choosesStatus: Bool {
        switch self {
        case .term(let term): return term.choosesStatus
        case .not(let inner): return inner.choosesStatus
        case .and(let parts), .or(let parts): return parts.contains { $0.choosesStatus }
        case .xor(let a, let b): return a.choosesStatus || b.choosesStatus
        }
    }

    /// Whether it names deleted tasks (`status:deleted`, `+DELETED`) anywhere: then, and only
    /// then, the tombstones are read with the tasks.
    public var namesDeleted: Bool {
        switch self {
        case .term(.status(.deleted)): return true
        case .term(.named(_, let filter)): return filter.namesDeleted
        case .term: return false
        case .not(let inner): return inner.namesDeleted
        case .and(let parts), .or(let parts): return parts.contains { $0.namesDeleted }
        case .xor(let a, let b): return a.namesDeleted || b.namesDeleted
        }
    }

    /// Whether it is only ids, uuids and their combinations: a change chosen this way never
    /// asks for confirmation.
    public var isOnlyIDs: Bool {
        switch self {
        case .term(let term):
            switch term {
            case .ids, .uuid: return true
            default: return false
            }
        case .or(let parts): return parts.allSatisfy(\.isOnlyIDs)
        case .and(let parts): return parts.count == 1 && parts[0].isOnlyIDs
        case .not, .xor: return false
        }
    }

    /// The uuids and uuid prefixes the filter names (`01a24935`), wherever they are in it.
    public var uuidPrefixes: [String] {
        switch self {
        case .term(let term):
            if case .uuid(let prefix) = term { return [prefix] }
            return []
        case .or(let parts), .and(let parts): return parts.flatMap(\.uuidPrefixes)
        case .xor(let a, let b): return a.uuidPrefixes + b.uuidPrefixes
        case .not: return []  // leaving tasks out chooses none by it
        }
    }

    /// Whether `task` passes, on `clock`, with `world` answering for other tasks (dependencies).
    public func matches(_ task: Task, clock: FilterClock, world: FilterWorld = .unknown) -> Bool {
        switch self {
        case .term(let term): return term.matches(task, clock: clock, world: world)
        case .not(let inner): return !inner.matches(task, clock: clock, world: world)
        case .and(let parts): return parts.allSatisfy { $0.matches(task, clock: clock, world: world) }
        case .or(let parts): return parts.contains { $0.matches(task, clock: clock, world: world) }
        case .xor(let a, let b): return a.matches(task, clock: clock, world: world) != b.matches(task, clock: clock, world: world)
        }
    }

    /// The tree, one node per line, indented: what `--explain` prints.
    public func explained(indent: Int = 0) -> [String] {
        let pad = String(repeating: "  ", count: indent)
        switch self {
        case .term(let term): return [pad + term.description]
        case .not(let inner): return [pad + "not"] + inner.explained(indent: indent + 1)
        case .and(let parts): return [pad + "and"] + parts.flatMap { $0.explained(indent: indent + 1) }
        case .or(let parts): return [pad + "or"] + parts.flatMap { $0.explained(indent: indent + 1) }
        case .xor(let a, let b): return [pad + "xor"] + a.explained(indent: indent + 1) + b.explained(indent: indent + 1)
        }
    }
}

/// The clock a filter is read on: the local day and the clock's reading (`TaskDate.reading`),
/// for what is past, waiting or expired.
public struct FilterClock: Hashable, Sendable {
    public var today: CalendarDay
    /// The reading with `~` after it: a moment at this very second is no longer ahead.
    public var now: String

    public init(today: CalendarDay, reading: String) {
        self.today = today
        self.now = reading + "~"
    }

    func isPast(_ date: TaskDate) -> Bool {
        let text = date.description
        return text < today.description || (text > today.description && text < now)
    }

    func isAhead(_ date: TaskDate) -> Bool { date.description > now }
}

/// What a filter needs to know of other tasks: whether the task of a uuid is pending (a
/// dependency on it blocks), and whether a pending task waits on a uuid (its task blocks).
public struct FilterWorld: Sendable {
    public var isPending: @Sendable (String) -> Bool?
    public var isWaitedOn: @Sendable (String) -> Bool?
    /// Whether another task is a subtask of the task of this uuid (`+PARENT`); nil: not known.
    public var hasSubtasks: @Sendable (String) -> Bool? = { _ in nil }
    /// The id of the task of this uuid (`parent:12`); nil: not known.
    public var idOf: @Sendable (String) -> Int64? = { _ in nil }
    /// The highest id there is (`+LATEST`); nil: not known.
    public var latestID: Int64?

    public init(isPending: @escaping @Sendable (String) -> Bool?, isWaitedOn: @escaping @Sendable (String) -> Bool?) {
        self.isPending = isPending
        self.isWaitedOn = isWaitedOn
    }

    /// Nothing known: a task with dependencies counts as blocked, none as blocking (what a
    /// reactor placing one changed task can say without reading the others).
    public static let unknown = FilterWorld(isPending: { _ in nil }, isWaitedOn: { _ in nil })

    /// Everything known, from every task there is.
    public static func of(_ tasks: [Task]) -> FilterWorld {
        let pending = Set(tasks.filter { !$0.isDone }.map(\.uuid))
        let waitedOn = Set(tasks.filter { !$0.isDone }.flatMap(\.depends))
        var world = FilterWorld(isPending: { pending.contains($0) }, isWaitedOn: { waitedOn.contains($0) })
        let parents = Set(tasks.compactMap(\.parent))
        world.hasSubtasks = { parents.contains($0) }
        let ids = Dictionary(tasks.map { ($0.uuid, $0.id) }, uniquingKeysWith: { first, _ in first })
        world.idOf = { ids[$0] }
        world.latestID = tasks.map(\.id).max()
        return world
    }
}

/// How a value is compared with a term's operand.
public enum FilterComparison: String, Hashable, Sendable {
    /// `name:value` or `name.is:value`; with no value, `name:` — the field is not set.
    case equal = "is"
    /// `name.not:value`: anything else, unset included; with no value — the field is set.
    case notEqual = "not"
    /// `name.before:value` (`below`, `under`): strictly before (a priority: lower).
    case less = "before"
    /// `name.after:value` (`above`, `over`): strictly after (a priority: higher).
    case greater = "after"
    /// `name.by:value`: on or before.
    case lessOrEqual = "by"
}

/// How text is matched: `title.contains:`, `title.startswith:`, `title.endswith:`.
public enum TextMatch: String, Hashable, Sendable {
    case contains, startswith, endswith
}

/// A day or a moment as the interval it covers, in each of the three ways a date is kept:
/// `[low, high)`. A day covers its 24 hours; a moment its second.
public struct DateBounds: Hashable, Sendable {
    /// As `TaskDate` text: `2026-12-04` and `2026-12-04~` for a day (every moment of the day
    /// sorts between), the reading and the reading with `~` for a moment.
    public let lowText: String, highText: String
    /// As milliseconds since 1970 (completed, created, modified).
    public let lowTime: Int64, highTime: Int64
    /// As Taskwarrior's UTC text (`20261204T000000Z`): custom date fields.
    public let lowStamp: String, highStamp: String
    /// As typed, resolved: what `--explain` shows.
    public let shown: String

    public init(_ date: TaskDate, zone: LocalTime) {
        if date.isDay {
            let day = date.day
            let next = day.adding(days: 1) ?? day
            lowText = day.description
            highText = day.description + "~"
            lowTime = zone.midnight(day).millisecondsSince1970
            highTime = zone.midnight(next).millisecondsSince1970
        } else {
            lowText = String(date.reading)
            highText = lowText + "~"
            let time = (date.time?.millisecondsSince1970 ?? 0) / 1000 * 1000
            lowTime = time
            highTime = time + 1000
        }
        lowStamp = TimestampText.taskwarrior(Timestamp(millisecondsSince1970: lowTime))
        highStamp = TimestampText.taskwarrior(Timestamp(millisecondsSince1970: highTime))
        shown = date.description
    }

    /// Whether a value compares with the interval from `low` to `high` as `comparison` says.
    static func compare(_ value: QueryValue?, _ comparison: FilterComparison, low: QueryValue, high: QueryValue) -> Bool {
        guard let value else { return comparison == .notEqual }
        let within = QueryValue.compare(value, low) >= 0 && QueryValue.compare(value, high) < 0
        switch comparison {
        case .equal: return within
        case .notEqual: return !within
        case .less: return QueryValue.compare(value, low) < 0
        case .greater: return QueryValue.compare(value, high) >= 0
        case .lessOrEqual: return QueryValue.compare(value, high) < 0
        }
    }
}

/// The statuses `status:` names.
public enum FilterStatus: String, CaseIterable, Hashable, Sendable {
    /// Not done, not waiting, not expired.
    case pending
    case done
    /// Not done, its wait still ahead.
    case waiting
    /// Not done, its until past.
    case expired
    /// Deleted: a tombstone, out of the task table, read only by a filter that names it.
    case deleted
}

/// The virtual tags that are not a status or a date range: `+ACTIVE`, `+BLOCKED`, ….
public enum FilterFlag: String, CaseIterable, Hashable, Sendable {
    /// Not done, due past.
    case overdue = "OVERDUE"
    case active = "ACTIVE"
    /// Waiting on a task that is pending.
    case blocked = "BLOCKED"
    /// A pending task waits on it.
    case blocking = "BLOCKING"
    /// Pending, not waiting, not blocked, each date that holds it back (if set) reached.
    case ready = "READY"
    case repeating = "REPEATING"
    case annotated = "ANNOTATED"
    case tagged = "TAGGED"
    /// Made from a repeating task's rule: it belongs to a series (Taskwarrior's instances).
    case instance = "INSTANCE"
    /// The task added last (the highest id).
    case latest = "LATEST"
    /// Another task is its subtask (`--parent`; Taskwarrior's templates are not kept here).
    case parent = "PARENT"
}

/// What a field's value is compared with: a value (`priority:H` as 3, `points:5`, `size:M`)
/// with how `--explain` shows it, or a day or a moment as the interval it covers.
public enum FieldOperand: Hashable, Sendable {
    case value(QueryValue, shown: String)
    case date(DateBounds)

    public var shown: String {
        switch self {
        case .value(_, let shown): shown
        case .date(let bounds): bounds.shown
        }
    }
}

/// One word of a filter, read.
public indirect enum FilterTerm: Hashable, Sendable, CustomStringConvertible {
    /// A word or a phrase: a case-folded substring of the title or the notes.
    case text(String)
    /// `/pattern/`: a regular expression over the title or the notes.
    case regex(String)
    /// `+tag` (a `-tag` is `.not(.term(.tag))`).
    case tag(String)
    /// `list:Work` (`Work` and `Work.*`), or `list.is:Work` (exact).
    case list(String, exact: Bool)
    /// `3`, `1-3,5`.
    case ids([ClosedRange<Int64>])
    /// A uuid, or its first 8 or more hex digits (lower case).
    case uuid(String)
    /// A field compared with a value (`priority:H`, `due.before:eow`, `points.after:3`); nil:
    /// the field is not set (`due:`) or is (`due.not:`, `due.any:`).
    case field(QueryField, FilterComparison, FieldOperand?)
    case status(FilterStatus)
    case flag(FilterFlag)
    /// A text field's value in parts: `title.contains:`, `size.startswith:` (case-folded).
    case match(QueryField, TextMatch, String)
    /// On or after the low bounds, on or before the high ones (`+WEEK`: `sow` through `eow`).
    case range(QueryField, DateBounds, DateBounds)
    /// `+TODAY`, `+UNBLOCKED` and the other virtual tags made of other terms: the name, and
    /// the filter it stands for.
    case named(String, TaskFilter)
    /// A member of `extras` that is no declared custom field (these names) and none Taskwarrior's
    /// import keeps there (`+ORPHAN`).
    case orphan([String])
    /// A subtask of one of the tasks of these ids (`parent:12`).
    case subtaskOf([ClosedRange<Int64>])

    var choosesStatus: Bool {
        switch self {
        case .status, .ids, .uuid: return true
        case .named(_, let filter): return filter.choosesStatus
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .text(let text): return "text contains \"\(text)\""
        case .regex(let pattern): return "text matches /\(pattern)/"
        case .tag(let tag): return "+\(tag)"
        case .list(let name, let exact): return exact ? "list.is:\(name)" : "list:\(name) (and \(name).*)"
        case .ids(let ranges): return "id " + ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
        case .uuid(let prefix): return "uuid \(prefix)" + (prefix.utf8.count < 36 ? "…" : "")
        case .field(let field, let comparison, let operand):
            return field.name + (comparison == .equal ? "" : "." + comparison.rawValue) + ":" + (operand?.shown ?? "")
                + (operand == nil ? (comparison == .equal ? " (none)" : " (any)") : "")
        case .range(let field, let low, let high): return "\(field.name) from \(low.shown) through \(high.shown)"
        case .match(let field, let match, let text): return "\(field.name).\(match.rawValue):\(text)"
        case .status(let status): return "status:\(status.rawValue)"
        case .flag(let flag): return "+\(flag.rawValue)"
        case .named(let name, let filter): return "+\(name) (\(filter.oneLine))"
        case .orphan: return "+ORPHAN (a member of extras that is no custom field)"
        case .subtaskOf(let ranges):
            return "parent is task " + ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
        }
    }
}

/// Regular expressions of `/pattern/` words: Swift's `Regex`, case-insensitive, matched
/// anywhere in the text.
public enum FilterRegex {
    /// Why `pattern` is not a regular expression, or nil when it is one.
    public static func refusal(_ pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "\(error)"
        }
    }

    public static func matches(_ pattern: String, _ text: String) -> Bool {
        matcher(pattern)?(text) ?? false
    }

    /// The test for `pattern`, compiled once (nil: not a regular expression).
    public static func matcher(_ pattern: String) -> ((String) -> Bool)? {
        guard let regex = try? Regex(pattern).ignoresCase() else { return nil }
        return { $0.contains(regex) }
    }
}
