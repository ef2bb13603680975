/// UUIDs in their usual text form: 32 lower-case hex digits in 8-4-4-4-12 groups. The callers
/// set the version and variant bits (random v4 and time-ordered v7 in the store, name-based v8
/// for todo.txt lines, repeating series and sync changes: `nameBased`).
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

extension UUIDText {
    /// A new random (version 4) UUID from the system's generator (a system call per draw; the
    /// store makes `TimeOrderedUUID`s), e.g. `1b4e28ba-2fa1-41d2-883f-0016d3cca427`.
    @Sendable public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return version4(high: generator.next(), low: generator.next())
    }

    /// The 128 bits with the version-4 and variant bits set.
    static func version4(high: UInt64, low: UInt64) -> String {
        format(high: (high & ~0xF000) | 0x4000, low: (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000)
    }

    /// `uuid` in lower case when it is 32 hex digits in the 8-4-4-4-12 groups; else `nil`.
    public static func normalized(_ uuid: String) -> String? {
        var uuid = uuid
        guard uuid.utf8.count == 36 else { return nil }
        // The common case, already lower case: no copy.
        let isLower = uuid.withUTF8 { bytes in
            bytes.indices.allSatisfy { index in isDash(index) ? bytes[index] == UInt8(ascii: "-") : isLowerHex(bytes[index]) }
        }
        if isLower { return uuid }
        var lowered: [UInt8] = []
        lowered.reserveCapacity(36)
        for (index, byte) in uuid.utf8.enumerated() {
            if isDash(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                lowered.append(byte)
            } else if isLowerHex(byte) {
                lowered.append(byte)
            } else if (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) {
                lowered.append(byte + 32)
            } else {
                return nil
            }
        }
        return String(decoding: lowered, as: UTF8.self)
    }

    private static func isDash(_ index: Int) -> Bool { index == 8 || index == 13 || index == 18 || index == 23 }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}

/// FNV-1a over bytes fed in parts: what a name-based uuid hashes.
public struct NameHash {
    fileprivate var value: UInt64

    /// Adds `bytes` to the hash.
    public mutating func mix<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01B3
        }
    }
}

extension UUIDText {
    /// A name-based uuid (version 8): two 64-bit FNV-1a hashes, from two seeds, of the bytes
    /// `name` feeds, so the same bytes give the same uuid on every machine. `mixed` stirs each
    /// hash once more, so that names differing in one byte differ in every nibble. Two spellings
    /// are in use and must never change, since files and remotes hold their uuids: todo.txt
    /// lines (unmixed) and `derived(from:)` (mixed).
    public static func nameBased(mixed: Bool, _ name: (inout NameHash) -> Void) -> String {
        func hash(_ seed: UInt64) -> UInt64 {
            var hash = NameHash(value: seed)
            name(&hash)
            var value = hash.value
            if mixed {
                value ^= value >> 33
                value = value &* 0xFF51_AFD7_ED55_8CCD
                value ^= value >> 33
            }
            return value
        }
        return format(high: (hash(0xCBF2_9CE4_8422_2325) & ~0xF000) | 0x8000,  // version 8
                      low: (hash(0x8422_2325_CBF2_9CE4) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000)  // RFC 4122 variant
    }

    /// A uuid that `name` alone decides: the next occurrence of a series is
    /// `derived("series-uuid 2026-12-24")`, so two processes — or two synced machines —
    /// completing the same occurrence make the same next one; a sync change's id likewise.
    public static func derived(from name: String) -> String {
        nameBased(mixed: true) { $0.mix(name.utf8) }
    }
}
