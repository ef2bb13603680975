import TextFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered byte stream to a file descriptor or to memory (for in-process tests).
///
/// A closed pipe is not an error for a command-line tool: on `EPIPE` the stream marks itself
/// closed and drops everything after, so that `tasks list | head -1` ends quietly.
public final class Output {
    enum Target {
        case descriptor(Int32)
        case memory
    }

    private let target: Target
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    /// The reader went away (EPIPE); further writes are dropped.
    public private(set) var isClosed = false
    /// Everything written, for a memory stream.
    public private(set) var captured: [UInt8] = []

    /// A stream writing to file descriptor `descriptor`.
    public init(descriptor: Int32) {
        target = .descriptor(descriptor)
        buffer.reserveCapacity(capacity)
    }

    /// A stream that keeps what it is given (`text`).
    public init() { target = .memory }

    /// What was written, as text (memory streams).
    public var text: String { String(decoding: captured, as: UTF8.self) }

    /// What the stream does to the text it is given, the last step before its bytes leave.
    public enum Guard: Sendable {
        /// Bytes as they are (a pipe or a file).
        case none
        /// The program's style marks become their sequences (colour asked for in a pipe).
        case marks
        /// A terminal: `TerminalText.guarded` — the marks become sequences, and every other
        /// control character, override or invisible character is shown visibly, whichever
        /// path wrote it.
        case terminal
    }

    /// Set by the program from what the stream is connected to.
    public var guarding = Guard.none

    public func write(_ text: String) {
        if isClosed { return }
        var text = text
        let start = buffer.count
        text.withUTF8 { bytes in buffer.append(contentsOf: bytes) }
        guardWritten(from: start)
        if buffer.count >= capacity { flush() }
    }

    /// Appends to the buffer directly (for writers that escape as they copy). Whatever the
    /// body appends must be whole characters; it passes the guard as `write`'s text does.
    public func append(_ body: (inout [UInt8]) -> Void) {
        if isClosed { return }
        let start = buffer.count
        body(&buffer)
        guardWritten(from: start)
        if buffer.count >= capacity { flush() }
    }

    /// Writes one of the program's own terminal sequences (clearing its progress line) past the
    /// guard: never a field's text.
    func writeSequence(_ sequence: StaticString) {
        if isClosed { return }
        sequence.withUTF8Buffer { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { flush() }
    }

    /// Passes the bytes written since `start` through the guard.
    private func guardWritten(from start: Int) {
        let changed: String?
        switch guarding {
        case .none:
            return
        case .marks:
            // A mark is U+FDD0…U+FDEF: its first byte is 0xEF.
            guard buffer[start...].contains(0xEF) else { return }
            changed = TerminalText.expandingMarks(String(decoding: buffer[start...], as: UTF8.self))
        case .terminal:
            guard !buffer[start...].allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }) else { return }
            changed = TerminalText.guarded(String(decoding: buffer[start...], as: UTF8.self))
        }
        guard let changed else { return }
        buffer.removeSubrange(start...)
        buffer.append(contentsOf: changed.utf8)
    }

    /// Writes out what is buffered.
    public func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !isClosed, !buffer.isEmpty else { return }
        switch target {
        case .memory:
            captured.append(contentsOf: buffer)
        case .descriptor(let descriptor):
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        // EPIPE, or any other failure to write: the reader is gone; stop quietly.
                        isClosed = true
                        return
                    }
                    offset += written
                }
            }
        }
    }
}

/// The bytes of standard input, or of a string (tests): all at once, or a chunk at a time.
public struct Input {
    /// Fills the buffer from the start with the next bytes; 0 at end of file, -1 on an error.
    private let readSome: (UnsafeMutableRawBufferPointer) -> Int
    /// Whether it is a terminal (then `-` waits for typing; `$EDITOR` may open).
    public let isTerminal: Bool

    /// Standard input (file descriptor 0).
    public static func standardInput() -> Input {
        Input(isTerminal: isatty(0) == 1) { reading(0, into: $0) }
    }

    /// A file opened for reading, closed when the input is no longer held.
    static func file(descriptor: Int32) -> Input {
        let file = OpenFile(descriptor)
        return Input(isTerminal: false) { reading(file.descriptor, into: $0) }
    }

    private static func reading(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    private final class OpenFile {
        let descriptor: Int32
        init(_ descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }
    }

    /// Everything readable from `descriptor` up to end of file; `nil` on a read error.
    static func readAll(descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Input holding `bytes`.
    public static func bytes(_ bytes: [UInt8], isTerminal: Bool = false) -> Input {
        let cursor = Cursor(bytes)
        return Input(isTerminal: isTerminal) { cursor.copy(into: $0) }
    }

    /// Input made on demand: `next` gives the next bytes (nil: the end) once the reader has
    /// used up the last — a conversation, where what is sent next depends on what was answered
    /// (the tests drive `tasks mcp` request by request, with the CLI at work between them).
    public static func onDemand(_ next: @escaping () -> [UInt8]?) -> Input {
        var cursor = Cursor([])
        return Input(isTerminal: false) { buffer in
            while cursor.remaining == 0 {
                guard let bytes = next() else { return 0 }
                cursor = Cursor(bytes)
            }
            return cursor.copy(into: buffer)
        }
    }

    init(isTerminal: Bool, readSome: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
        self.isTerminal = isTerminal
        self.readSome = readSome
    }

    /// Up to `buffer.count` next bytes into `buffer`; 0 at end of file, -1 on a read error.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int { readSome(buffer) }

    /// Everything up to end of file if it is at most `limit` bytes; nil on a read error
    /// (`errno` says which), and `tooLarge` (nothing kept) past the limit.
    func readAll(atMost limit: Int) -> (bytes: [UInt8]?, tooLarge: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(into: $0) }
            if count < 0 { return (nil, false) }
            if count == 0 { return (bytes, false) }
            if count > limit - bytes.count { return (nil, true) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Everything up to end of file (or up to a read error).
    public func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(into: $0) }
            if count <= 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Bytes in memory, handed out in order.
    private final class Cursor {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var remaining: Int { bytes.count - offset }

        func copy(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
    }
}
