import TextFormats
import TaskModel

/// `Task.extras`: the members of a JSON object, each value as another tool wrote it.
enum Extras {
    /// The members `"key":value,…` of `pairs` (each value already JSON text).
    static func text(_ pairs: [(key: String, value: String)]) -> String {
        var bytes: [UInt8] = []
        for (index, pair) in pairs.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONValue.appendString(pair.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: pair.value.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The members of `text`, in order; none when it is empty or (written by some other tool
    /// straight into the file) not an object's members.
    static func pairs(_ text: String) -> [(key: String, value: String)] {
        if text.isEmpty { return [] }
        var reader = JSONReader(Array(("{" + text + "}").utf8))
        var pairs: [(key: String, value: String)] = []
        do {
            try reader.beginObject()
            var isFirst = true
            while let key = try reader.nextKey(isFirst: &isFirst) { pairs.append((key, try reader.rawValue())) }
        } catch {
            return []
        }
        return pairs
    }

    /// The value kept for `key`, as JSON text.
    static func value(_ key: String, in pairs: [(key: String, value: String)]) -> String? {
        pairs.first { $0.key == key }?.value
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONValue.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON string's text, as `JSONReader` reads it; `nil` for any other value.
    static func string(_ json: String) -> String? {
        var reader = JSONReader(Array(json.utf8))
        return try? reader.string()
    }
}
