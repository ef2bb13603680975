import TaskModel
import TextFormats

/// The words of `tasks add`, read as Taskwarrior reads them: the title, with modifiers among
/// its words taken out as fields — `tasks add Buy oat milk +errand list:Home due:eow
/// priority:H` is one task, `Buy oat milk`. A word with a space in it (quoted) is always
/// title text; so is `name:value` whose name is no field and not one letter off one (`Read
/// http://x` keeps its address).
enum AddWords {
    /// The names a modifier may have, to the field it sets (custom fields come from the
    /// configuration).
    static let names: [String: String] = [
        "list": "list", "project": "list", "pro": "list", "proj": "list", "priority": "priority", "pri": "priority",
        "due": "due", "wait": "wait", "scheduled": "scheduled", "sched": "scheduled", "until": "until",
        "recur": "every", "every": "every", "after": "after",
    ]

    /// The title the words leave (nil when none does) and `fields` with the modifiers added;
    /// a modifier a flag gives too is refused.
    static func read(_ words: [String], into fields: inout FieldFlags, customFields: [String: CustomField], dates: DateContext,
                     source: String = "") throws -> String? {
        var title: [String] = []
        for word in words {
            if word.contains(where: { $0 == " " || $0 == "\t" }) {
                title.append(word)
                continue
            }
            if word.hasPrefix("+"), word.utf8.count > 1 {
                let tag = String(word.dropFirst())
                try FieldRules.checkTag(tag, typed: true)
                fields.addTags.append(tag)
                continue
            }
            guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else {
                title.append(word)
                continue
            }
            let name = String(word[..<colon]), value = String(word[word.index(after: colon)...])
            guard FilterParser.isNameShaped(name), !name.contains(".") else {
                title.append(word)
                continue
            }
            if let field = names[name.lowercased()] {
                try set(field, value, word: word, into: &fields)
            } else if let custom = customFields[name] {
                do throws(CustomField.Refusal) {
                    fields.customs.append(CustomValue(name: custom.name, stored: try custom.stored(value, in: dates)))
                } catch {
                    throw CLIError.usage(source + "'\(word)': " + error.message)
                }
            } else if let close = Suggestion.closest(to: name.lowercased(), among: Array(names.keys) + Array(customFields.keys)), name.count >= 3 {
                throw CLIError.usage(source + "'\(word)': no field '\(name)'; did you mean '\(close):\(value)'?",
                                     hint: "to keep it in the title, quote it with the words around it: \"… \(word) …\"")
            } else {
                title.append(word)
            }
        }
        return title.isEmpty ? nil : title.concatenated(separator: " ")
    }

    private static func set(_ field: String, _ value: String, word: String, into fields: inout FieldFlags) throws {
        func refuseTwice() -> CLIError { CLIError.usage("'\(word)' and --\(field) both set the \(field); give one") }
        switch field {
        case "list":
            if fields.list != nil { throw refuseTwice() }
            fields.list = value
        case "every", "after":
            if fields.repeatRule != nil { throw CLIError.usage("'\(word)': the task's repeat is given twice; give one") }
            fields.repeatRule = value.isEmpty ? "" : field + " " + value
        default:
            guard let key = TaskField(rawValue: field) else { return }
            if fields.typed[key] != nil { throw refuseTwice() }
            fields.typed[key] = value
        }
    }
}
