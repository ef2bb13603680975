/// Fields written as tab-separated values: one record per line, no quoting; a tab, newline,
/// carriage return or backslash inside a field is written `\t`, `\n`, `\r`, `\\`, so that
/// `cut -f` and `while IFS=$'\t' read` see one record per line.
public enum TSV {
    public static func line(_ fields: [String]) -> String { Record.line(fields, separator: 0x09, end: [0x0A], append) }

    public static func escape(_ field: String) -> String { Record.line([field], separator: 0, end: [], append) }

    /// `fields` as one line without its newline.
    public static func record(_ fields: [String]) -> String { Record.line(fields, separator: 0x09, end: [], append) }

    /// The fields of one line (without its newline), unescaped: what `line` wrote. A
    /// backslash before anything else, or at the end, stands for itself.
    public static func fields(_ line: String) -> [String] {
        var line = line
        return line.withUTF8 { utf8 in
            var fields: [String] = []
            var start = 0
            var escapes = false
            var index = 0
            while index < utf8.count {
                switch utf8[index] {
                case 0x09:
                    fields.append(field(utf8, start..<index, escapes: escapes))
                    start = index + 1
                    escapes = false
                case 0x5C:
                    escapes = true
                    index += 1  // the byte after a backslash is never a separator
                default:
                    break
                }
                index += 1
            }
            fields.append(field(utf8, start..<utf8.count, escapes: escapes))
            return fields
        }
    }

    /// The field `bytes[range]`, unescaped: made from the bytes as they are when it has no
    /// backslash (a sync reads 100,000 lines of them).
    private static func field(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, escapes: Bool) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        guard escapes else { return String(decoding: slice, as: UTF8.self) }
        var field: [UInt8] = []
        field.reserveCapacity(slice.count)
        var escaped = false
        for byte in slice {
            if escaped {
                switch byte {
                case UInt8(ascii: "t"): field.append(0x09)
                case UInt8(ascii: "n"): field.append(0x0A)
                case UInt8(ascii: "r"): field.append(0x0D)
                case 0x5C: field.append(0x5C)
                default: field += [0x5C, byte]
                }
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else {
                field.append(byte)
            }
        }
        if escaped { field.append(0x5C) }
        return String(decoding: field, as: UTF8.self)
    }

    /// Appends `field`'s UTF-8, escaped, to `bytes` (a byte scan: TSV's specials are ASCII).
    public static func append(_ field: String, to bytes: inout [UInt8]) {
        var field = field
        field.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x5C }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
                case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                default: bytes.append(byte)
                }
            }
        }
    }
}

/// Fields written as RFC 4180 CSV: a field with a comma, quote, CR or LF is quoted, quotes
/// doubled; records end in CRLF.
public enum CSV {
    public static func line(_ fields: [String]) -> String { Record.line(fields, separator: 0x2C, end: [0x0D, 0x0A], append) }

    public static func escape(_ field: String) -> String { Record.line([field], separator: 0, end: [], append) }

    /// Appends `field`'s UTF-8, quoted when it must be, to `bytes`.
    public static func append(_ field: String, to bytes: inout [UInt8]) {
        var field = field
        field.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            bytes.append(0x22)
            for byte in utf8 {
                if byte == 0x22 { bytes.append(0x22) }
                bytes.append(byte)
            }
            bytes.append(0x22)
        }
    }
}

/// One record as text: fields escaped by `append`, between separators, then `end`.
enum Record {
    static func line(_ fields: [String], separator: UInt8, end: [UInt8], _ append: (String, inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(separator) }
            append(field, &bytes)
        }
        bytes.append(contentsOf: end)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A JSON value, written by `JSONValue.serialized` (RFC 8259), with keys in the order given.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Int64)
    /// A number that is no whole number an `Int64` holds (`1.5`, `1e400`), as it was written.
    case decimal(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized() == rhs.serialized() }

    /// The member `key` of an object (the last one, when a key is written twice), else nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var integer: Int64? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var members: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public var elements: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// Compact JSON text.
    public func serialized() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    public func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += String(value)
        case .decimal(let text): output += text
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                JSONValue.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    static func writeString(_ text: String, to output: inout String) {
        var bytes: [UInt8] = []
        appendString(text, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal (quotes included) to `bytes`: a byte scan.
    /// Besides what RFC 8259 requires, every character a terminal would act on or hide is
    /// written as `\uXXXX` — DEL, the C1 controls, U+2028 and U+2029 (for JavaScript's sake
    /// too), the bidi overrides and isolates, the invisible characters and the noncharacters
    /// the program styles with (all that `TerminalText.isControl` counts) — so that JSON is the
    /// same bytes on a terminal and in a pipe, and safe to print on either.
    public static func appendString(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        bytes.append(0x22)
        text.withUTF8 { utf8 in
            if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || mayStartControl($0) }) {
                bytes.append(contentsOf: utf8)
                return
            }
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                switch byte {
                case 0x22: bytes.append(0x5C); bytes.append(0x22)
                case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
                case 0..<0x20, 0x7F:
                    appendEscape(UInt32(byte), to: &bytes)
                case _ where mayStartControl(byte):
                    // Two bytes (C2, D8) or three (E1, E2, EF), as the lead byte says; the
                    // String's bytes are valid UTF-8.
                    let length = byte < 0xE0 ? 2 : 3
                    guard index + length <= utf8.count else { bytes.append(byte); break }
                    var value = UInt32(byte & (length == 2 ? 0x1F : 0x0F))
                    for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
                    if let scalar = Unicode.Scalar(value), TerminalText.isControl(scalar) {
                        appendEscape(value, to: &bytes)
                    } else {
                        bytes.append(contentsOf: utf8[index..<(index + length)])
                    }
                    index += length - 1
                default: bytes.append(byte)
                }
                index += 1
            }
        }
        bytes.append(0x22)
    }

    /// Whether a UTF-8 lead byte may begin a character `TerminalText.isControl` counts above
    /// DEL: C2 (C1 controls), D8 (U+061C), E1 (U+180E), E2 (U+200B–U+206x), EF (U+FDD0–U+FDEF,
    /// U+FEFF).
    private static func mayStartControl(_ byte: UInt8) -> Bool {
        byte == 0xC2 || byte == 0xD8 || byte == 0xE1 || byte == 0xE2 || byte == 0xEF
    }

    /// `\uXXXX` for `value` (at most U+FFFF).
    private static func appendEscape(_ value: UInt32, to bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hex[Int((value >> UInt32(shift)) & 0xF)]) }
    }
}

/// Whole numbers as decimal text, straight into a byte buffer (no `String` per number: ids are
/// most of the numbers every writer prints).
public enum DecimalText {
    public static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { return bytes.append(contentsOf: String(value).utf8) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(48 + rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }
}
