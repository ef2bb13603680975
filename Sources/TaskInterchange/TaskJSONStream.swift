#if canImport(Glibc)
import Glibc
#endif
import TaskModel

/// Our JSON (`tasks export`'s array of task objects) read one record at a time from a stream
/// of bytes, as an import writes them: the memory of one record and one chunk, whatever the
/// size of the file. The array's punctuation is read here; each object is cut out (its end
/// found by counting brackets outside strings) and read by `JSONReader` with `TaskJSON`'s
/// strict rules, its messages placed at the line and column of the whole input — the same
/// messages `TaskJSON.read` gives for the same bytes.
public final class TaskJSONStream: TaskRecordSource {
    public let unit = "record"
    /// The input's size over a task's (about 300 bytes); for a pipe, what has arrived so far
    /// over a task's, and at least 1,000 while more is coming than the first read held.
    public var expectedCount: Int {
        if let size { return size / 300 }
        return atEnd ? buffer.count / 300 : max(buffer.count / 300, 1000)
    }
    private let size: Int?
    /// Reads up to `count` bytes into the buffer's end: how many (0 at the end), or nil when
    /// reading failed (with the reason).
    public typealias Read = (_ buffer: inout [UInt8], _ count: Int) -> Result<Int, TaskImportInputError>

    private let read: Read
    private let notJSONHint = "for a todo.txt file use --format todotxt"
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private enum Place { case start, inArray(first: Bool), done }
    private var place = Place.start
    private var number = 0
    /// Where `buffer[mark]` is in the input: its line, and its column in characters (kept as
    /// the reading moves on, so that placing a record costs only the bytes since the last).
    private var mark = 0
    private var markLine = 1
    private var markColumn = 1
    static let chunk = 1 << 16

    /// A stream read with `read`; `size`, the input's size in bytes when known (a file), makes
    /// `expectedCount` (a task is about 300 bytes of our JSON).
    public init(size: Int?, read: @escaping Read) {
        self.read = read
        self.size = size
    }

    // MARK: - Bytes

    /// The byte at `index`, reading more as needed; nil at the end of the input.
    private func byte(at index: Int) throws -> UInt8? {
        while index >= buffer.count {
            if atEnd { return nil }
            try fill()
        }
        return buffer[index]
    }

    private func fill() throws {
        switch read(&buffer, Self.chunk) {
        case .success(let count): if count == 0 { atEnd = true }
        case .failure(let error): throw error
        }
    }

    private func skipSpace() throws {
        while let byte = try byte(at: position), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    /// Drops what was read before `position` (once it is most of the buffer), keeping count of
    /// its lines for messages.
    private func compact() {
        guard position >= Self.chunk, position * 2 >= buffer.count else { return }
        (markLine, markColumn) = place(of: position)
        buffer.removeFirst(position)
        position = 0
        mark = 0
    }

    /// The line and column of `buffer[index]` (at or after the mark: the reading never goes
    /// back); the mark moves there.
    /// Every record's place is taken (its reader names lines and columns), so this runs over
    /// the whole input: the newlines are found by `memchr`, and only the characters after the
    /// last one are counted for the column (a byte-at-a-time loop was 5% of an import,
    /// callgrind).
    private func place(of index: Int) -> (line: Int, column: Int) {
        let end = min(max(index, mark), buffer.count)
        let (start, line, column) = (mark, markLine, markColumn)
        (markLine, markColumn) = buffer.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress, start < end else { return (line, column) }
            var newlines = 0, lineStart = start
            while lineStart < end, let hit = memchr(base + lineStart, 0x0A, end - lineStart) {
                newlines += 1
                lineStart = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
            }
            var characters = 0
            for offset in lineStart..<end where bytes[offset] & 0xC0 != 0x80 { characters += 1 }
            return newlines == 0 ? (line, column + characters) : (line + newlines, 1 + characters)
        }
        mark = end
        return (markLine, markColumn)
    }

    private func error(_ message: String, record: Int? = nil) -> TaskImportInputError {
        let (line, column) = place(of: position)
        return TaskImportInputError("line \(line), column \(column): \(message)" + (record.map { " (in record \($0))" } ?? ""))
    }

    /// What is at `position`, for messages: `'x'`, or "the end of the input".
    private func found() throws -> String {
        guard let byte = try byte(at: position) else { return "the end of the input" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return byte < 0x21 || byte == 0x7F ? "byte 0x\(String(byte, radix: 16))" : "a non-ASCII character"
    }

    // MARK: - Records

    /// Whether the array holds no record (known after `begin`).
    public private(set) var isEmpty = false

    /// Reads the array's opening `[` (and its closing `]` when it is empty): input that is no
    /// array at all is refused before anything is written.
    public func begin() throws {
        guard case .start = place else { return }
        // A first chunk, or the whole of a short input: enough to say how large it is.
        while buffer.count < Self.chunk && !atEnd { try fill() }
        if try byte(at: 0) == 0xEF, try byte(at: 1) == 0xBB, try byte(at: 2) == 0xBF { position = 3 }  // a UTF-8 byte order mark
        try skipSpace()
        guard let first = try byte(at: position) else { throw TaskImportInputError("the input is empty; \(notJSONHint)") }
        if first == UInt8(ascii: "{") {
            throw TaskImportInputError("expected an array of tasks ('[' … ']'), as 'tasks export' writes, found one object")
        }
        guard first == UInt8(ascii: "[") else { throw TaskImportInputError("this is not JSON (it starts with \(try found())); \(notJSONHint)") }
        position += 1
        place = .inArray(first: true)
        try skipSpace()
        if try byte(at: position) == UInt8(ascii: "]") {
            try close()
            isEmpty = true
        }
    }

    /// Past the closing `]`: nothing but white space may follow.
    private func close() throws {
        position += 1
        try skipSpace()
        if try byte(at: position) != nil { throw error("more after the array's closing ']': \(try found())") }
        place = .done
    }

    public func next() throws -> (record: TaskRecord, number: Int)? {
        switch place {
        case .done:
            return nil
        case .start:
            try begin()
            return try next()
        case .inArray(let first):
            try skipSpace()
            let next = try byte(at: position)
            if next == UInt8(ascii: "]") {
                try close()
                return nil
            }
            if !first {
                guard next == UInt8(ascii: ",") else { throw error("expected ',' or ']' after an array element, found \(try found())") }
                position += 1
                try skipSpace()
                if try byte(at: position) == UInt8(ascii: "]") { throw error("expected a value after ',', found ']'") }
            }
            guard try byte(at: position) != nil else { throw error("the input ends inside an array") }
            number += 1
            guard try byte(at: position) == UInt8(ascii: "{") else {
                throw error("expected a task object ('{'), found \(try found())", record: number)
            }
            compact()
            let start = position
            // Read where it stands in the buffer: a record read whole before the buffer's end
            // is the record, whatever follows. One that fails — cut by the buffer's end, or
            // wrong — is cut out and read again below, for its message placed in the input
            // (finding every record's end first, and copying it out, was 6% of an import).
            if let (record, end) = recordInPlace(from: start) {
                position = end
                place = .inArray(first: false)
                return (record, number)
            }
            let end = try endOfObject(from: start)
            let (line, column) = place(of: start)
            var reader = JSONReader(Array(buffer[start..<end]), line: line, column: column)
            let record: TaskRecord
            do {
                record = try TaskJSON.readRecord(&reader, number: number)
            } catch let failure as JSONReader.Failure {
                throw TaskImportInputError(InterchangeError(failure, record: number, key: nil).description)
            } catch let failure as InterchangeError {
                throw TaskImportInputError(failure.description)
            }
            position = end
            place = .inArray(first: false)
            return (record, number)
        }
    }

    /// The record at `start` read in the buffer, and the index past its `}`; nil when it does
    /// not read (cut by the buffer's end, or wrong). The reader shares the buffer and is gone
    /// when this returns: alive while the buffer grows, it had each chunk copy the buffer.
    private func recordInPlace(from start: Int) -> (TaskRecord, end: Int)? {
        var reader = JSONReader(buffer, at: start)
        guard let record = try? TaskJSON.readRecord(&reader, number: number) else { return nil }
        return (record, reader.index)
    }

    /// The index just past the `}` that closes the object at `start` (brackets counted outside
    /// strings; the reader checks the rest); the end of the input when it never closes.
    /// The bytes are read in place, each classed by `kinds`: through the class's array, with a
    /// test per kind, the scan took 22 instructions a byte and 7% of an import (callgrind).
    private func endOfObject(from start: Int) throws -> Int {
        var depth = 0
        var inString = false
        var index = start
        while true {
            let end: Int? = buffer.withUnsafeBufferPointer { bytes in
                Self.kinds.withUnsafeBufferPointer { kinds in
                    while index < bytes.count {
                        let kind = kinds[Int(bytes[index])]
                        index += 1
                        if kind == 0 { continue }
                        if inString {
                            // After a backslash the next byte is skipped, even past the buffer's end.
                            if kind == Self.backslash { index += 1 } else if kind == Self.quote { inString = false }
                        } else if kind == Self.quote {
                            inString = true
                        } else if kind == Self.opening {
                            depth += 1
                        } else if kind == Self.closing {
                            depth -= 1
                            if depth == 0 { return index }
                        }
                    }
                    return nil
                }
            }
            if let end { return end }
            if atEnd { return buffer.count }
            try fill()
        }
    }

    private static let quote: UInt8 = 1, backslash: UInt8 = 2, opening: UInt8 = 3, closing: UInt8 = 4
    /// What each byte is to the scan: 0 for most.
    private static let kinds: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "\""): TaskJSONStream.quote
        case UInt8(ascii: "\\"): TaskJSONStream.backslash
        case UInt8(ascii: "{"), UInt8(ascii: "["): TaskJSONStream.opening
        case UInt8(ascii: "}"), UInt8(ascii: "]"): TaskJSONStream.closing
        default: 0
        }
    }
}
