/// Text read line by line: each line's 1-based number and its bytes, without the `\n` or
/// `\r\n` that ends it (the last line may have neither). Stdin titles and todo.txt files
/// are read this way.
public enum Lines {
    public static func forEach(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0,
                               _ body: (_ number: Int, _ line: UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        var number = 0
        var start = start
        while start < bytes.count {
            number += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            try body(number, UnsafeBufferPointer(rebasing: bytes[start..<lineEnd]))
            start = end + 1
        }
    }
}

/// Bytes as text, or `nil` when they are not valid UTF-8. ASCII — keys, uuids, times, most
/// titles — is decoded without validation; `String(validating:)` on a slice looks up generic
/// metadata for every call, a third of the time of reading a 100,000-task file.
public enum UTF8Text {
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for byte in bytes where byte >= 0x80 { return String(validating: bytes, as: UTF8.self) }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func string(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.withUnsafeBufferPointer(string)
    }

    /// Text whose only fault is CESU-8: a character past U+FFFF written as its two UTF-16
    /// surrogates, each as three bytes (`ED A0–AF xx`, then `ED B0–BF xx`). Taskwarrior 2.6
    /// stores an escaped pair (`\ud83c\udf89`) so, and its export carries it: each such pair
    /// is the one character it encodes. A surrogate alone is still no text (nil).
    public static func joiningSurrogatePairs(_ bytes: ArraySlice<UInt8>) -> String? {
        var repaired: [UInt8] = []
        repaired.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0xED, index + 5 < bytes.endIndex, (0xA0...0xAF).contains(bytes[index + 1]), bytes[index + 3] == 0xED,
               (0xB0...0xBF).contains(bytes[index + 4]), bytes[index + 2] & 0xC0 == 0x80, bytes[index + 5] & 0xC0 == 0x80 {
                let high = 0xD000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                let low = 0xD000 | UInt32(bytes[index + 4] & 0x3F) << 6 | UInt32(bytes[index + 5] & 0x3F)
                guard let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else { return nil }
                repaired.append(contentsOf: String(Character(scalar)).utf8)
                index += 6
            } else {
                repaired.append(bytes[index])
                index += 1
            }
        }
        return repaired.count < bytes.count ? string(repaired[...]) : nil
    }
}
