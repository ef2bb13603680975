import QueryLanguage
import TaskModel
import TextFormats

/// The words of `tasks add`, read as Taskwarrior reads them: the title, with modifiers among
/// its words taken out as fields — `tasks add Buy oat milk +errand list:Home due:eow
/// priority:H` is one task, `Buy oat milk`. A word with a space in it (quoted) is always
/// title text, and so are an address (`Read http://x`, `mailto:…`) and a word ending in a
/// colon (`Agenda:`); any other `name:value` whose name `add` cannot set is refused, status 2.
enum AddWords {
    /// The title the words leave (nil when none does) and `fields` with the modifiers added;
    /// a modifier a flag gives too is refused.
    /// `vocabulary` is made only when a word has a colon: `tasks add Buy milk` makes none.
    /// With `removingTags` (`modify`), `-tag` takes a tag off as `+tag` puts one on.
    static func read(_ words: [String], into fields: inout FieldFlags, vocabulary makeVocabulary: @autoclosure () -> FieldVocabulary,
                     dates: DateContext, source: String = "", removingTags: Bool = false) throws -> String? {
        var title: [String] = []
        var made: FieldVocabulary?
        for word in words {
            if word.contains(where: { $0 == " " || $0 == "\t" }) {
                title.append(word)
                continue
            }
            if word.hasPrefix("+") || (removingTags && word.hasPrefix("-")), word.utf8.count > 1 {
                let tag = String(word.dropFirst())
                try FieldRules.checkTag(tag, typed: true)
                if word.hasPrefix("+") { fields.addTags.append(tag) } else { fields.removeTags.append(tag) }
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
            let vocabulary = made ?? makeVocabulary()
            made = vocabulary
            if let field = vocabulary.field(name, role: .set) {
                if let custom = field.custom {
                    do throws(CustomField.Refusal) {
                        fields.customs.append(CustomValue(name: custom.name, stored: try custom.stored(value, in: dates)))
                    } catch {
                        throw CLIError.usage(source + "'\(word)': " + error.message)
                    }
                } else {
                    try set(field, typed: name, value, word: word, into: &fields)
                }
            } else if value.isEmpty || value.hasPrefix("//") || Self.schemes.contains(name.lowercased()) {
                // A colon ending a word (`Agenda:`, `Re:`) is punctuation; an address
                // (`http://…`, `mailto:…`) is text.
                title.append(word)
            } else {
                // Any other `name:value` is meant as a field, as in a filter: one no word of
                // `add` sets is refused, never taken as title text.
                let reason: String
                if let known = vocabulary.named(name) {
                    reason = "\(known.name) is not set by add's words (list, priority, the dates, repeat, depends and custom fields are)"
                } else {
                    let begun = vocabulary.begun(by: name, role: .set)
                    reason = begun.count > 1 ? "'\(name)' begins \(begun.joined(separator: " and ")); give more of the name"
                        : "no field '\(name)'" + (vocabulary.closest(to: name, role: .set).map { "; did you mean '\($0):\(value)'?" } ?? "")
                }
                throw CLIError.usage(source + "'\(word)': " + reason,
                                     hint: "to keep it in the title, quote it with the words around it: \"… \(word) …\"")
            }
        }
        return title.isEmpty ? nil : title.concatenated(separator: " ")
    }

    /// The address schemes whose `scheme:value` is text, not a field (`mailto:me@example.org`).
    static let schemes: Set<String> = ["mailto", "tel", "sms", "urn", "file", "ftp", "magnet", "news", "geo", "data"]

    /// Sets the field a modifier names: the list, the repeat rule (`recur:` and `every:` repeat
    /// every so often, `after:` so long after each is done), or a field set by its kind.
    private static func set(_ field: QueryField, typed: String, _ value: String, word: String, into fields: inout FieldFlags) throws {
        func refuseTwice() -> CLIError { CLIError.usage("'\(word)' and --\(field.name) both set the \(field.name); give one") }
        switch field.stored {
        case .list?:
            if fields.list != nil { throw refuseTwice() }
            fields.list = value
        case .depends?:
            // Taskwarrior's `depends:1,2` and `depends:-3`: what `--blocked-by` says.
            try FieldFlags.readIDs(value, as: word, adding: \.blockedBy, removing: \.notBlockedBy, into: &fields.dependencies)
        case .repeat?:
            if fields.repeatRule != nil { throw CLIError.usage("'\(word)': the task's repeat is given twice; give one") }
            let after = typed.count >= 3 && "after".hasPrefix(typed.lowercased())
            fields.repeatRule = value.isEmpty ? "" : (after ? "after " : "every ") + value
        case let key?:
            if fields.typed[key] != nil { throw refuseTwice() }
            fields.typed[key] = value
        case nil:
            throw CLIError.usage("'\(word)': \(field.name) is not set this way")
        }
    }
}
