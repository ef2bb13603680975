import TaskModel
import TextFormats

/// One key of a report's order, `due` or `priority-`: a field of the vocabulary
/// (`FieldVocabulary`, any entry that sorts — custom fields too), and which way. A task
/// without the field (no due date, no priority) sorts after those with it whichever way the
/// key runs, as Taskwarrior and every other list does: `due-` is the latest first, undated
/// still last. The order is the field's `order` parts, in Swift here and in SQL in the store.
public struct SortKey: Hashable, Sendable, CustomStringConvertible {
    public var field: QueryField
    public var descending: Bool

    public init(_ field: QueryField, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }

    /// The built-in field called `name`, for the orders written in code (the built-in reports);
    /// the id when there is none (a test walks every built-in report).
    public static func named(_ name: String, descending: Bool = false) -> SortKey {
        let vocabulary = FieldVocabulary.builtIn
        let field = vocabulary.field(name, role: .sort) ?? vocabulary.named("id")
        return SortKey(field ?? FieldVocabulary.entry(CustomField(name: name, kind: .string)), descending: descending)
    }

    /// `due`, `priority-` (`+` is ascending, written or not).
    public var description: String { field.name + (descending ? "-" : "") }

    /// Reads `due,priority-` (commas or spaces between keys) — names, aliases and
    /// abbreviations as filters read them: the keys, or why not, naming the word.
    public static func parse(_ text: String, vocabulary: FieldVocabulary = .builtIn) throws(SortKeyError) -> [SortKey] {
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
            guard let field = vocabulary.field(String(name), role: .sort) else {
                throw SortKeyError(word: String(word), suggestion: vocabulary.closest(to: String(name), role: .sort),
                                   keys: vocabulary.names(.sort))
            }
            if keys.contains(where: { $0.field == field }) { continue }
            keys.append(SortKey(field, descending: descending))
        }
        guard !keys.isEmpty else { throw SortKeyError(word: text, suggestion: nil, keys: vocabulary.names(.sort)) }
        return keys
    }

    /// Whether `a` comes before `b` by this key alone (`nil`: they tie on it), on `today` for
    /// the score; a task without the field after every task with it.
    public func orders(_ a: Task, _ b: Task, today: CalendarDay, weights: TaskRank.Weights = .standard) -> Bool? {
        for part in field.order(descending: descending, in: QueryContext(today: today, weights: weights)) {
            let order = QueryValue.compare(part.value(a), part.value(b))
            if order != 0 { return (order < 0) != part.descending }
        }
        return nil
    }
}

/// A word of `--sort` that names no key.
public struct SortKeyError: Error, Equatable, Sendable {
    public let word: String
    public let suggestion: String?
    /// The keys there are.
    public let keys: [String]

    public var message: String {
        "'\(word)' is not an order" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
            + "; sort by " + keys.joined(separator: ", ") + ", each with - for descending (due,priority-)"
    }
}
