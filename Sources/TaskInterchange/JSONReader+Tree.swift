import TextFormats

/// One JSON text read whole into a `JSONValue` — for a message (a JSON-RPC request), not a
/// file of tasks (those are pulled record by record). Strict as `JSONReader` is: the nesting
/// bounded, strings valid, nothing after the value.
public enum JSONTree {
    public static func parse(_ bytes: [UInt8]) throws(InterchangeError) -> JSONValue {
        var reader = JSONReader(bytes)
        do {
            let value = try reader.tree(depth: 0)
            guard reader.isAtEnd() else { throw reader.error("expected the end after the value, found \(reader.found())") }
            return value
        } catch let failure as JSONReader.Failure {
            switch failure {
            case .syntax(let line, let column, let message): throw InterchangeError("line \(line), column \(column): \(message)")
            case .type(let expected): throw InterchangeError("expected \(expected)")
            }
        } catch {
            throw InterchangeError("\(error)")
        }
    }
}

extension JSONReader {
    /// The value here, whole.
    mutating func tree(depth: Int) throws -> JSONValue {
        guard let next = peek() else { throw error("expected a value, found the end of the input") }
        switch next {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONReader.maximumDepth else { throw error("arrays and objects nested more than \(JSONReader.maximumDepth) deep") }
            var isFirst = true
            index += 1
            if next == UInt8(ascii: "{") {
                var members: [(String, JSONValue)] = []
                while let key = try nextKey(isFirst: &isFirst) { members.append((key, try tree(depth: depth + 1))) }
                return .object(members)
            }
            var elements: [JSONValue] = []
            while try nextElement(isFirst: &isFirst) { elements.append(try tree(depth: depth + 1)) }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), 0x30...0x39:
            let start = index
            try skipNumber()
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            return Int64(text).map(JSONValue.number) ?? .decimal(text)
        default: throw error("expected a value, found \(found())")
        }
    }
}
