import SQLiteDB
import TaskModel
import TextFormats

/// How a history entry's changes are stored (migration v12): packed as JSON in the entry's own
/// row, so that a one-task command's entry is one row on one page, not a row in each of three
/// tables and two indexes.
///
/// A change is `[kind, task, last, uuid, [[field, before, after], …]]` (the fields only for a
/// change of kind 1, changed). A value is kept with its SQLite type: an integer is a JSON
/// number, text a JSON string, NULL null, a real a number with a point; a BLOB, which JSON cannot
/// hold, is `{"x": "<hex>"}`. An entry of more than `perPart` changes keeps its first parts in
/// `history_part`, `perPart` changes each, and its last in its row, so that writing one never
/// holds more than a part of it, nor does one row grow without bound (an undo still reads all
/// its changes, as it did the rows of schema 11). Each row carries `lo` and `hi`, the lowest and
/// highest task id its changes touch, so that a task's history reads the JSON only of the rows
/// that may hold it.
enum PackedChanges {
    static let perPart = 256

    /// One entry's changes, a row per field (a change without fields is one row of NULLs):
    /// part, index, kind, task, last, uuid, field, before (value, JSON type, hex), after (the same).
    static let entrySQL = """
        SELECT p.part, c.key, c.value ->> 0, c.value ->> 1, c.value ->> 2, c.value ->> 3,
               f.value ->> 0, f.value ->> 1, json_type(f.value, '$[1]'), f.value ->> '$[1].x',
               f.value ->> 2, json_type(f.value, '$[2]'), f.value ->> '$[2].x'
        FROM (SELECT part, changes FROM history_part WHERE entry = ?1
              UNION ALL SELECT 9223372036854775807, changes FROM history WHERE id = ?1) p
        JOIN json_each(p.changes) c LEFT JOIN json_each(c.value, '$[4]') f
        ORDER BY p.part, c.key, f.key
        """

    /// Whether the entry `h` (a row of `history`) touches task `?1`: its row's own changes, or a
    /// part's. `lo` and `hi` rule out most rows before any JSON is read.
    static let touchesTask = """
        (h.lo <= ?1 AND h.hi >= ?1 AND (
            EXISTS (SELECT 1 FROM json_each(h.changes) c WHERE c.value ->> 1 <= ?1 AND c.value ->> 2 >= ?1)
            OR EXISTS (SELECT 1 FROM history_part p, json_each(p.changes) c
                       WHERE p.entry = h.id AND p.lo <= ?1 AND p.hi >= ?1 AND c.value ->> 1 <= ?1 AND c.value ->> 2 >= ?1)))
        """

    /// The first and last task of every change of the entries `h` that `condition` picks.
    static func runs(where condition: String) -> String {
        """
        SELECT c.value ->> 1, c.value ->> 2 FROM history h, json_each(h.changes) c WHERE \(condition)
        UNION ALL
        SELECT c.value ->> 1, c.value ->> 2 FROM history h JOIN history_part p ON p.entry = h.id, json_each(p.changes) c WHERE \(condition)
        """
    }

    /// One change as JSON, appended to `text`.
    static func append(_ kind: HistoryChange.Kind, _ first: Int64, _ last: Int64, uuid: String?,
                       fields: [(name: String, before: SQLiteValue, after: SQLiteValue)], to text: inout [UInt8]) {
        text.append(UInt8(ascii: "["))
        text += "\(kind.rawValue),\(first),\(last),".utf8
        if let uuid { JSONValue.appendString(uuid, to: &text) } else { text += "null".utf8 }
        if !fields.isEmpty {
            text += ",[".utf8
            for (index, field) in fields.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                text.append(UInt8(ascii: "["))
                JSONValue.appendString(field.name, to: &text)
                text.append(UInt8(ascii: ","))
                append(field.before, to: &text)
                text.append(UInt8(ascii: ","))
                append(field.after, to: &text)
                text.append(UInt8(ascii: "]"))
            }
            text.append(UInt8(ascii: "]"))
        }
        text.append(UInt8(ascii: "]"))
    }

    private static func append(_ value: SQLiteValue, to text: inout [UInt8]) {
        switch value {
        case .null: text += "null".utf8
        case .integer(let number): text += String(number).utf8
        case .real(let number):
            // Swift's shortest form that reads back as the same double; JSON has no infinity,
            // and SQLite reads 9e999 as one.
            if number.isFinite {
                let written = "\(number)"
                text += written.utf8
                if !written.contains(where: { $0 == "." || $0 == "e" }) { text += ".0".utf8 }
            } else {
                text += (number < 0 ? "-9e999" : "9e999").utf8
            }
        case .text(let string): JSONValue.appendString(string, to: &text)
        case .blob(let bytes):
            text += "{\"x\":\"".utf8
            let digits = Array("0123456789abcdef".utf8)
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
            text += "\"}".utf8
        }
    }

    /// A value read by `entrySQL` from its three columns at `index`.
    static func value(_ row: Statement, _ index: Int32) -> SQLiteValue {
        guard row.optionalString(index + 1) == "object" else { return row.value(index) }
        let hex = Array(row.string(index + 2).utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var position = 0
        while position + 1 < hex.count {
            guard let high = nibble(hex[position]), let low = nibble(hex[position + 1]) else { break }
            bytes.append(high << 4 | low)
            position += 2
        }
        return .blob(bytes)
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
