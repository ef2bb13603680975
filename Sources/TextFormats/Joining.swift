extension Array where Element == String {
    /// The strings with `separator` between them — what `joined(separator:)` returns. The
    /// standard library's `joined(separator:)` is generic and not specialized for our
    /// callers, and the first call in a process looks up the array's conformance witnesses
    /// at run time: about 100,000 instructions of a one-task `tasks add x` (3.7 million in
    /// all, callgrind). This one is concrete. Use it on a one-task command's path (the
    /// command line, the history's record of it, the SQL a write prepares); anywhere else
    /// either will do.
    public func concatenated(separator: String) -> String {
        var length = separator.utf8.count * Swift.max(count - 1, 0)
        for element in self { length += element.utf8.count }
        var text = ""
        text.reserveCapacity(length)
        for index in indices {
            if index > startIndex { text += separator }
            text += self[index]
        }
        return text
    }
}
