extension String {
    /// The text without leading and trailing whitespace (spaces, tabs, newlines).
    public var trimmingWhitespace: String {
        // The common case, a title typed without padding: its ends are visible ASCII.
        var copy = self
        let plainEnds = copy.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last)
        }
        if plainEnds { return self }
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
