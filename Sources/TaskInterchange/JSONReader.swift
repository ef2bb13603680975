import TextFormats

/// A pull reader of JSON text (RFC 8259) over bytes: the caller asks for the value it expects
/// next, so 100,000 task objects are read without building a tree of them. Strict: control
/// characters in strings, lone surrogates, invalid UTF-8, trailing commas and nesting deeper
/// than `maximumDepth` are errors that name their line and column.
struct JSONReader {
    /// Why reading stopped.
    enum Failure: Error, Equatable {
        /// Not JSON at this point.
        case syntax(line: Int, column: Int, message: String)
        /// JSON, but not the kind of value the caller asked for (`"a whole number"`).
        case type(expected: String)
    }

    /// Arrays and objects inside each other, at most: a reader of untrusted files must not
    /// recurse until the stack runs out.
    static let maximumDepth = 256

    /// The input and the place read to. Not private: the skipping readers are in
    /// `JSONReader+Skipping.swift` (a file holds at most 400 lines, StructureTests).
    let bytes: [UInt8]
    var index = 0
    /// Where `bytes` begin in the input, for messages: a record cut out of a stream (line 0:
    /// not placed).
    private let originLine: Int
    private let originColumn: Int

    init(_ bytes: [UInt8]) {
        // A UTF-8 byte order mark is allowed (RFC 8259 §8.1) and skipped.
        self.bytes = bytes
        originLine = 1
        originColumn = 1
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
    }

    /// A reader of `bytes` from `index` on, for reading, not for messages: they place
    /// themselves from the start of `bytes` (read again with the reader below to place them).
    init(_ bytes: [UInt8], at index: Int) {
        self.bytes = bytes
        self.index = index
        originLine = 0
        originColumn = 0
    }

    /// A reader of `bytes` that stand at `line` and `column` of the input.
    init(_ bytes: [UInt8], line: Int, column: Int) {
        self.bytes = bytes
        originLine = line
        originColumn = column
    }

    // MARK: - Looking

    /// The next byte that is not white space, without consuming it; `nil` at the end.
    @inline(__always)
    mutating func peek() -> UInt8? {
        // No white space between tokens (our export writes none), or one space (PostgreSQL's
        // `jsonb` writes one after each ':' and ','), costs no call.
        if index < bytes.count {
            if bytes[index] > 0x20 { return bytes[index] }
            if bytes[index] == 0x20, index + 1 < bytes.count, bytes[index + 1] > 0x20 {
                index += 1
                return bytes[index]
            }
        }
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Whether only white space is left.
    mutating func isAtEnd() -> Bool { peek() == nil }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// A syntax error at the current position.
    func error(_ message: String) -> Failure {
        // Unplaced (line 0): a message nobody reads, from a reader read again to place it.
        if originLine == 0 { return .syntax(line: 0, column: 0, message: message) }
        var line = 1, lineStart = 0
        var position = 0
        let end = min(index, bytes.count)
        while position < end {
            if bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        var column = line == 1 ? originColumn : 1
        for offset in lineStart..<end where bytes[offset] & 0xC0 != 0x80 { column += 1 }
        return .syntax(line: originLine + line - 1, column: column, message: message)
    }

    /// What is at the current position, for messages: `'x'`, or "the end".
    func found() -> String {
        guard index < bytes.count else { return "the end of the input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return byte < 0x21 || byte == 0x7F ? "byte 0x\(String(byte, radix: 16))" : "a non-ASCII character"
    }

    // MARK: - Containers

    /// Consumes `[`.
    mutating func beginArray() throws {
        guard peek() == UInt8(ascii: "[") else { throw Failure.type(expected: "an array") }
        index += 1
    }

    /// Moves to the next element of an array: `false` (with `]` consumed) when there is none.
    mutating func nextElement(isFirst: inout Bool) throws -> Bool {
        let next = peek()
        if next == UInt8(ascii: "]") && isFirst {
            index += 1
            return false
        }
        if !isFirst {
            if next == UInt8(ascii: "]") {
                index += 1
                return false
            }
            guard next == UInt8(ascii: ",") else { throw error("expected ',' or ']' after an array element, found \(found())") }
            index += 1
            if peek() == UInt8(ascii: "]") { throw error("expected a value after ',', found ']'") }
        }
        isFirst = false
        if peek() == nil { throw error("the input ends inside an array") }
        return true
    }

    /// Consumes `{`.
    mutating func beginObject() throws {
        guard peek() == UInt8(ascii: "{") else { throw Failure.type(expected: "an object") }
        index += 1
    }

    /// The next key of an object, with its `:` consumed; `nil` (with `}` consumed) when there is none.
    mutating func nextKey(isFirst: inout Bool) throws -> String? {
        guard try toKey(isFirst: &isFirst) else { return nil }
        let key = try string()
        try pastColon()
        return key
    }

    /// A key as `nextKey(isFirst:expecting:)` found it.
    enum Key: Equatable {
        /// The key expected, written without escapes.
        case expected
        /// Any other key, decoded.
        case other(String)
    }

    /// The next key as `nextKey(isFirst:)` reads it, but a key whose bytes between the quotes
    /// are `expected`, when given (no quote or backslash in it), is matched in place, without making a
    /// string: a task object has 24 keys, and making each a string was a seventh of an import
    /// (callgrind).
    mutating func nextKey(isFirst: inout Bool, expecting expected: [UInt8]?) throws -> Key? {
        guard try toKey(isFirst: &isFirst) else { return nil }
        let key: Key
        if let expected, matches(expected, at: index + 1) {
            index += expected.count + 2
            key = .expected
        } else {
            key = .other(try string())
        }
        try pastColon()
        return key
    }

    /// Moves to the opening quote of the next key: `false` (with `}` consumed) when there is none.
    private mutating func toKey(isFirst: inout Bool) throws -> Bool {
        var next = peek()
        if next == UInt8(ascii: "}") && isFirst {
            index += 1
            return false
        }
        if !isFirst {
            if next == UInt8(ascii: "}") {
                index += 1
                return false
            }
            guard next == UInt8(ascii: ",") else { throw error("expected ',' or '}' after a member, found \(found())") }
            index += 1
            next = peek()
        }
        isFirst = false
        guard next == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes, found \(found())") }
        return true
    }

    /// Consumes the `:` after a key.
    private mutating func pastColon() throws {
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after a member name, found \(found())") }
        index += 1
        if peek() == nil { throw error("the input ends inside an object") }
    }

    /// Consumes `token` when it comes next, written as it stands (no white space inside):
    /// whether it did.
    mutating func skip(_ token: StaticString) -> Bool {
        guard peek() != nil, index + token.utf8CodeUnitCount <= bytes.count else { return false }
        for offset in 0..<token.utf8CodeUnitCount where bytes[index + offset] != token.utf8Start[offset] { return false }
        index += token.utf8CodeUnitCount
        return true
    }

    /// Whether `name` and a closing quote stand at `start`.
    private func matches(_ name: [UInt8], at start: Int) -> Bool {
        let end = start + name.count
        guard end < bytes.count, bytes[end] == 0x22 else { return false }
        for offset in 0..<name.count where bytes[start + offset] != name[offset] { return false }
        return true
    }

    // MARK: - Scalars

    /// `null`, consumed; `false` (nothing consumed) when the next value is something else.
    mutating func null() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    mutating func bool() throws -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw Failure.type(expected: "true or false")
        }
    }

    mutating func literal(_ word: StaticString) throws {
        guard skip(word) else { throw error("expected a value, found \(found())") }
    }

    /// A whole number that fits in 64 bits.
    mutating func integer() throws -> Int64 {
        guard let first = peek(), first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else {
            throw Failure.type(expected: "a whole number")
        }
        let start = index
        try skipNumber()
        // The digits read in place (through a string, three whole numbers were 2% of an
        // import); a negative number is built downwards, so that -2^63 fits.
        let negative = first == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in bytes[(negative ? start + 1 : start)..<index] {
            guard (0x30...0x39).contains(byte) else { throw Failure.type(expected: "a whole number") }  // a fraction or exponent
            let (tens, overflowed) = value.multipliedReportingOverflow(by: 10)
            let digit = Int64(byte - 0x30)
            let (next, overflowedAgain) = negative ? tens.subtractingReportingOverflow(digit) : tens.addingReportingOverflow(digit)
            guard !overflowed && !overflowedAgain else { throw Failure.type(expected: "a whole number") }
            value = next
        }
        return value
    }

    /// The bytes of a string written without escapes or control characters, consumed, as
    /// they stand in the input (not checked as UTF-8): what a caller that accepts only ASCII
    /// (a time) reads without making a string. `nil`, with nothing consumed, for any other
    /// value or string.
    mutating func plainString() -> ArraySlice<UInt8>? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        let end = endOfPlainRun(from: index + 1)
        guard end < bytes.count, bytes[end] == 0x22 else { return nil }
        defer { index = end + 1 }
        return bytes[(index + 1)..<end]
    }

    /// The place of the first quote, backslash or control byte from `start` on (the end when
    /// there is none): where a string's plain run stops. Read through a pointer, without a
    /// bounds check a byte (strings are most of the bytes of an export).
    private func endOfPlainRun(from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { bytes in
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
                end += 1
            }
            return end
        }
    }

    /// A string; escapes decoded, UTF-8 checked.
    mutating func string() throws -> String {
        guard peek() == UInt8(ascii: "\"") else { throw Failure.type(expected: "a string") }
        index += 1
        let start = index
        // The common case: no escapes — the bytes are the string.
        index = endOfPlainRun(from: start)
        if index < bytes.count && bytes[index] == 0x22 {
            defer { index += 1 }
            return try text(bytes[start..<index], at: start)
        }
        var decoded = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22:
                index += 1
                return try text(decoded[...], at: start)
            case 0x5C:
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): decoded.append(0x22)
                case UInt8(ascii: "\\"): decoded.append(0x5C)
                case UInt8(ascii: "/"): decoded.append(0x2F)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a lone UTF-16 surrogate \\u\(String(scalar, radix: 16)) in a string")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate in a string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("a lone UTF-16 surrogate \\u\(String(scalar, radix: 16)) in a string")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("\\u escape out of range") }
                    decoded.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    index -= 1
                    throw error("'\\\(Character(Unicode.Scalar(escape)))' is not a JSON escape; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
                }
            default:
                if byte < 0x20 { throw error("a control character (byte 0x\(String(byte, radix: 16))) inside a string; write it as \\u00\(byte < 16 ? "0" : "")\(String(byte, radix: 16))") }
                decoded.append(byte)
                index += 1
            }
        }
        throw error("the input ends inside a string")
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("the input ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw error("expected four hex digits after \\u, found \(found())")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func text(_ slice: ArraySlice<UInt8>, at start: Int) throws -> String {
        guard let text = UTF8Text.string(slice) ?? UTF8Text.joiningSurrogatePairs(slice) else {
            var reader = self
            reader.index = start
            throw reader.error("a string that is not valid UTF-8")
        }
        return text
    }
}
