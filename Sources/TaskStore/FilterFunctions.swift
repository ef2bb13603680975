import QueryLanguage
import SQLiteDB
import TaskModel

extension SQLiteTaskService {
    /// The SQL functions filters call: a custom field's value as it compares
    /// (`CustomComparable`), a regular expression, and a suffix test by the same rule as Swift's.
    static func defineFilterFunctions(on db: Connection) throws {
        try db.definePairFunction("tasks_custom") { extras, field in
            guard let extras, let field, let space = field.firstIndex(of: " "),
                  let kind = CustomField.Kind(rawValue: String(field[field.index(after: space)...])) else { return .null }
            switch CustomComparable.of(ExtrasText.value(String(field[..<space]), in: extras), kind) {
            case .none: return .null
            case .text(let text)?: return .text(text)
            case .number(let number)?: return .real(number)
            case .seconds(let seconds)?: return .integer(seconds)
            }
        }
        // The pattern is the same on every row of a query: compiled once, for the last pattern.
        var compiled: (pattern: String, test: (String) -> Bool)?
        try db.definePairFunction("tasks_regexp") { pattern, text in
            guard let pattern, let text else { return .integer(0) }
            if compiled?.pattern != pattern { compiled = FilterRegex.matcher(pattern).map { (pattern, $0) } }
            return .integer(compiled?.test(text) == true ? 1 : 0)
        }
        // Whether `extras` has a member that is none of the declared names (space-separated)
        // and none Taskwarrior's import keeps: `+ORPHAN`, by the rule `matches` states.
        try db.definePairFunction("tasks_orphans") { extras, declared in
            guard let extras, !extras.isEmpty else { return .integer(0) }
            let names = Set((declared ?? "").split(separator: " ").map(String.init))
            let orphan = ExtrasText.members(extras).contains { member in
                guard let key = CustomField.unquoted(member.key) else { return false }
                return !names.contains(key) && !ExtrasText.taskwarriorKept.contains(key)
            }
            return .integer(orphan ? 1 : 0)
        }
        try db.definePairFunction("tasks_ends") { text, suffix in
            guard let text, let suffix else { return .integer(0) }
            return .integer(text.hasSuffix(suffix) ? 1 : 0)
        }
    }
}
