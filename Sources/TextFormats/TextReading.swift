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
}
