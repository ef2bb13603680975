/// What `tasks next` ranks by, on a given day: points for each reason to do a task first,
/// summed. Every part is shown by `--explain`, and the store orders by the same sum in SQL
/// (`TaskRank.sql`), so a ranked list streams like any other.
///
/// - due: overdue 100 points + 2 per day late (at most 30 days counted); due today 90; due
///   in 1 to 7 days 80 down to 20 (10 less per day); later, or no due date, 0
/// - priority: H 40, M 25, L 10
/// - age: 1 point per whole week since it was created, at most 10
///
/// Each number is a weight the configuration can change (`next.priority.high = 60`): `Weights`.
public struct TaskRank: Equatable, Sendable {
    /// The points of each reason. Caps (30 days late, 7 days ahead, 10 weeks old) stay.
    public struct Weights: Hashable, Sendable {
        public var overdue = 100, perDayLate = 2, dueToday = 90, dueTomorrow = 80, perDayAhead = 10
        public var high = 40, medium = 25, low = 10
        public var perWeek = 1, maxAge = 10

        public init() {}
        public static let standard = Weights()

        /// The configuration's key of each weight (`next.due.today`), and where it is kept.
        public static let keys: [(String, WritableKeyPath<Weights, Int> & Sendable)] = [
            ("next.due.overdue", \.overdue), ("next.due.per_day_late", \.perDayLate), ("next.due.today", \.dueToday),
            ("next.due.tomorrow", \.dueTomorrow), ("next.due.per_day", \.perDayAhead), ("next.priority.high", \.high),
            ("next.priority.medium", \.medium), ("next.priority.low", \.low), ("next.age.per_week", \.perWeek), ("next.age.max", \.maxAge),
        ]
    }

    public struct Part: Equatable, Sendable {
        /// `due`, `priority` or `age`.
        public var name: String
        public var points: Int
        /// `overdue 3 days`, `H`, `5 weeks old`.
        public var reason: String
    }

    public let parts: [Part]
    public var score: Int { parts.reduce(0) { $0 + $1.points } }

    public init(_ task: Task, today: CalendarDay, weights w: Weights = .standard) {
        var parts: [Part] = []
        if let due = task.due {
            let days = due.day.daysSince1970 - today.daysSince1970
            if days < 0 {
                parts.append(Part(name: "due", points: w.overdue + w.perDayLate * min(-days, 30), reason: "overdue \(Self.count(-days, "day"))"))
            } else if days == 0 {
                parts.append(Part(name: "due", points: w.dueToday, reason: "due today"))
            } else if days <= 7 {
                parts.append(Part(name: "due", points: w.dueTomorrow - w.perDayAhead * (days - 1), reason: "due in \(Self.count(days, "day"))"))
            }
        }
        if let priority = task.priority {
            parts.append(Part(name: "priority", points: [w.high, w.medium, w.low][priority.rank], reason: priority.rawValue))
        }
        let weeks = max(0, today.daysSince1970 - Int(task.created.millisecondsSince1970 / 86_400_000)) / 7
        if weeks > 0 { parts.append(Part(name: "age", points: min(weeks * w.perWeek, w.maxAge), reason: "\(Self.count(weeks, "week")) old")) }
        self.parts = parts
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// The same score as SQL over the task table's columns, for `today`.
    public static func sql(today: CalendarDay, weights w: Weights = .standard) -> String {
        let day = today.daysSince1970
        let days = "(CAST(julianday(substr(due, 1, 10)) - 2440587.5 AS INTEGER) - \(day))"
        return """
            (CASE WHEN due IS NULL THEN 0 WHEN \(days) < 0 THEN \(w.overdue) + \(w.perDayLate) * min(-\(days), 30) WHEN \(days) = 0 THEN \(w.dueToday) \
            WHEN \(days) <= 7 THEN \(w.dueTomorrow) - \(w.perDayAhead) * (\(days) - 1) ELSE 0 END \
            + CASE priority WHEN 0 THEN \(w.high) WHEN 1 THEN \(w.medium) WHEN 2 THEN \(w.low) ELSE 0 END \
            + min(max(\(day) - created / 86400000, 0) / 7 * \(w.perWeek), \(w.maxAge)))
            """
    }
}
