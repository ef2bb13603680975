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

/// Standard input as titles or ids: UTF-8, no NUL bytes, one title per line.
struct StdinReader {
    let input: Input

    /// One title per line; a final newline is optional, `\r\n` is accepted.
    func titles() throws -> [String] {
        let bytes = input.readToEnd()
        var titles: [String] = []
        try bytes.withUnsafeBufferPointer { buffer in
            try Lines.forEach(in: buffer) { number, line in titles.append(try text(line, line: number)) }
        }
        if titles.isEmpty { throw CLIError.usage("no titles on stdin; give one title per line") }
        return titles
    }

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

