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
                fields[key] = try value(&reader)
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

extension SyncFieldsJSON {
    /// The fields of the JSON text `bytes` by position in `SyncField.all` (`ReceivedChange.values`), and its
    /// `deleted` member; other keys are dropped. The same values and failures as `decode`,
    /// without a dictionary: a key is first compared, in place, with the one PostgreSQL's
    /// `jsonb` prints next (it orders keys by length, then bytes), and made into a string and
    /// looked up only when it is another.
    public static func decodeIndexed(_ bytes: [UInt8]) throws(SyncFieldsError) -> (values: [SyncValue?], deleted: SyncValue?) {
        var reader = JSONReader(bytes)
        var values = [SyncValue?](repeating: nil, count: SyncField.all.count)
        var deleted: SyncValue?
        var expected = 0
        do {
            try reader.beginObject()
            var isFirst = true
            let order = jsonbOrder, names = jsonbOrderBytes
            while let found = try reader.nextKey(isFirst: &isFirst, expecting: expected < names.count ? names[expected] : nil) {
                let value = try value(&reader)
                guard case .other(let key) = found else {
                    values[order[expected].index] = value
                    expected += 1
                    continue
                }
                if let index = ReceivedChange.index[key] {
                    values[index] = value
                    if let at = order.firstIndex(where: { $0.index == index }) { expected = at + 1 }
                } else if key == SyncField.deleted {
                    deleted = value
                }
            }
            guard reader.isAtEnd() else { throw SyncFieldsError(description: "text after the object") }
        } catch let error as SyncFieldsError {
            throw error
        } catch {
            throw SyncFieldsError(description: String(describing: error))
        }
        return (values, deleted)
    }

    /// A member's value: null, a string or a whole number (anything else is refused).
    static func value(_ reader: inout JSONReader) throws -> SyncValue {
        switch reader.peek() {
        case UInt8(ascii: "n"): _ = try reader.null(); return .null
        case UInt8(ascii: "\""): return .text(try reader.string())
        default: return .integer(try reader.integer())
        }
    }

    /// `jsonbOrder`'s names as UTF-8, which the reader compares each key with where it lies:
    /// made into strings to be compared, the keys were a tenth of a sync of 100,000 tasks
    /// into an empty file (callgrind).
    static let jsonbOrderBytes: [[UInt8]] = jsonbOrder.map { Array($0.name.utf8) }

    /// `SyncField.all` in the order `jsonb` prints keys: shorter first, then by bytes.
    static let jsonbOrder: [(name: String, index: Int)] = SyncField.all.enumerated()
        .map { (name: $1, index: $0) }
        .sorted { $0.name.utf8.count != $1.name.utf8.count ? $0.name.utf8.count < $1.name.utf8.count : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
}

/// Why a change's fields could not be read.
public struct SyncFieldsError: Error, Equatable, CustomStringConvertible {
    public let description: String
}
