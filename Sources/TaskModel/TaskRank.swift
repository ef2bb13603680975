/// What `tasks next` ranks by, on a given day: points for each reason to do a task first,
/// summed. Every part is shown by `--explain`, and the store orders by the same sum in SQL
/// (`TaskRank.sql`), so a ranked list streams like any other.
///
/// - due: overdue 100 points + 2 per day late (at most 30 days counted); due today 90; due
///   in 1 to 7 days 80 down to 20 (10 less per day); later, or no due date, 0
/// - priority: H 40, M 25, L 10
/// - age: 1 point per whole week since it was created, at most 10
public struct TaskRank: Equatable, Sendable {
    public struct Part: Equatable, Sendable {
        /// `due`, `priority` or `age`.
        public var name: String
        public var points: Int
        /// `overdue 3 days`, `H`, `5 weeks old`.
        public var reason: String
    }

    public let parts: [Part]
    public var score: Int { parts.reduce(0) { $0 + $1.points } }

    public init(_ task: Task, today: CalendarDay) {
        var parts: [Part] = []
        if let due = task.due {
            let days = due.day.daysSince1970 - today.daysSince1970
            if days < 0 {
                parts.append(Part(name: "due", points: 100 + 2 * min(-days, 30), reason: "overdue \(Self.count(-days, "day"))"))
            } else if days == 0 {
                parts.append(Part(name: "due", points: 90, reason: "due today"))
            } else if days <= 7 {
                parts.append(Part(name: "due", points: 80 - 10 * (days - 1), reason: "due in \(Self.count(days, "day"))"))
            }
        }
        if let priority = task.priority {
            parts.append(Part(name: "priority", points: [40, 25, 10][priority.rank], reason: priority.rawValue))
        }
        let weeks = max(0, today.daysSince1970 - Int(task.created.millisecondsSince1970 / 86_400_000)) / 7
        if weeks > 0 { parts.append(Part(name: "age", points: min(weeks, 10), reason: "\(Self.count(weeks, "week")) old")) }
        self.parts = parts
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// The same score as SQL over the task table's columns, for `today`.
    public static func sql(today: CalendarDay) -> String {
        let day = today.daysSince1970
        let days = "(CAST(julianday(substr(due, 1, 10)) - 2440587.5 AS INTEGER) - \(day))"
        return """
            (CASE WHEN due IS NULL THEN 0 WHEN \(days) < 0 THEN 100 + 2 * min(-\(days), 30) WHEN \(days) = 0 THEN 90 \
            WHEN \(days) <= 7 THEN 80 - 10 * (\(days) - 1) ELSE 0 END \
            + CASE priority WHEN 0 THEN 40 WHEN 1 THEN 25 WHEN 2 THEN 10 ELSE 0 END \
            + min(max(\(day) - created / 86400000, 0) / 7, 10))
            """
    }
}
