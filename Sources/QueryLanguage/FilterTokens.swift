import TaskModel
/// The tokens of a filter read by precedence: `or` and `xor` loosest, then `and` (also between
/// two words with no operator), then `not`, then a parenthesised group or a term.
struct TokenReader {
    let tokens: [(FilterParser.Token, Int, String)]
    var index = 0
    /// How deep the filter nests here: parentheses, `not`s and `xor`s, each a level of the tree
    /// every reader of a filter walks by recursion.
    private var depth = 0
    /// The deepest a filter may nest: far beyond any written by hand, short of what overflows
    /// a stack (20,000 parentheses crashed every command that read them).
    static let maximumDepth = 256

    init(tokens: [(FilterParser.Token, Int, String)]) { self.tokens = tokens }

    func peek() -> (FilterParser.Token, Int, String)? { index < tokens.count ? tokens[index] : nil }

    /// The whole filter, or nil for no words.
    mutating func expression() throws(FilterError) -> TaskFilter? {
        guard peek() != nil else { return nil }
        return try disjunction()
    }

    mutating func disjunction() throws(FilterError) -> TaskFilter {
        var xors = 0
        defer { depth -= xors }
        var left = try conjunction()
        var alternatives: [TaskFilter] = []
        while let (token, position, word) = peek() {
            switch token {
            case .or:
                index += 1
                try needsMore(after: word, position)
                alternatives.append(left)
                left = try conjunction()
            case .xor:
                index += 1
                try needsMore(after: word, position)
                // Each xor of a chain wraps the ones before it: a level deeper.
                try deeper(word, position)
                xors += 1
                let right = try conjunction()
                if !alternatives.isEmpty {
                    left = .or(alternatives + [left])
                    alternatives = []
                }
                left = .xor(left, right)
            default:
                return alternatives.isEmpty ? left : .or(alternatives + [left])
            }
        }
        return alternatives.isEmpty ? left : .or(alternatives + [left])
    }

    mutating func conjunction() throws(FilterError) -> TaskFilter {
        var parts = [try unary()]
        while let (token, position, word) = peek() {
            switch token {
            case .and:
                index += 1
                try needsMore(after: word, position)
                parts.append(try unary())
            case .term, .open, .not:
                parts.append(try unary())
            case .or, .xor, .close:
                return parts.count == 1 ? parts[0] : .and(parts)
            }
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    mutating func unary() throws(FilterError) -> TaskFilter {
        guard let (token, position, word) = peek() else {
            let last = tokens.last
            throw FilterError(word: last?.2 ?? "", position: last?.1 ?? 1, reason: "the filter ends where a word was expected")
        }
        switch token {
        case .not:
            index += 1
            try needsMore(after: word, position)
            try deeper(word, position)
            defer { depth -= 1 }
            return .not(try unary())
        case .open:
            index += 1
            try deeper(word, position)
            defer { depth -= 1 }
            guard let next = peek() else { throw FilterError(word: word, position: position, reason: "this parenthesis is not closed") }
            if case .close = next.0 { throw FilterError(word: "()", position: position, reason: "empty parentheses") }
            let inner = try disjunction()
            guard let close = peek(), case .close = close.0 else {
                throw FilterError(word: word, position: position, reason: "this parenthesis is not closed")
            }
            index += 1
            return inner
        case .term(let filter):
            index += 1
            return filter
        case .close:
            throw FilterError(word: word, position: position, reason: "this parenthesis closes nothing")
        case .and, .or, .xor:
            throw FilterError(word: word, position: position, reason: "'\(word)' needs a word before it")
        }
    }

    /// One level deeper, or the message that the filter nests too deep.
    mutating func deeper(_ word: String, _ position: Int) throws(FilterError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw FilterError(word: word, position: position, reason: "the filter nests more than \(Self.maximumDepth) deep (parentheses, not, xor)")
        }
    }

    func needsMore(after word: String, _ position: Int) throws(FilterError) {
        guard let next = peek() else { throw FilterError(word: word, position: position, reason: "'\(word)' needs a word after it") }
        switch next.0 {
        case .close, .and, .or, .xor: throw FilterError(word: word, position: position, reason: "'\(word)' needs a word after it")
        default: break
        }
    }
}
