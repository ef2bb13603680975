/// UUIDs in their usual text form: 32 lower-case hex digits in 8-4-4-4-12 groups. The callers
/// set the version and variant bits (random v4 and time-ordered v7 in the store, name-based v8
/// for todo.txt lines).
public enum UUIDText {
    /// The 128 bits `high` then `low` as text, e.g. `1b4e28ba-2fa1-41d2-883f-0016d3cca427`.
    public static func format(high: UInt64, low: UInt64) -> String {
        // 32 hex digits in the 8-4-4-4-12 groups, written straight into the string's storage.
        return String(unsafeUninitializedCapacity: 36) { text in
            var out = 0
            func digits(_ value: UInt64, from bit: Int, count: Int) {
                for index in 0..<count {
                    let nibble = Int((value >> UInt64(bit - 4 * (index + 1))) & 0xF)
                    text[out] = nibble < 10 ? UInt8(48 + nibble) : UInt8(87 + nibble)
                    out += 1
                }
            }
            func dash() {
                text[out] = UInt8(ascii: "-")
                out += 1
            }
            digits(high, from: 64, count: 8); dash()
            digits(high, from: 32, count: 4); dash()
            digits(high, from: 16, count: 4); dash()
            digits(low, from: 64, count: 4); dash()
            digits(low, from: 48, count: 12)
            return out
        }
    }
}
