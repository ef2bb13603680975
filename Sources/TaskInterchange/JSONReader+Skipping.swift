/// Reading past values: a field a reader does not keep, kept as its raw text, or skipped.
extension JSONReader {
    /// One value of any kind (its syntax checked), as its text stands in the input: what a
    /// reader keeps of a field it has no place for, to write back as it was.
    /// White space between tokens is left out (a value kept this way fits on one line).
    mutating func rawValue() throws -> String {
        _ = peek()
        let start = index
        try skipValue(depth: 0)
        var kept: [UInt8] = []
        kept.reserveCapacity(index - start)
        var inString = false, escaped = false
        for byte in bytes[start..<index] {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
            } else if byte == 0x22 {
                inString = true
            } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                continue
            }
            kept.append(byte)
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// Skips one value of any kind (checking its syntax): what a reader does with a field it
    /// does not keep.
    mutating func skipValue() throws {
        try skipValue(depth: 0)
    }

    private mutating func skipValue(depth: Int) throws {
        guard let next = peek() else { throw error("expected a value, found the end of the input") }
        switch next {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONReader.maximumDepth else { throw error("arrays and objects nested more than \(JSONReader.maximumDepth) deep") }
            var isFirst = true
            if next == UInt8(ascii: "{") {
                index += 1
                while try nextKey(isFirst: &isFirst) != nil { try skipValue(depth: depth + 1) }
            } else {
                index += 1
                while try nextElement(isFirst: &isFirst) { try skipValue(depth: depth + 1) }
            }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), 0x30...0x39: try skipNumber()
        default: throw error("expected a value, found \(found())")
        }
    }

    /// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    mutating func skipNumber() throws {
        func digits() -> Int {
            let start = index
            while index < bytes.count && (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leadingZero = index < bytes.count && bytes[index] == 0x30
        let count = digits()
        guard count > 0 else { throw error("expected digits in a number, found \(found())") }
        if leadingZero && count > 1 { throw error("a number with a leading zero") }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected digits after '.', found \(found())") }
        }
        if index < bytes.count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw error("expected digits in an exponent, found \(found())") }
        }
    }
}
