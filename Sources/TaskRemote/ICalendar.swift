/// An iCalendar object (RFC 5545) as a server holds it, kept line for line so that a change
/// rewrites only the properties it sets: every other line — another client's VALARM, its X-
/// properties, parameters we do not read, the folding and the line ends it chose — goes back
/// byte for byte.
///
/// Our own rather than libical: libical parses into a tree and writes the tree out again, with
/// its own folding, parameter order and escaping, so "byte for byte" would need the text kept
/// beside it anyway — and with the text kept, what is left to parse is a line's name,
/// parameters and value (docs/architecture.md, "CalDAV").
public struct ICalendar: Equatable, Sendable {
    /// One content line: `raw` exactly as received (folds and line end included), `content`
    /// unfolded, without its line end.
    public struct Line: Equatable, Sendable {
        public var raw: String
        public var content: String
    }

    public var lines: [Line]
    /// The line end to write new lines with: the one the text used, else CRLF.
    public var lineEnd: String

    /// `text` split into content lines. Anything is accepted; what is not iCalendar finds no
    /// VTODO (`todo` is nil).
    public init(_ text: String) {
        lines = []
        lineEnd = text.utf8.contains(0x0D) || !text.utf8.contains(0x0A) ? "\r\n" : "\n"
        var start = text.startIndex
        // Split after each LF; "\r\n" is one Character, so look at the scalars.
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if scalars[index] == "\n" {
                let next = scalars.index(after: index)
                append(physical: String(text[start..<next]))
                start = next
            }
            index = scalars.index(after: index)
        }
        if start < text.endIndex { append(physical: String(text[start...])) }
    }

    private mutating func append(physical: String) {
        var content = Substring(physical)
        while let last = content.unicodeScalars.last, last == "\n" || last == "\r" { content = Substring(content.unicodeScalars.dropLast()) }
        if let first = physical.unicodeScalars.first, first == " " || first == "\t", !lines.isEmpty {
            lines[lines.count - 1].raw += physical
            lines[lines.count - 1].content += String(content.unicodeScalars.dropFirst())
            return
        }
        if content.isEmpty && lines.isEmpty { return }  // leading blank lines
        lines.append(Line(raw: physical, content: String(content)))
    }

    /// The text: every line's raw form, in order.
    public var text: String { lines.map(\.raw).joined() }

    // MARK: - The VTODO

    /// The range of lines of the first VTODO that is not an override of one occurrence
    /// (`RECURRENCE-ID`), `BEGIN:VTODO` and `END:VTODO` included (else the first override).
    public var todo: Range<Int>? {
        var first: Range<Int>?
        var next = nextTodo(from: 0)
        while let range = next {
            if !isOverride(range) { return range }
            if first == nil { first = range }
            next = nextTodo(from: range.upperBound)
        }
        return first
    }

    /// Whether the VTODO `range` overrides one occurrence of a repeating one (`RECURRENCE-ID`).
    public func isOverride(_ range: Range<Int>) -> Bool {
        topLevel(of: range).contains { lines[$0].property.name == "RECURRENCE-ID" }
    }

    /// Removes every override of one occurrence (`RECURRENCE-ID`), for a series that no longer
    /// has those occurrences.
    public mutating func removeOverrides() {
        for range in todos.reversed() where isOverride(range) { lines.removeSubrange(range) }
    }

    /// The ranges of lines of every VTODO, in order.
    public var todos: [Range<Int>] {
        var result: [Range<Int>] = []
        var next = nextTodo(from: 0)
        while let range = next {
            result.append(range)
            next = nextTodo(from: range.upperBound)
        }
        return result
    }

    /// The first VTODO at or after line `start`.
    private func nextTodo(from start: Int) -> Range<Int>? {
        guard let begin = lines[start...].firstIndex(where: { $0.isBegin("VTODO") }) else { return nil }
        var depth = 0
        for position in begin..<lines.count {
            if lines[position].startsComponent { depth += 1 }
            if lines[position].endsComponent {
                depth -= 1
                if depth == 0 { return begin..<(position + 1) }
            }
        }
        return begin..<lines.count
    }

    /// The indexes of the lines directly inside the component `range` (not in the components
    /// nested in it: a VALARM's lines are its own).
    public func topLevel(of range: Range<Int>) -> [Int] {
        var result: [Int] = []
        var depth = 0
        for index in range.dropFirst().dropLast() {
            if lines[index].startsComponent { depth += 1; continue }
            if lines[index].endsComponent { depth -= 1; continue }
            if depth == 0 { result.append(index) }
        }
        return result
    }

    /// The VTODO's own properties named `name`, in order.
    public func properties(_ name: String) -> [Property] {
        guard let todo else { return [] }
        return topLevel(of: todo).map { lines[$0].property }.filter { $0.name == name }
    }

    /// The first of the VTODO's own properties named `name`.
    public func property(_ name: String) -> Property? { properties(name).first }

    /// Replaces the VTODO's own properties named `name` for which `which` holds with `new`
    /// (content lines, unfolded), where the first of them was; with none there, `new` goes
    /// before the first property named in `before`, else before the VTODO's first nested
    /// component or its end. Every other line is left as it was.
    public mutating func replace(_ name: String, where which: (Property) -> Bool = { _ in true }, with new: [String], before: [String] = []) {
        guard let todo else { return }
        let own = topLevel(of: todo)
        let matching = own.filter { let property = lines[$0].property; return property.name == name && which(property) }
        let folded = new.map { Line(raw: ICalendar.fold($0, lineEnd: lineEnd) + lineEnd, content: $0) }
        if let first = matching.first {
            for index in matching.reversed() { lines.remove(at: index) }
            lines.insert(contentsOf: folded, at: first)
            return
        }
        guard !folded.isEmpty else { return }
        var position = own.first { before.contains(lines[$0].property.name) }
        if position == nil {
            position = todo.dropFirst().first { lines[$0].startsComponent } ?? (todo.upperBound - 1)
        }
        lines.insert(contentsOf: folded, at: position ?? (todo.upperBound - 1))
    }

    /// `content` folded at 75 octets (RFC 5545 3.1), never inside a UTF-8 sequence.
    public static func fold(_ content: String, lineEnd: String = "\r\n") -> String {
        guard content.utf8.count > 75 else { return content }
        var result = ""
        var width = 0
        for scalar in content.unicodeScalars {
            let size = String(scalar).utf8.count
            if width + size > 75 {
                result += lineEnd + " "
                width = 1
            }
            result.unicodeScalars.append(scalar)
            width += size
        }
        return result
    }
}

extension ICalendar.Line {
    func isBegin(_ component: String) -> Bool { startsComponent && content.uppercased() == "BEGIN:" + component }

    /// Whether the line is `BEGIN:…`, in any case (without copying it).
    var startsComponent: Bool { Self.hasPrefix(content, "BEGIN:") }
    /// Whether the line is `END:…`.
    var endsComponent: Bool { Self.hasPrefix(content, "END:") }

    private static func hasPrefix(_ text: String, _ prefix: StaticString) -> Bool {
        var bytes = text.utf8.makeIterator()
        return prefix.withUTF8Buffer { expected in
            for byte in expected {
                guard let next = bytes.next(), next & 0xDF == byte & 0xDF else { return false }
            }
            return true
        }
    }

    /// The line read as a property.
    public var property: ICalendar.Property { ICalendar.Property(content) }
}

extension ICalendar {
    /// A content line read: its name (upper-cased), its parameters, its value as written.
    public struct Property: Equatable, Sendable {
        public var name: String
        /// Parameter names upper-cased; values without their quotes.
        public var parameters: [(name: String, value: String)]
        public var value: String

        public init(_ content: String) {
            var name = ""
            var parameters: [(String, String)] = []
            var value = ""
            let scalars = Array(content.unicodeScalars)
            var index = 0
            while index < scalars.count, scalars[index] != ";", scalars[index] != ":" { index += 1 }
            name = String(String.UnicodeScalarView(scalars[0..<index])).uppercased()
            while index < scalars.count, scalars[index] == ";" {
                index += 1
                let start = index
                while index < scalars.count, scalars[index] != "=", scalars[index] != ":", scalars[index] != ";" { index += 1 }
                let parameter = String(String.UnicodeScalarView(scalars[start..<index])).uppercased()
                var parameterValue = ""
                if index < scalars.count, scalars[index] == "=" {
                    index += 1
                    var inQuotes = false
                    while index < scalars.count {
                        let scalar = scalars[index]
                        if scalar == "\"" { inQuotes.toggle(); index += 1; continue }
                        if !inQuotes, scalar == ";" || scalar == ":" { break }
                        parameterValue.unicodeScalars.append(scalar)
                        index += 1
                    }
                }
                parameters.append((parameter, parameterValue))
            }
            if index < scalars.count, scalars[index] == ":" { value = String(String.UnicodeScalarView(scalars[(index + 1)...])) }
            self.name = name
            self.parameters = parameters
            self.value = value
        }

        public static func == (lhs: Property, rhs: Property) -> Bool {
            lhs.name == rhs.name && lhs.value == rhs.value && lhs.parameters.map(\.name) == rhs.parameters.map(\.name)
                && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
        }

        /// The value of the parameter `name`, if present.
        public func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
    }

    /// A TEXT value read: `\n`, `\,`, `\;` and `\\` resolved.
    public static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                switch character {
                case "n", "N": result.append("\n")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `text` as a TEXT value.
    public static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n": result += "\\n"
            case "\r": break
            default: result.append(character)
            }
        }
        return result
    }

    /// The parts of a TEXT list (CATEGORIES): split at commas not escaped, each unescaped.
    public static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in value {
            if escaped {
                current.append("\\")
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                parts.append(unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(unescape(current))
        return parts
    }
}
