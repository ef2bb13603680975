import TaskModel
import TextFormats

/// One of the configuration's colour rules (`color.overdue = bold red`): its key, its style,
/// and the filter that says which tasks it colours — the words of the query language, so a
/// rule selects what the same words select in `tasks list` (`color.tag.bills` is `+bills`,
/// `color.overdue` is `+OVERDUE`, `color.uda.priority.H` is `priority:H`).
public struct ColorRule: Equatable, Sendable {
    public let key: String
    public let style: TerminalStyle
    public let filter: TaskFilter
    /// Whether the filter asks about other tasks (`+BLOCKED`, `+BLOCKING`): a row alone cannot
    /// say, so the store is asked for the rows it selects (`ColorRules.style(for:…)`).
    public let asksOthers: Bool

    public init(key: String, style: TerminalStyle, filter: TaskFilter) {
        self.key = key
        self.style = style
        self.filter = filter
        self.asksOthers = filter.asksOtherTasks
    }
}

/// The colour rules in force, by Taskwarrior's `rule.precedence.color` (the first the
/// strongest) and `rule.color.merge`: each rule a task meets is drawn over the weaker ones
/// (merged: attributes add up and the stronger colour wins; not merged: the strongest rule
/// alone). A task tagged `nocolor` is never coloured, as in Taskwarrior.
public struct ColorRules: Equatable, Sendable {
    /// Strongest first.
    public var rules: [ColorRule]
    public var merges: Bool

    public init(rules: [ColorRule], merges: Bool = true) {
        self.rules = rules
        self.merges = merges
    }

    public static let none = ColorRules(rules: [])

    public var isEmpty: Bool { rules.isEmpty }

    /// Taskwarrior 2.6's order of the rules (its `rule.precedence.color` default).
    public static let defaultPrecedence = ["deleted", "completed", "active", "keyword.", "tag.", "project.", "overdue", "scheduled",
                                           "due.today", "due", "blocked", "blocking", "recurring", "tagged", "uda."]

    /// The style of `task`'s row on `clock`, nil when no rule colours it. `othersSay(index)`
    /// answers for a rule that asks about other tasks (`asksOthers`): whether its filter
    /// selects this task.
    public func style(for task: Task, clock: FilterClock, othersSay: (Int) -> Bool = { _ in false }) -> TerminalStyle? {
        guard !rules.isEmpty, !task.tags.contains("nocolor") else { return nil }
        var style = TerminalStyle()
        for index in rules.indices.reversed() {
            let rule = rules[index]
            let meets = rule.asksOthers ? othersSay(index) : rule.filter.matches(task, clock: clock)
            guard meets else { continue }
            style = merges ? style.blended(with: rule.style) : rule.style
        }
        return style.isPlain ? nil : style
    }
}

extension TaskFilter {
    /// Whether what it selects depends on other tasks than the one it is asked about.
    var asksOtherTasks: Bool {
        switch self {
        case .term(let term):
            switch term {
            case .flag(let flag): return [.blocked, .blocking, .parent, .latest].contains(flag)
            case .named(_, let inner): return inner.asksOtherTasks
            case .subtaskOf: return true
            default: return false
            }
        case .not(let inner): return inner.asksOtherTasks
        case .and(let parts), .or(let parts): return parts.contains(where: \.asksOtherTasks)
        case .xor(let a, let b): return a.asksOtherTasks || b.asksOtherTasks
        }
    }
}
