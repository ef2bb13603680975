import TaskModel
import TextFormats

/// `name:value` and `name.modifier:value` words: the field is looked up in the vocabulary
/// (`FilterSettings.vocabulary`), the modifier in `QueryModifier`'s one table, and the value
/// read by the field's type — so every field of a type takes the same comparisons and values.
extension FilterParser {
    /// The field a typed name names for a filter (a name, an alias, or `abbreviation.minimum` letters or more, 2 by default
    /// that begin one field's names only); nil for none.
    func field(_ typed: String) -> QueryField? { settings.vocabulary.field(typed, role: .filter) }

    func attribute(_ head: String, _ value: String, word: String, position: Int) throws(FilterError) -> TaskFilter {
        let (term, negated) = try attributeTerm(head, value, word: word, position: position)
        return negated ? .not(.term(term)) : .term(term)
    }

    /// The term of a `name:value` word, and whether the word asks for its opposite
    /// (`list.not:Work`, `tags.hasnt:x`, `tags:`).
    func attributeTerm(_ head: String, _ value: String, word: String, position: Int) throws(FilterError) -> (FilterTerm, Bool) {
        func fail(_ reason: String, _ suggestion: String? = nil) -> FilterError {
            FilterError(word: word, position: position, reason: reason, suggestion: suggestion)
        }
        let vocabulary = settings.vocabulary
        let parts = head.split(separator: ".").map(String.init)
        let typedName = parts[0]
        if typedName.lowercased() == "limit" { throw fail("limit:N stands alone, outside parentheses and operators") }
        guard let field = field(typedName) else {
            if let known = vocabulary.named(typedName) { throw fail("'\(known.name)' is not something to filter on; filter on \(vocabulary.names(.filter).joined(separator: ", "))") }
            let begun = vocabulary.begun(by: typedName, role: .filter)
            if begun.count > 1 { throw fail("'\(typedName)' begins \(begun.joined(separator: " and ")); give more of the name") }
            let close = vocabulary.closest(to: typedName, role: .filter)
            throw fail("no field '\(typedName)'; filter on \(vocabulary.names(.filter).joined(separator: ", "))",
                       close.map { ([$0] + parts.dropFirst()).joined(separator: ".") + ":" + value })
        }
        let allowed = field.type.modifiers
        var modifier = field.defaultModifier
        if parts.count == 2 {
            guard let known = QueryModifier.aliases[parts[1].lowercased()] else {
                throw fail("no modifier '\(parts[1])'; '\(field.name)' takes \(allowed.map { "." + $0 }.joined(separator: ", "))",
                           Suggestion.closest(to: parts[1].lowercased(), among: allowed).map { typedName + "." + $0 + ":" + value })
            }
            guard allowed.contains(known) else {
                throw fail("'\(field.name)' takes \(allowed.map { "." + $0 }.joined(separator: ", ")), not .\(known)")
            }
            modifier = known
        }
        let presence = modifier == "none" || modifier == "any"
        if presence, !value.isEmpty { throw fail("'.\(modifier)' takes no value: \(head):") }
        switch field.type {
        case .list:
            guard !value.isEmpty else { throw fail("'\(head):' needs a list name (every task has a list)") }
            return (.list(value, exact: parts.count == 2 && modifier == "is"), modifier == "not")
        case .status:
            let word = value.lowercased() == "completed" ? "done" : value.lowercased()
            guard let status = FilterStatus(rawValue: word) else {
                throw fail("'\(value)' is not a status; use pending, done, waiting, expired or deleted",
                           Suggestion.closest(to: word, among: FilterStatus.allCases.map(\.rawValue)).map { "status:" + $0 })
            }
            return (.status(status), modifier == "not")
        case .tags:
            if presence || value.isEmpty {
                guard presence || modifier == "is" else { throw fail("'\(head):' needs a tag") }
                return (.flag(.tagged), modifier != "any")
            }
            guard case .term(let tag) = try tagTerm(value, word: word, position: position) else { throw fail("'\(value)' is not a tag name") }
            return (tag, modifier == "not" || modifier == "hasnt")
        case .id:
            guard let ids = try idsTerm(value, { reason, _ in fail(reason) }) else { throw fail("'\(value)' is not an id or a range of ids (3, 1-3,5)") }
            return (ids, false)
        case .uuid:
            let lower = value.lowercased()
            guard lower.utf8.count >= 4, lower.utf8.allSatisfy({ Self.isHex($0) || $0 == UInt8(ascii: "-") }) else {
                throw fail("'\(value)' is not a uuid or the start of one")
            }
            return (.uuid(lower), false)
        case .text, .priority, .date, .number, .duration:
            // `parent:12`, `parent:1-3,5`: the subtasks of those tasks (a uuid is compared as text).
            if field.name == "parent", modifier == field.defaultModifier || modifier == "not", !value.isEmpty,
               value.utf8.allSatisfy({ (48...57).contains($0) || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "-") }), value.utf8.count < 8,
               case .ids(let ranges)? = try idsTerm(value, { reason, _ in fail(reason) }) {
                return (.subtaskOf(ranges), modifier == "not")
            }
            return (try compared(field, modifier: modifier, value: value, head: head, fail), false)
        case .shown:
            throw fail("'\(field.name)' is not something to filter on")
        }
    }

    /// A term comparing `field`'s value: set or not, in parts (text), or ordered by its type.
    func compared(_ field: QueryField, modifier: String, value: String, head: String,
                  _ fail: (String, String?) -> FilterError) throws(FilterError) -> FilterTerm {
        if modifier == "none" || modifier == "any" { return .field(field, modifier == "none" ? .equal : .notEqual, nil) }
        if let match = TextMatch(rawValue: modifier) {
            guard !value.isEmpty else { throw fail("'\(head):' needs text", nil) }
            return .match(field, match, TaskQuery.foldCase(value))
        }
        let comparison = QueryModifier.comparison(modifier) ?? .equal
        if value.isEmpty {
            guard comparison == .equal || comparison == .notEqual else { throw fail("'\(head):' needs a value", nil) }
            return .field(field, comparison, nil)
        }
        let dates = settings.dates
        switch field.type {
        case .priority:
            guard let priority = Priority(rawValue: value.uppercased()) else { throw fail("'\(value)' is not a priority; use H, M or L", nil) }
            return .field(field, comparison, .value(.integer(Int64(3 - priority.rank)), shown: priority.rawValue))
        case .date:
            do throws(DateGrammarError) {
                return .field(field, comparison, .date(DateBounds(try DateGrammar.date(value, in: dates), zone: dates.zone)))
            } catch {
                let close = Suggestion.closest(to: value.lowercased(), among: DateGrammar.namedDays + CalendarDay.weekdayNames)
                let kind = field.custom == nil ? "" : " (\(field.name) is a date field)"
                throw fail("'\(value)' is not a date\(kind); use \(DateGrammar.forms)", field.custom == nil ? close.map { head + ":" + $0 } : nil)
            }
        case .number:
            guard let number = Double(value), number.isFinite else { throw fail("'\(value)' is not a number (\(field.name) is a number field)", nil) }
            let shown = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            return .field(field, comparison, .value(.real(number), shown: shown))
        case .duration:
            guard let seconds = CustomField.seconds(value) else {
                throw fail("'\(value)' is not a length of time (\(field.name) is a duration field); use 3h, 90min, 2d, 1w, 1h30min or PT3H", nil)
            }
            return .field(field, comparison, .value(.integer(seconds), shown: "\(seconds)s"))
        default:
            var text = value
            if let custom = field.custom {
                // A custom field's value as it is kept: its declared values checked, unquoted.
                let stored: String?
                do throws(CustomField.Refusal) {
                    stored = try custom.stored(value, in: dates)
                } catch {
                    throw fail(error.message, nil)
                }
                guard let stored else { throw fail("'\(head):' needs a value", nil) }
                text = CustomField.unquoted(stored) ?? stored
            }
            return .field(field, comparison, .value(.text(text), shown: text))
        }
    }

    /// `priority:H` as a term (`--priority H`).
    public static func priorityTerm(_ priority: Priority) -> FilterTerm? {
        FieldVocabulary.builtIn.named("priority").map { .field($0, .equal, .value(.integer(Int64(3 - priority.rank)), shown: priority.rawValue)) }
    }
}
