import TaskModel
import TextFormats

/// Why filter words name no filter: the word, its place among the words (from 1), what is
/// wrong, and the closest right spelling when there is one.
public struct FilterError: Error, Equatable, Sendable, CustomStringConvertible {
    public let word: String
    public let position: Int
    public let reason: String
    public let suggestion: String?

    public init(word: String, position: Int, reason: String, suggestion: String? = nil) {
        self.word = word
        self.position = position
        self.reason = reason
        self.suggestion = suggestion
    }

    public var description: String {
        "filter word \(position) '\(word)': \(reason)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    }
}

/// What filter words are read with: the clock and zone dates resolve on, and the fields they
/// name (the built-in ones and the custom fields the configuration declares).
public struct FilterSettings: Sendable {
    public var dates: DateContext
    public var vocabulary: FieldVocabulary

    public init(dates: DateContext, customFields: [String: CustomField] = [:]) {
        self.dates = dates
        self.vocabulary = FieldVocabulary.builtIn.adding(customFields)
    }

    public init(dates: DateContext, vocabulary: FieldVocabulary) {
        self.dates = dates
        self.vocabulary = vocabulary
    }
}

/// What filter words say besides the filter: `limit:N`.
public struct ParsedFilter: Equatable, Sendable {
    public var filter: TaskFilter?
    public var limit: Int?
}

/// The filter grammar (docs/cli.md, "Filters"): words ANDed, `and` binding tighter than `or`
/// and `xor`, `not` tightest, parentheses; each word a term.
public struct FilterParser {
    public let settings: FilterSettings

    public init(settings: FilterSettings) { self.settings = settings }

    /// The virtual tags, by name (`+OVERDUE`): Taskwarrior 2.6's whole set. The date ones
    /// stand for a range of `due`.
    public static let virtualTags: [String] = FilterFlag.allCases.map(\.rawValue)
        + ["UNBLOCKED", "CHILD", "TODAY", "DUETODAY", "YESTERDAY", "TOMORROW", "DUE", "WEEK", "MONTH", "QUARTER", "YEAR",
           "PENDING", "DONE", "COMPLETED", "WAITING", "EXPIRED", "SCHEDULED", "UNTIL", "PROJECT", "PRIORITY", "UDA", "ORPHAN",
           "TEMPLATE", "DELETED"]

    /// The words of `text`, split at spaces; `"…"` and `'…'` keep spaces inside one word (a
    /// context's or a report's filter, kept as one string).
    public static func words(of text: String) throws(FilterError) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var started = false
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                started = true
            } else if character == " " || character == "\t" || character == "\n" {
                if started || !current.isEmpty { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if quote != nil { throw FilterError(word: current, position: words.count + 1, reason: "a quote is not closed") }
        if started || !current.isEmpty { words.append(current) }
        return words
    }

    /// One parsed word, or a parenthesis or an operator.
    enum Token {
        case open, close, and, or, xor, not
        case term(TaskFilter)
    }

    /// `words` (as the shell gives them: a word with a space in it is one phrase) as one filter.
    public func parse(_ words: [String]) throws(FilterError) -> ParsedFilter {
        var tokens: [(Token, Int, String)] = []
        var limit: Int?
        func add(_ word: String, _ position: Int, depth: Int) throws(FilterError) {
            let isPattern = word.utf8.count >= 3 && word.hasPrefix("/") && word.hasSuffix("/")
            if !isPattern, word.contains(where: { $0 == " " || $0 == "\t" }) {
                let trimmed = word.trimmingWhitespace
                // A group quoted as one word (`'(+bills or +urgent)'`): its words, as if typed
                // apart. A field's word whose value has spaces (`'list:My List'`,
                // `'due.before:in 3 days'`): that field's term. Anything else is a phrase.
                if trimmed.hasPrefix("("), depth < 8 {
                    for part in try Self.words(of: trimmed) { try add(part, position, depth: depth + 1) }
                    return
                }
                if isFieldWord(trimmed) {
                    tokens.append((.term(try term(trimmed, position)), position, word))
                    return
                }
                let folded = TaskQuery.foldCase(trimmed)
                if !folded.isEmpty { tokens.append((.term(.term(.text(folded))), position, word)) }
                return
            }
            var body = Substring(word)
            while body.first == "(" {
                tokens.append((.open, position, "("))
                body = body.dropFirst()
            }
            var closes = 0
            while body.last == ")" && !(body.hasPrefix("/") && body.count > 1 && !body.dropFirst().contains("/")) {
                closes += 1
                body = body.dropLast()
            }
            if !body.isEmpty {
                let text = String(body)
                switch text.lowercased() {
                case "and": tokens.append((.and, position, text))
                case "or": tokens.append((.or, position, text))
                case "xor": tokens.append((.xor, position, text))
                case "not": tokens.append((.not, position, text))
                default:
                    if let count = try limitWord(text, position) {
                        limit = count
                    } else {
                        tokens.append((.term(try term(text, position)), position, text))
                    }
                }
            }
            for _ in 0..<closes { tokens.append((.close, position, ")")) }
        }
        for (index, word) in words.enumerated() { try add(word, index + 1, depth: 0) }
        var reader = TokenReader(tokens: Self.groupingIDs(tokens))
        let filter = try reader.expression()
        if let (_, position, word) = reader.peek() {
            throw FilterError(word: word, position: position, reason: word == ")" ? "this parenthesis closes nothing" : "unexpected here")
        }
        return ParsedFilter(filter: filter, limit: limit)
    }

    /// Whether `word` is `name:value` or `name.modifier:value` for a field filters know (one
    /// of the names, an abbreviation of `abbreviation.minimum` letters or more, or a custom field).
    func isFieldWord(_ word: String) -> Bool {
        guard let colon = word.firstIndex(of: ":") else { return false }
        let head = String(word[..<colon])
        guard Self.isNameShaped(head), let typed = head.split(separator: ".").first.map(String.init) else { return false }
        return field(typed) != nil
    }

    /// Ids and uuids side by side are one set, as in Taskwarrior: `4 6` is task 4 or task 6,
    /// not both at once (`1-3 5`, `4 01a24d0d`); a word between them (`4 and 6`, `4 +bills`)
    /// keeps its meaning.
    static func groupingIDs(_ tokens: [(Token, Int, String)]) -> [(Token, Int, String)] {
        func isID(_ token: Token) -> Bool {
            guard case .term(.term(let term)) = token else { return false }
            switch term {
            case .ids, .uuid: return true
            default: return false
            }
        }
        var result: [(Token, Int, String)] = []
        var index = 0
        while index < tokens.count {
            var end = index
            while end < tokens.count, isID(tokens[end].0) { end += 1 }
            guard end - index >= 2 else {
                result.append(tokens[index])
                index += 1
                continue
            }
            result.append((.open, tokens[index].1, "("))
            for offset in index..<end {
                if offset > index { result.append((.or, tokens[offset].1, "or")) }
                result.append(tokens[offset])
            }
            result.append((.close, tokens[end - 1].1, ")"))
            index = end
        }
        return result
    }

    func limitWord(_ text: String, _ position: Int) throws(FilterError) -> Int? {
        guard text.lowercased().hasPrefix("limit:") else { return nil }
        let value = text.dropFirst(6)
        guard let count = Int(value), count > 0, count <= 1_000_000_000 else {
            throw FilterError(word: text, position: position, reason: "'\(value)' is not a count; give limit:N with N from 1")
        }
        return count
    }

    // MARK: - One word

    func term(_ word: String, _ position: Int) throws(FilterError) -> TaskFilter {
        func fail(_ reason: String, _ suggestion: String? = nil) -> FilterError {
            FilterError(word: word, position: position, reason: reason, suggestion: suggestion)
        }
        let bytes = Array(word.utf8)
        // `/pattern/`
        if bytes.count >= 3, bytes.first == UInt8(ascii: "/"), bytes.last == UInt8(ascii: "/") {
            let pattern = String(word.dropFirst().dropLast())
            if let refusal = FilterRegex.refusal(pattern) { throw fail("not a regular expression: \(refusal)") }
            return .term(.regex(pattern))
        }
        // `+tag`, `-tag`, `+VIRTUAL`, `-VIRTUAL`
        if let first = bytes.first, (first == UInt8(ascii: "+") || first == UInt8(ascii: "-")), bytes.count > 1 {
            let name = String(word.dropFirst())
            if first == UInt8(ascii: "-"), name.utf8.allSatisfy({ (48...57).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ",") }) {
                // `-5` is a mistyped id far more often than the tag `5` left out.
                throw fail("'\(word)' is not a task id (ids start at 1); to leave out the tag \(name), write tags.hasnt:\(name)")
            }
            let positive = try tagTerm(name, word: word, position: position)
            return first == UInt8(ascii: "+") ? positive : .not(positive)
        }
        // Eight hex digits and a dash begin a uuid, even one of digits only, never a range of
        // ids (`01234567-8901` would be a range down from an id no list reaches).
        if bytes.count >= 13, bytes[8] == UInt8(ascii: "-"), let uuid = Self.uuidPrefix(word) { return .term(.uuid(uuid)) }
        if let ids = try idsTerm(word, fail) { return .term(ids) }
        if let uuid = Self.uuidPrefix(word) { return .term(.uuid(uuid)) }
        if let colon = word.firstIndex(of: ":") {
            let head = String(word[..<colon])
            if Self.isNameShaped(head) {
                return try attribute(head, String(word[word.index(after: colon)...]), word: word, position: position)
            }
        }
        if word.hasPrefix("rc.") {
            throw fail("tasks takes a setting for one command as -c NAME=VALUE", "-c " + word.dropFirst(3))
        }
        if let equals = word.firstIndex(of: "="), Self.isNameShaped(String(word[..<equals])), field(String(word[..<equals])) != nil {
            let head = String(word[..<equals])
            throw fail("a field is matched with ':', not '='", head + ":" + word[word.index(after: equals)...])
        }
        return .term(.text(TaskQuery.foldCase(word)))
    }

    public static func isNameShaped(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { part in
            guard let first = part.first, first.isASCII, first.isLetter || first == "_" else { return false }
            return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
    }

    func tagTerm(_ name: String, word: String, position: Int) throws(FilterError) -> TaskFilter {
        let upper = name.allSatisfy { $0.isASCII && ($0.isUppercase || $0 == "_") }
        if upper {
            if let filter = virtualTag(name) { return filter }
            if let close = Suggestion.closest(to: name, among: Self.virtualTags) {
                throw FilterError(word: word, position: position, reason: "'\(name)' is no virtual tag (a tag in capitals that is one letter off one is taken for a typo)",
                                  suggestion: String(word.prefix(1)) + close)
            }
        }
        do throws(TaskFieldError) {
            try FieldRules.checkTag(name, typed: true)
        } catch {
            throw FilterError(word: word, position: position, reason: "'\(name)' is not a tag name")
        }
        return .term(.tag(name))
    }

    func virtualTag(_ name: String) -> TaskFilter? {
        if let flag = FilterFlag(rawValue: name) { return .term(.flag(flag)) }
        let context = settings.dates
        let today = context.today
        let vocabulary = settings.vocabulary
        func named(_ filter: TaskFilter) -> TaskFilter { .term(.named(name, filter)) }
        func range(_ from: CalendarDay, _ through: CalendarDay) -> TaskFilter? {
            // On or after `from`, on or before `through`: `not before from and by through`.
            guard let due = vocabulary.named("due") else { return nil }
            let low = DateBounds(TaskDate(from), zone: context.zone), high = DateBounds(TaskDate(through), zone: context.zone)
            if from == through { return named(.term(.field(due, .equal, .date(low)))) }
            return named(.term(.range(due, low, high)))
        }
        func day(_ offset: Int) -> TaskFilter? { today.adding(days: offset).flatMap { range($0, $0) } }
        // `+SCHEDULED`, `+UNTIL`, `+PRIORITY`: the field whose entry names the tag is set.
        if let field = vocabulary.fields.first(where: { $0.setTag == name }) { return named(.term(.field(field, .notEqual, nil))) }
        switch name {
        case "PENDING": return .term(.status(.pending))
        case "DONE", "COMPLETED": return .term(.status(.done))
        case "WAITING": return .term(.status(.waiting))
        case "EXPIRED": return .term(.status(.expired))
        case "DELETED": return .term(.status(.deleted))
        case "UNBLOCKED": return named(.not(.term(.flag(.blocked))))
        case "CHILD":
            // Taskwarrior's: an instance of a series; here a subtask too.
            guard let parent = vocabulary.named("parent") else { return named(.term(.flag(.instance))) }
            return named(.or([.term(.flag(.instance)), .term(.field(parent, .notEqual, nil))]))
        case "TODAY", "DUETODAY": return day(0)
        case "YESTERDAY": return day(-1)
        case "TOMORROW": return day(1)
        case "DUE":
            // Taskwarrior's `rc.due` of 7: due from today through the sixth day after it.
            guard let through = today.adding(days: 6) else { return nil }
            return range(today, through)
        case "WEEK":
            // This week: its last day (`eow`) and the six before it, from `sow`.
            guard let through = try? DateGrammar.day("eow", in: context), let from = through.adding(days: -6) else { return nil }
            return range(from, through)
        case "MONTH", "QUARTER", "YEAR":
            let (end, firstMonth) = name == "MONTH" ? ("eom", today.month) : name == "QUARTER" ? ("eoq", (today.month - 1) / 3 * 3 + 1) : ("eoy", 1)
            guard let through = try? DateGrammar.day(end, in: context),
                  let from = CalendarDay(year: today.year, month: firstMonth, day: 1) else { return nil }
            return range(from, through)
        // A list other than the one a task gets when none is given (Taskwarrior: a project).
        case "PROJECT": return named(.not(.term(.list("Inbox", exact: true))))
        // A custom field set — or a priority, a UDA in Taskwarrior since 2.4.3.
        case "UDA": return named(.or(vocabulary.fields.filter { $0.custom != nil || $0.name == "priority" }.map { .term(.field($0, .notEqual, nil)) }))
        case "ORPHAN": return .term(.orphan(vocabulary.fields.compactMap { $0.custom?.name }))
        // tasks keeps no template apart from a series' tasks: the rule travels with each.
        case "TEMPLATE": return named(.or([]))
        default: return nil
        }
    }

    /// `3`, `1-3,5`: each range from its low to its high id.
    func idsTerm(_ word: String, _ fail: (String, String?) -> FilterError) throws(FilterError) -> FilterTerm? {
        guard let first = word.utf8.first, (48...57).contains(first),
              word.utf8.allSatisfy({ (48...57).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ",") }) else { return nil }
        var ranges: [ClosedRange<Int64>] = []
        for part in word.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count), let low = Int64(ends[0]), let high = Int64(ends[ends.count - 1]), low > 0 else {
                throw fail("'\(part)' is not an id or a range of ids (3, 1-3,5)", nil)
            }
            guard low <= high else { throw fail("the range \(part) runs backwards", "\(high)-\(low)") }
            ranges.append(low...high)
        }
        return .ids(ranges)
    }

    /// A uuid, or at least its first 8 hex digits, when the word holds a digit and a letter or
    /// a dash (`deadbeef` alone is a word): lower case.
    public static func uuidPrefix(_ word: String) -> String? {
        let lower = word.lowercased()
        let bytes = Array(lower.utf8)
        guard bytes.count >= 8, bytes.count <= 36 else { return nil }
        let hex = bytes.filter { $0 != UInt8(ascii: "-") }
        guard bytes.prefix(8).allSatisfy(Self.isHex), hex.allSatisfy(Self.isHex) else { return nil }
        // The dashes where a uuid has them (8-4-4-4-12).
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "-") {
            guard [8, 13, 18, 23].contains(index) else { return nil }
        }
        let hasDigit = hex.contains { (48...57).contains($0) }, hasLetter = hex.contains { $0 >= UInt8(ascii: "a") }
        guard hasDigit && (hasLetter || bytes.contains(UInt8(ascii: "-"))) else { return nil }
        return lower
    }

    public static func isHex(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }
}
