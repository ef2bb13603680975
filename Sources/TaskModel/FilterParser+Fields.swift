import TextFormats

/// `name:value` and `name.modifier:value` words: the built-in fields and the custom ones.
extension FilterParser {
    /// The field a typed name names: one of the names, a custom field, or an abbreviation of
    /// three letters or more that only one of them begins with; nil for none.
    func fieldName(_ typed: String) -> String? {
        let lowered = typed.lowercased()
        if let known = Self.names[lowered] { return known }
        if settings.customFields[typed] != nil { return typed }
        let every = Array(Self.names.keys) + Array(settings.customFields.keys)
        let prefixed = Set(every.filter { $0.hasPrefix(lowered) }.map { Self.names[$0] ?? $0 })
        return lowered.count >= 3 && prefixed.count == 1 ? prefixed.first : nil
    }

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
        let parts = head.split(separator: ".").map(String.init)
        let typedName = parts[0]
        let lowered = typedName.lowercased()
        let custom = settings.customFields[typedName]
        let name: String
        if let known = fieldName(typedName) {
            name = known
        } else {
            let every = Array(Self.names.keys) + Array(settings.customFields.keys)
            let close = Suggestion.closest(to: lowered, among: every.sorted())
            let declared = settings.customFields.isEmpty ? "" : ", or a custom field (\(settings.customFields.keys.sorted().joined(separator: ", ")))"
            throw fail("no field '\(typedName)'; filter on list, priority, due, wait, scheduled, until, completed, created, modified, status, title, tags, id, uuid\(declared)",
                       close.map { ([$0] + parts.dropFirst()).joined(separator: ".") + ":" + value })
        }
        var modifier = "default"
        if parts.count == 2 {
            guard let known = Self.modifiers[parts[1].lowercased()] else {
                throw fail("no modifier '\(parts[1])'; use is, not, before, after, by, none, any, contains, startswith, endswith",
                           Suggestion.closest(to: parts[1].lowercased(), among: Self.modifiers.keys.sorted()).map { typedName + "." + $0 + ":" + value })
            }
            modifier = known
        }
        let dates = settings.dates
        func comparison(_ allowed: [String]) throws(FilterError) -> FilterComparison? {
            guard allowed.contains(modifier) || modifier == "default" else {
                throw fail("'\(name)' takes \(allowed.map { "." + $0 }.joined(separator: ", ")), not .\(modifier)")
            }
            switch modifier {
            case "default", "is": return .equal
            case "not": return .notEqual
            case "before": return .less
            case "after": return .greater
            case "by": return .lessOrEqual
            default: return nil
            }
        }
        func date(_ target: DateTarget) throws(FilterError) -> FilterTerm {
            let chosen = try comparison(["is", "not", "before", "after", "by", "none", "any"])
            if modifier == "none" || modifier == "any" {
                guard value.isEmpty else { throw fail("'.\(modifier)' takes no value: \(head):") }
                return .date(target, modifier == "none" ? .equal : .notEqual, nil)
            }
            if value.isEmpty {
                guard chosen == .equal || chosen == .notEqual else { throw fail("'\(head):' needs a date") }
                return .date(target, chosen ?? .equal, nil)
            }
            do throws(DateGrammarError) {
                let resolved = try DateGrammar.date(value, in: dates)
                return .date(target, chosen ?? .equal, DateBounds(resolved, zone: dates.zone))
            } catch {
                let close = Suggestion.closest(to: value.lowercased(), among: ["today", "tomorrow", "yesterday", "someday", "now"] + CalendarDay.weekdayNames
                                                + ["eow", "eom", "eoq", "eoy", "sow", "som", "soq", "soy"])
                throw fail("'\(value)' is not a date; use \(DateGrammar.forms)", close.map { head + ":" + $0 })
            }
        }
        switch name {
        case "list":
            _ = try comparison(["is", "not"])
            guard !value.isEmpty else { throw fail("'\(head):' needs a list name (every task has a list)") }
            return (.list(value, exact: modifier == "is"), modifier == "not")
        case "priority":
            let chosen = try comparison(["is", "not", "before", "after", "by", "none", "any"])
            if modifier == "none" { return (.priority(.equal, nil), false) }
            if modifier == "any" { return (.priority(.notEqual, nil), false) }
            if value.isEmpty {
                guard chosen == .equal || chosen == .notEqual else { throw fail("'\(head):' needs H, M or L") }
                return (.priority(chosen ?? .equal, nil), false)
            }
            guard let priority = Priority(rawValue: value.uppercased()) else { throw fail("'\(value)' is not a priority; use H, M or L") }
            return (.priority(chosen ?? .equal, priority), false)
        case "due": return (try date(.due), false)
        case "wait": return (try date(.wait), false)
        case "scheduled": return (try date(.scheduled), false)
        case "until": return (try date(.until), false)
        case "completed": return (try date(.completed), false)
        case "created": return (try date(.created), false)
        case "modified": return (try date(.modified), false)
        case "status":
            _ = try comparison(["is", "not"])
            let word = value.lowercased() == "completed" ? "done" : value.lowercased()
            guard let status = FilterStatus(rawValue: word) else {
                if word == "deleted" { throw fail("deleted tasks are not in the task table; 'tasks history' lists deletions and 'tasks undo' brings one back") }
                throw fail("'\(value)' is not a status; use pending, done, waiting or expired",
                           Suggestion.closest(to: word, among: FilterStatus.allCases.map(\.rawValue)).map { "status:" + $0 })
            }
            return (.status(status), modifier == "not")
        case "title":
            guard !value.isEmpty else { throw fail("'\(head):' needs text") }
            switch modifier {
            case "default", "contains": return (.title(.contains, TaskQuery.foldCase(value)), false)
            case "startswith": return (.title(.startswith, TaskQuery.foldCase(value)), false)
            case "endswith": return (.title(.endswith, TaskQuery.foldCase(value)), false)
            default: throw fail("'title' takes .contains, .startswith, .endswith, not .\(modifier)")
            }
        case "tags":
            if value.isEmpty {
                guard modifier == "default" || modifier == "none" || modifier == "is" else { throw fail("'\(head):' needs a tag") }
                return (.flag(.tagged), true)
            }
            guard case .term(let tag) = try tagTerm(value, word: word, position: position) else { throw fail("'\(value)' is not a tag name") }
            switch modifier {
            case "default", "is", "contains": return (tag, false)
            case "not", "hasnt": return (tag, true)
            default: throw fail("'tags' takes .has and .hasnt, not .\(modifier)")
            }
        case "id":
            guard modifier == "default" || modifier == "is", let ids = try idsTerm(value, { reason, _ in fail(reason) }) else {
                throw fail("'\(value)' is not an id or a range of ids (3, 1-3,5)")
            }
            return (ids, false)
        case "uuid":
            let lower = value.lowercased()
            guard modifier == "default" || modifier == "is" || modifier == "startswith", lower.utf8.count >= 4,
                  lower.utf8.allSatisfy({ Self.isHex($0) || $0 == UInt8(ascii: "-") }) else {
                throw fail("'\(value)' is not a uuid or the start of one")
            }
            return (.uuid(lower), false)
        case "limit":
            throw fail("limit:N stands alone, outside parentheses and operators")
        default:
            guard let custom else { throw fail("no field '\(typedName)'") }
            return (try customTerm(custom, modifier: modifier, value: value, head: head, fail), false)
        }
    }

    func customTerm(_ field: CustomField, modifier: String, value: String, head: String,
                    _ fail: (String, String?) -> FilterError) throws(FilterError) -> FilterTerm {
        let ordered = field.kind != .string
        let allowed = ordered ? ["is", "not", "before", "after", "by", "none", "any"] : ["is", "not", "none", "any", "contains", "startswith"]
        guard modifier == "default" || allowed.contains(modifier) else {
            throw fail("'\(field.name)' (a \(field.kind.rawValue) field) takes \(allowed.map { "." + $0 }.joined(separator: ", ")), not .\(modifier)", nil)
        }
        let comparison: FilterComparison
        switch modifier {
        case "not": comparison = .notEqual
        case "before": comparison = .less
        case "after": comparison = .greater
        case "by": comparison = .lessOrEqual
        case "any": return .custom(field.name, field.kind, .notEqual, nil)
        case "none": return .custom(field.name, field.kind, .equal, nil)
        default: comparison = .equal
        }
        if value.isEmpty {
            guard comparison == .equal || comparison == .notEqual else { throw fail("'\(head):' needs a value", nil) }
            return .custom(field.name, field.kind, comparison, nil)
        }
        if modifier == "contains" || modifier == "startswith" {
            return .customText(field.name, modifier == "contains" ? .contains : .startswith, TaskQuery.foldCase(value))
        }
        switch field.kind {
        case .string:
            let stored: String?
            do throws(CustomField.Refusal) {
                stored = try field.stored(value, in: settings.dates)
            } catch {
                throw fail(error.message, nil)
            }
            guard let stored else { throw fail("'\(head):' needs a value", nil) }
            return .custom(field.name, .string, comparison, .text(CustomField.unquoted(stored) ?? stored))
        case .number:
            guard let number = Double(value), number.isFinite else { throw fail("'\(value)' is not a number (\(field.name) is a number field)", nil) }
            return .custom(field.name, .number, comparison, .number(number))
        case .duration:
            guard let seconds = CustomField.seconds(value) else {
                throw fail("'\(value)' is not a length of time (\(field.name) is a duration field); use 3h, 90min, 2d, 1w, 1h30min or PT3H", nil)
            }
            return .custom(field.name, .duration, comparison, .seconds(seconds))
        case .date:
            do throws(DateGrammarError) {
                let resolved = try DateGrammar.date(value, in: settings.dates)
                return .custom(field.name, .date, comparison, .date(DateBounds(resolved, zone: settings.dates.zone)))
            } catch {
                throw fail("'\(value)' is not a date (\(field.name) is a date field); use \(DateGrammar.forms)", nil)
            }
        }
    }
}
