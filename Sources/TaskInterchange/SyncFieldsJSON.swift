import TaskModel
import TextFormats

/// A sync change's fields as the remote keeps them: one flat JSON object of column names to
/// null, whole numbers and strings (`{"done":1,"title":"Buy milk"}`), keys sorted.
public enum SyncFieldsJSON {
    public static func encode(_ fields: [String: SyncValue]) -> String {
        JSONValue.object(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }).serialized()
    }

    /// The fields of `text`; throws a message naming what is wrong.
    public static func decode(_ text: String) throws(SyncFieldsError) -> [String: SyncValue] {
        var reader = JSONReader(Array(text.utf8))
        var fields: [String: SyncValue] = [:]
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
