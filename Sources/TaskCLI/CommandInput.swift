#if canImport(Glibc)
import Glibc
#endif
import TaskModel
import TextFormats

/// Task ids, history entries and counts as typed: positive whole numbers.
enum IDParser {
    /// A history entry's number: `12` or `#12`.
    static func entry(_ text: String) throws -> Int64 {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }), let entry = Int64(digits), entry > 0 else {
            throw CLIError.usage("'\(text)' is not a history entry; an entry is a number such as 12 or #12 ('tasks history' lists them)")
        }
        return entry
    }

    /// A count: `0` or more.
    static func count(_ text: String) throws -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let count = Int(text) else {
            throw CLIError.usage("'\(text)' is not a count; give a whole number such as 20")
        }
        return count
    }

    static func id(_ text: String) throws -> Int64 {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw CLIError.usage("'\(text)' is not a task id; an id is a whole number such as 42 ('tasks list' shows them)")
        }
        guard let id = Int64(trimmed), id > 0 else {
            throw CLIError.usage("'\(text)' is not a task id; ids start at 1 and are less than 2^63")
        }
        return id
    }
}

/// Standard input read a line at a time, as it arrives: what `tasks add -` makes tasks of,
/// a million lines in the memory of one chunk. A final newline is optional, `\r\n` is
/// accepted; a line that is not UTF-8, or holds a NUL byte, is refused.
final class LineReader {
    private let input: Input
    private var buffer: [UInt8] = []
    private var start = 0
    /// Up to here, from `start`, the buffer holds no newline.
    private var scanned = 0
    private var chunk = [UInt8](repeating: 0, count: LineReader.chunkSize)
    private static let chunkSize = 1 << 16
    private var atEnd = false
    /// The error of a failed read.
    private var readError: Int32?
    /// A line read ahead (`peek`), handed out next.
    private var peeked: String??

    init(input: Input) { self.input = input }

    /// The next line without taking it: `nil` when there is none.
    func peek() throws(TaskFieldError) -> String? {
        if let peeked { return peeked }
        let line = try readLine()
        peeked = .some(line)
        return line
    }

    /// The next line, or `nil` at the end.
    func next() throws(TaskFieldError) -> String? {
        if let line = peeked {
            peeked = nil
            return line
        }
        return try readLine()
    }

    private func readLine() throws(TaskFieldError) -> String? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                defer { start = newline + 1; scanned = start }
                return try text(start..<end)
            }
            scanned = buffer.count
            if atEnd {
                if start == buffer.count { return nil }
                var end = buffer.count
                if buffer[end - 1] == 0x0D { end -= 1 }
                defer { start = buffer.count; scanned = start }
                return try text(start..<end)
            }
            fill()
            if let readError { throw .unreadableLine("could not be read: \(String(cString: strerror(readError)))") }
        }
    }

    /// Appends the next chunk read; drops the lines already handed out once they are many.
    private func fill() {
        if start == buffer.count || start >= Self.chunkSize {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        let count = chunk.withUnsafeMutableBytes { input.read(into: $0) }
        if count > 0 { buffer.append(contentsOf: chunk[0..<count]) }
        if count <= 0 { atEnd = true }
        if count < 0 { readError = errno }
    }

    private func text(_ range: Range<Int>) throws(TaskFieldError) -> String {
        let line = buffer[range]
        if line.contains(0) { throw .unreadableLine("holds a NUL byte") }
        guard let text = UTF8Text.string(line) else { throw .unreadableLine("is not valid UTF-8") }
        return text
    }
}

/// Standard input as ids: UTF-8, no NUL bytes, separated by whitespace or newlines.
struct StdinReader {
    let input: Input

    /// Ids separated by whitespace or newlines.
    func ids() throws -> [Int64] {
        let bytes = input.readToEnd()
        var ids: [Int64] = []
        var lineNumber = 1
        var start = 0
        while start < bytes.count {
            let byte = bytes[start]
            if byte == 10 { lineNumber += 1 }
            if byte == 10 || byte == 32 || byte == 9 || byte == 13 {
                start += 1
                continue
            }
            var end = start
            while end < bytes.count && ![10, 32, 9, 13].contains(bytes[end]) { end += 1 }
            let word = try bytes[start..<end].withUnsafeBufferPointer { try text($0, line: lineNumber) }
            do {
                ids.append(try IDParser.id(word))
            } catch let error as CLIError {
                throw CLIError.usage("stdin line \(lineNumber): " + error.message)
            }
            start = end
        }
        return ids
    }

    private func text(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws -> String {
        if bytes.contains(0) { throw CLIError.usage("stdin line \(line) holds a NUL byte; nothing was changed") }
        guard let text = UTF8Text.string(bytes) else {
            throw CLIError.usage("stdin line \(line) is not valid UTF-8; nothing was changed")
        }
        return text
    }
}

