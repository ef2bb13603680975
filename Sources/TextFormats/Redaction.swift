/// Secrets taken out of text that is kept or shown: the history's record of a command as
/// typed, messages. Whatever the text is — a URL given to `--remote`, a `key=value` address, a
/// title that happens to hold one — a password in it becomes `***`.
public enum Redaction {
    /// What stands where a password stood.
    public static let mask = "***"

    /// `text` with the password of every URL's user information (`scheme://user:SECRET@host`)
    /// and the value of every `password=` parameter or word (`?password=SECRET`,
    /// `password='SECRET'`) replaced by `***`. Text without either comes back unchanged.
    public static func passwords(in text: String) -> String {
        let bytes = Array(text.utf8)
        // Fast path: most words hold neither "://" nor "password".
        guard bytes.indices.contains(where: { isURLMark(bytes, at: $0) || matchesFolded(bytes, password, at: $0) }) else {
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if let end = urlUserPasswordEnd(bytes, at: index, out: &out) {
                index = end
            } else if let end = passwordParameterEnd(bytes, at: index, out: &out) {
                index = end
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let password = Array("password".utf8)

    /// Whether `://` begins at `index` (a loop, not `firstRange(of:)`: that one is generic, and
    /// its first call looked up its witnesses at run time, 60,000 instructions of a one-task
    /// command).
    private static func isURLMark(_ bytes: [UInt8], at index: Int) -> Bool {
        index + 3 <= bytes.count && bytes[index] == 0x3A && bytes[index + 1] == 0x2F && bytes[index + 2] == 0x2F
    }

    /// At `index` a `://`: copies the scheme's mark and the user information with its password
    /// masked into `out`, and returns where the host begins; `nil` when nothing is masked there.
    private static func urlUserPasswordEnd(_ bytes: [UInt8], at index: Int, out: inout [UInt8]) -> Int? {
        guard isURLMark(bytes, at: index) else { return nil }
        let start = index + 3
        // The user information ends at the last '@' before a space. Not at the path: a
        // password typed with a raw '/', '?' or '#' in it is still a password (masking a
        // path that holds a ':' and an '@' is the safe mistake).
        var end = start
        while end < bytes.count, !" \t\n".utf8.contains(bytes[end]) { end += 1 }
        guard let at = bytes[start..<end].lastIndex(of: 0x40),
              let colon = bytes[start..<at].firstIndex(of: 0x3A) else { return nil }
        out += bytes[index...colon]
        out += Array(mask.utf8)
        return at
    }

    /// At `index` a `password=` that starts a parameter or a word: copies it with its value
    /// masked into `out`, and returns where the value ends; `nil` otherwise.
    private static func passwordParameterEnd(_ bytes: [UInt8], at index: Int, out: inout [UInt8]) -> Int? {
        guard index + password.count < bytes.count, matchesFolded(bytes, password, at: index) else { return nil }
        if index > 0, !"?&; \t\n'\"".utf8.contains(bytes[index - 1]) { return nil }
        var cursor = index + password.count
        while cursor < bytes.count, bytes[cursor] == 0x20 { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] == 0x3D else { return nil }
        cursor += 1
        while cursor < bytes.count, bytes[cursor] == 0x20 { cursor += 1 }
        out += bytes[index..<cursor]
        out += Array(mask.utf8)
        if cursor < bytes.count, bytes[cursor] == 0x27 {
            // A quoted value, as libpq's key=value words allow: up to the closing quote.
            cursor += 1
            while cursor < bytes.count, bytes[cursor] != 0x27 {
                cursor += bytes[cursor] == 0x5C ? 2 : 1
            }
            return min(cursor + 1, bytes.count)
        }
        while cursor < bytes.count, !"& \t\n;#".utf8.contains(bytes[cursor]) { cursor += 1 }
        return cursor
    }

    /// Whether `needle` (lower-case ASCII) stands at `index`, ignoring ASCII case.
    private static func matchesFolded(_ bytes: [UInt8], _ needle: [UInt8], at index: Int) -> Bool {
        guard index + needle.count <= bytes.count else { return false }
        for offset in 0..<needle.count {
            let byte = bytes[index + offset]
            if (byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte) != needle[offset] { return false }
        }
        return true
    }
}
