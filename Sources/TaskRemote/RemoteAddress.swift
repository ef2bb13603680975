import TextFormats

/// A PostgreSQL address as libpq reads it — a URI (`postgresql://user:secret@host:5432/db`) or
/// `key=value` words (`host=h dbname=d password=secret`) — and the same address without its
/// password: what is remembered in the file and printed.
public enum RemoteAddress {
    /// `address` with any password taken out.
    public static func withoutPassword(_ address: String) -> String {
        let trimmed = address.trimmingWhitespace
        if trimmed.hasPrefix("postgresql://") || trimmed.hasPrefix("postgres://") {
            return uriWithoutPassword(trimmed)
        }
        return wordsWithoutPassword(trimmed)
    }

    /// Whether `address` is a form libpq reads at all (a URI, or `key=value` words).
    public static func looksValid(_ address: String) -> Bool {
        let trimmed = address.trimmingWhitespace
        if trimmed.isEmpty { return false }
        if trimmed.hasPrefix("postgresql://") || trimmed.hasPrefix("postgres://") { return true }
        return trimmed.contains("=")
    }

    /// Read as libpq reads a URI: the user part ends at the first `@` before any `/` (so a
    /// password may hold `?` and `#`, and `p@ss` is the password `p`), the query starts at the
    /// first `?` after it, and a parameter's name is percent-decoded (`pass%77ord=`).
    private static func uriWithoutPassword(_ uri: String) -> String {
        guard let schemeEnd = uri.firstRange(of: "://") else { return uri }
        let scheme = uri[..<schemeEnd.upperBound]
        var rest = uri[schemeEnd.upperBound...]
        var user = Substring("")
        if let at = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[at] == "@" {
            let name = rest[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            user = name + "@"
            rest = rest[rest.index(after: at)...]
        }
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[mark...]
            rest = rest[..<mark]
        }
        var kept: [Substring] = []
        if !query.isEmpty {
            for parameter in query.dropFirst().split(separator: "&") {
                let key = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                if String(key).removingPercentEscapes.lowercased() != "password" { kept.append(parameter) }
            }
        }
        return String(scheme) + user + rest + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    private static func wordsWithoutPassword(_ words: String) -> String {
        // key = value, value possibly in single quotes with \' and \\ inside.
        var result: [String] = []
        var index = words.startIndex
        while index < words.endIndex {
            while index < words.endIndex && words[index] == " " { index = words.index(after: index) }
            guard index < words.endIndex else { break }
            let start = index
            while index < words.endIndex && words[index] != "=" && words[index] != " " { index = words.index(after: index) }
            let key = words[start..<index]
            while index < words.endIndex && words[index] == " " { index = words.index(after: index) }
            if index < words.endIndex && words[index] == "=" { index = words.index(after: index) }
            while index < words.endIndex && words[index] == " " { index = words.index(after: index) }
            if index < words.endIndex && words[index] == "'" {
                index = words.index(after: index)
                while index < words.endIndex && words[index] != "'" {
                    if words[index] == "\\" && words.index(after: index) < words.endIndex { index = words.index(after: index) }
                    index = words.index(after: index)
                }
                if index < words.endIndex { index = words.index(after: index) }
            } else {
                while index < words.endIndex && words[index] != " " { index = words.index(after: index) }
            }
            if key.lowercased() != "password" { result.append(String(words[start..<index])) }
        }
        return result.joined(separator: " ")
    }
}
