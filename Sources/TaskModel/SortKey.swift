import TextFormats

/// One key of a report's order, `due` or `priority-`: a field, and which way. A task without
/// the field (no due date, no priority) sorts after those with it whichever way the key runs,
/// as Taskwarrior and every other list does: `due-` is the latest first, undated still last.
public struct SortKey: Hashable, Sendable, CustomStringConvertible {
    public enum Field: String, CaseIterable, Sendable {
        case id, title, list, due, priority, created, modified, completed, wait, scheduled, until, start
        /// `tasks next`'s score: `score-` is the highest first (what `next` shows).
        case score
        /// The manual order inside a list (`tasks move`).
        case position
    }

    public var field: Field
    public var descending: Bool

    public init(_ field: Field, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }

    /// `due`, `priority-` (`+` is ascending, written or not).
    public var description: String { field.rawValue + (descending ? "-" : "") }

    /// Other names a key is known by: Taskwarrior's (`urgency`, `entry`, `end`, `project`,
    /// `description`, `start` is ours too).
    static let aliases: [String: Field] = [
        "urgency": .score, "entry": .created, "end": .completed, "project": .list, "description": .title,
        "started": .start, "manual": .position,
    ]

    /// Reads `due,priority-` (commas or spaces between keys): the keys, or why not, naming the
    /// word and the keys there are.
    public static func parse(_ text: String) throws(SortKeyError) -> [SortKey] {
        var keys: [SortKey] = []
        for word in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            var name = Substring(word)
            var descending = false
            if name.hasSuffix("-") {
                descending = true
                name = name.dropLast()
            } else if name.hasSuffix("+") {
                name = name.dropLast()
            }
            let lowered = name.lowercased()
            guard let field = Field(rawValue: lowered) ?? aliases[lowered] else {
                throw SortKeyError(word: String(word), suggestion: Suggestion.closest(to: lowered, among: Field.allCases.map(\.rawValue)))
            }
            if keys.contains(where: { $0.field == field }) { continue }
            keys.append(SortKey(field, descending: descending))
        }
        guard !keys.isEmpty else { throw SortKeyError(word: text, suggestion: nil) }
        return keys
    }

    /// Whether `a` comes before `b` by this key alone (`nil`: they tie on it), on `today` for
    /// the score; a task without the field after every task with it.
    public func orders(_ a: Task, _ b: Task, today: CalendarDay, weights: TaskRank.Weights = .standard) -> Bool? {
        func compare<T: Comparable>(_ x: T?, _ y: T?) -> Bool? {
            switch (x, y) {
            case let (x?, y?): return x == y ? nil : (x < y) != descending
            case (.some, .none): return true
            case (.none, .some): return false
            case (.none, .none): return nil
            }
        }
        switch field {
        case .id: return compare(a.id, b.id)
        case .title:
            // Byte order of the UTF-8, as SQLite's BINARY collation compares.
            if a.title == b.title { return nil }
            return Array(a.title.utf8).lexicographicallyPrecedes(b.title.utf8) != descending
        case .list:
            if a.list == b.list { return nil }
            return Array(a.list.utf8).lexicographicallyPrecedes(b.list.utf8) != descending
        case .due: return compare(a.due?.description, b.due?.description)
        case .wait: return compare(a.wait?.description, b.wait?.description)
        case .scheduled: return compare(a.scheduled?.description, b.scheduled?.description)
        case .until: return compare(a.until?.description, b.until?.description)
        // Low to high, as Taskwarrior compares them: `priority-` is H first.
        case .priority: return compare(a.priority.map { 2 - $0.rank }, b.priority.map { 2 - $0.rank })
        case .created: return compare(a.created.millisecondsSince1970, b.created.millisecondsSince1970)
        case .modified: return compare(a.modified.millisecondsSince1970, b.modified.millisecondsSince1970)
        case .completed: return compare(a.completed?.millisecondsSince1970, b.completed?.millisecondsSince1970)
        case .start: return compare(a.start?.millisecondsSince1970, b.start?.millisecondsSince1970)
        case .score: return compare(TaskRank(a, today: today, weights: weights).score, TaskRank(b, today: today, weights: weights).score)
        case .position:
            if a.list != b.list { return Array(a.list.utf8).lexicographicallyPrecedes(b.list.utf8) != descending }
            return compare(a.position, b.position)
        }
    }
}

/// A word of `--sort` that names no key.
public struct SortKeyError: Error, Equatable, Sendable {
    public let word: String
    public let suggestion: String?

    public var message: String {
        "'\(word)' is not an order" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
            + "; sort by " + SortKey.Field.allCases.map(\.rawValue).joined(separator: ", ") + ", each with - for descending (due,priority-)"
    }
}
