/// Fields written as tab-separated values: one record per line, no quoting; a tab, newline,
/// carriage return or backslash inside a field is written `\t`, `\n`, `\r`, `\\`, so that
/// `cut -f` and `while IFS=$'\t' read` see one record per line.
public enum TSV {
    public static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: "\t") + "\n"
    }

    public static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\\" || $0 == "\r\n" }) else { return field }
        var result = ""
        for scalar in field.unicodeScalars {
            switch scalar {
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Fields written as RFC 4180 CSV: a field with a comma, quote, CR or LF is quoted, quotes
/// doubled; records end in CRLF.
public enum CSV {
    public static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",") + "\r\n"
    }

    public static func escape(_ field: String) -> String {
        let needsQuotes = field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return field }
        var result = "\""
        for scalar in field.unicodeScalars {
            if scalar == "\"" { result += "\"" }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }
}

/// A JSON value, written by `JSONValue.serialized` (RFC 8259), with keys in the order given.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Int64)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized() == rhs.serialized() }

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
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let digits = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
