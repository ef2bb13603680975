import TaskModel
import TextFormats

/// A sync change's fields as the remote keeps them: one flat JSON object of column names to
/// null, whole numbers and strings (`{"done":1,"title":"Buy milk"}`), keys sorted.
public enum SyncFieldsJSON {
    /// Written byte by byte (a sync of 100,000 new tasks spent 0.9 s building and serializing
    /// a `JSONValue` per change); the same text `JSONValue.serialized` writes.
    public static func encode(_ fields: [String: SyncValue]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32 * fields.count + 2)
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in fields.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONValue.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            switch fields[key] {
            case .null?, nil: bytes += "null".utf8
            case .integer(let number)?: bytes += String(number).utf8  // a small string: no allocation
            case .text(let text)?: JSONValue.appendString(text, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The fields of `text`; throws a message naming what is wrong.
    public static func decode(_ text: String) throws(SyncFieldsError) -> [String: SyncValue] {
        var reader = JSONReader(Array(text.utf8))
        // Sized for a whole task's fields: growing from empty rehashed each one four times.
        var fields = [String: SyncValue](minimumCapacity: SyncField.all.count + 2)
        do {
            try reader.beginObject()
            var isFirst = true
            while let key = try reader.nextKey(isFirst: &isFirst) {
                switch reader.peek() {
                case UInt8(ascii: "n"): _ = try reader.null(); fields[key] = .null
                case UInt8(ascii: "\""): fields[key] = .text(try reader.string())
                default: fields[key] = .integer(try reader.integer())
                }
            }
            guard reader.isAtEnd() else { throw SyncFieldsError(description: "text after the object") }
        } catch let error as SyncFieldsError {
            throw error
        } catch {
            throw SyncFieldsError(description: String(describing: error))
        }
        return fields
    }
}

/// Why a change's fields could not be read.
public struct SyncFieldsError: Error, Equatable, CustomStringConvertible {
    public let description: String
}
