/// The configuration file's language: a small subset of TOML, meant to be kept with one's
/// dotfiles. Each line is blank, a comment (`# …`), a table header (`[uda.estimate]`, which
/// prefixes the keys after it) or `key = value`, where the key is dotted words
/// (`uda.estimate.type`) and the value is a basic string (`"3h"`, with `\"`, `\\`, `\t`, `\n`
/// escapes), a literal string (`'C:\x'`), an array of strings (`["H", "M", "L"]`), or a bare
/// word — a number, `true`/`false`, or a word such as `duration` (read as its text). A
/// comment may end a line. A key given twice is an error, as in TOML.
///
/// Ours because the toolchain ships no TOML reader and Debian's (toml11, tomlplusplus) are
/// C++ headers: this is the hundred lines the settings need, and its errors name the line.
public struct ConfigText: Equatable, Sendable {
    /// One setting: its full dotted key, its value's text (or texts, for an array), its line.
    public struct Entry: Equatable, Sendable {
        public var key: String
        public var values: [String]
        public var isArray: Bool
        public var line: Int
        /// The table it was set under (`uda.estimate.`, or empty) and what follows its value on
        /// its line (spaces and a comment): what an edit of it keeps.
        public var table = ""
        public var trailing = ""

        /// The value of a key that is not an array.
        public var value: String { values.first ?? "" }
    }

    /// Why a line cannot be read: its number, from 1, and what is wrong.
    public struct Failure: Error, Equatable, Sendable {
        public var line: Int
        public var reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    public private(set) var entries: [Entry] = []

    public init(_ text: String) throws(Failure) {
        var table = ""
        var seen: Set<String> = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = Substring(raw)
            if line.last == "\r" { line = line.dropLast() }
            line = line.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.first == "#" { continue }
            if line.first == "[" {
                guard let close = line.firstIndex(of: "]") else { throw Failure(line: number, reason: "a table header needs its ']'") }
                let name = String(line[line.index(after: line.startIndex)..<close]).trimmingWhitespace
                let rest = line[line.index(after: close)...].drop { $0 == " " || $0 == "\t" }
                guard rest.isEmpty || rest.first == "#" else { throw Failure(line: number, reason: "nothing may follow a table header but a comment") }
                guard ConfigText.isKey(name) else { throw Failure(line: number, reason: "'\(name)' is not a table name (dotted words of letters, digits, - and _)") }
                table = name + "."
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw Failure(line: number, reason: "expected 'key = value', a [table] or a # comment")
            }
            let key = String(line[..<equals]).trimmingWhitespace
            guard ConfigText.isKey(key) else { throw Failure(line: number, reason: "'\(key)' is not a key (dotted words of letters, digits, - and _)") }
            let full = table + key
            guard seen.insert(full).inserted else { throw Failure(line: number, reason: "'\(full)' is set twice") }
            var reader = ValueReader(text: line[line.index(after: equals)...], line: number)
            let (values, isArray) = try reader.value()
            let trailing = String(reader.text)
            try reader.end()
            entries.append(Entry(key: full, values: values, isArray: isArray, line: number, table: table, trailing: trailing))
        }
    }

    /// The file with `key` set to `value` in its place, as if it said so (`-c key=value`): line 0.
    public mutating func override(_ key: String, _ value: String) {
        entries.removeAll { $0.key == key }
        entries.append(Entry(key: key, values: [value], isArray: false, line: 0))
    }

    /// `text` (a file in this language) with `key` set to `value` — in its line when it is set
    /// there (its comment kept), else at the end of its table when the file has one, else at
    /// the end — or, for nil, its line removed. Every other line stays as it is.
    public static func setting(_ key: String, to value: String?, in text: String) throws(Failure) -> String {
        try setting(key, written: value.map(quoted), in: text)
    }

    /// `text` with `key` set to the array `values` (`["S", "M", "L"]`), as `setting(_:to:in:)`.
    public static func setting(_ key: String, toList values: [String], in text: String) throws(Failure) -> String {
        try setting(key, written: "[" + values.map(quoted).joined(separator: ", ") + "]", in: text)
    }

    /// The values a person typed for a key that takes several: an array as the file writes
    /// one (`["S", "M", "L"]`), else the words between commas (`S,M,L`, Taskwarrior's way),
    /// else the words between spaces (`S M L`). Empty values are refused.
    public static func list(_ typed: String) throws(Failure) -> [String] {
        let trimmed = typed.trimmingWhitespace
        let values: [String]
        if trimmed.hasPrefix("[") {
            var reader = ValueReader(text: Substring(trimmed), line: 0)
            let (read, _) = try reader.value()
            try reader.end()
            values = read
        } else if trimmed.contains(",") {
            values = trimmed.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace }
        } else {
            values = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        }
        guard !values.isEmpty, values.allSatisfy({ !$0.trimmingWhitespace.isEmpty }) else {
            throw Failure(line: 0, reason: "'\(typed)' has an empty value; give the values as S,M,L or S M L or [\"S\", \"M\", \"L\"]")
        }
        return values
    }

    /// `setting`, with the value as the file is to say it (quoted, or an array); nil removes.
    private static func setting(_ key: String, written value: String?, in text: String) throws(Failure) -> String {
        let config = try ConfigText(text)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let endsWithNewline = text.isEmpty || text.hasSuffix("\n")
        if endsWithNewline, lines.last == "" { lines.removeLast() }
        if let entry = config[key] {
            if let value {
                let written = String(key.dropFirst(entry.table.count))
                let indent = String(lines[entry.line - 1].prefix { $0 == " " || $0 == "\t" })
                lines[entry.line - 1] = indent + written + " = " + value + entry.trailing
            } else {
                lines.remove(at: entry.line - 1)
            }
        } else if let value {
            // The last entry of the deepest table that prefixes the key.
            let tables = config.entries.filter { !$0.table.isEmpty && key.hasPrefix($0.table) && key.count > $0.table.count }
            if let deepest = tables.map(\.table).max(by: { $0.count < $1.count }),
               let last = tables.filter({ $0.table == deepest }).map(\.line).max() {
                lines.insert(String(key.dropFirst(deepest.count)) + " = " + value, at: last)
            } else if config.entries.contains(where: { !$0.table.isEmpty }) {
                // After a table, a plain key would fall into it: a table of its own parts.
                let parts = key.split(separator: ".")
                if parts.count > 1 {
                    lines += ["", "[" + parts.dropLast().joined(separator: ".") + "]", String(parts[parts.count - 1]) + " = " + value]
                } else {
                    lines.insert(key + " = " + value, at: 0)
                }
            } else {
                lines.append(key + " = " + value)
            }
        }
        return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }

    /// `value` as a basic string.
    public static func quoted(_ value: String) -> String {
        var text = "\""
        for character in value {
            switch character {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\t": text += "\\t"
            case "\n": text += "\\n"
            default: text.append(character)
            }
        }
        return text + "\""
    }

    /// The entry of `key`, if the file sets it.
    public subscript(key: String) -> Entry? { entries.first { $0.key == key } }

    public static func isKey(_ text: String) -> Bool {
        let words = text.split(separator: ".", omittingEmptySubsequences: false)
        return !words.isEmpty && words.allSatisfy { word in
            !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        }
    }
}

/// Reads one value from the rest of a line.
struct ValueReader {
    var text: Substring
    let line: Int

    private mutating func skipSpaces() { text = text.drop { $0 == " " || $0 == "\t" } }

    private func failure(_ reason: String) -> ConfigText.Failure { ConfigText.Failure(line: line, reason: reason) }

    mutating func value() throws(ConfigText.Failure) -> ([String], Bool) {
        skipSpaces()
        guard let first = text.first else { throw failure("a value is missing after '='") }
        if first == "[" {
            text = text.dropFirst()
            var values: [String] = []
            while true {
                skipSpaces()
                if text.first == "]" { text = text.dropFirst(); return (values, true) }
                values.append(try scalar())
                skipSpaces()
                if text.first == "," { text = text.dropFirst(); continue }
                guard text.first == "]" else { throw failure("an array needs ',' between its values and ']' at its end, on one line") }
            }
        }
        return ([try scalar()], false)
    }

    private mutating func scalar() throws(ConfigText.Failure) -> String {
        guard let first = text.first else { throw failure("a value is missing") }
        if first == "\"" || first == "'" {
            text = text.dropFirst()
            var value = ""
            while let character = text.first {
                text = text.dropFirst()
                if character == first { return value }
                if character == "\\" && first == "\"" {
                    guard let escaped = text.first else { break }
                    text = text.dropFirst()
                    switch escaped {
                    case "\"": value.append("\"")
                    case "\\": value.append("\\")
                    case "t": value.append("\t")
                    case "n": value.append("\n")
                    default: throw failure("'\\\(escaped)' is no escape here; use \\\" \\\\ \\t or \\n")
                    }
                } else {
                    value.append(character)
                }
            }
            throw failure("a string needs its closing \(first) on the same line")
        }
        let word = text.prefix { $0 != " " && $0 != "\t" && $0 != "," && $0 != "]" && $0 != "#" }
        guard !word.isEmpty else { throw failure("a value is missing") }
        text = text.dropFirst(word.count)
        return String(word)
    }

    mutating func end() throws(ConfigText.Failure) {
        skipSpaces()
        guard text.isEmpty || text.first == "#" else { throw failure("unexpected '\(text)' after the value") }
    }
}
