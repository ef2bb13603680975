#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextFormats

/// The lines `tasks sync` and its remote helper (`tasks-postgres`) exchange over a pipe, as git
/// talks to its remote helpers: one message per line, its fields as TSV writes them (tabs
/// between, a tab, newline, carriage return or backslash inside a field written `\t`, `\n`,
/// `\r`, `\\` — TextFormats' `TSV`).
///
///     tasks → helper                          helper → tasks
///     deadline SECONDS                        (nothing; the helper ends itself after SECONDS)
///     open URL NODE                           ok VERSION | error KIND MESSAGE
///     pull AFTER                              change SEQ ID NODE ORIGIN CLOCK TASK FIELDS … end
///     push ID NODE ORIGIN CLOCK TASK FIELDS   (nothing)
///     flush                                   ok COUNT
///     commit                                  ok LAST
///     watch URL NODE                          ok listening, then notice COUNT … (a helper of its own)
///
/// `commit` of a sync that stored changes notifies the remote's `tasks_change` channel with
/// the node's id; a `watch` helper listens there and says `notice` for each burst of other
/// nodes' commits, until its stdin closes.
/// FIELDS is a JSON object. A `push` line after `push` is a row of PostgreSQL COPY's text
/// format too (the same four escapes), which `tasks-postgres` copies as it is. Any failure is `error KIND MESSAGE`, after which the helper exits
/// and the remote keeps nothing uncommitted. KIND: address, unreachable, login, missing
/// (no such database), denied, newer, failed.
public enum WireLine {
    /// One line (without its newline) of `fields`.
    public static func encode(_ fields: [String]) -> String { TSV.record(fields) }

    /// The fields of one line (without its newline).
    public static func decode(_ line: String) -> [String] { TSV.fields(line) }

    /// `text` as a JSON string literal, quotes included (TextFormats' escaping).
    public static func jsonString(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONValue.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Lines read from a file descriptor, a buffer at a time.
public final class WireReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline goes on: the bytes from `start` to here hold none.
    /// (Searching again from `start` after every read made a 200 MB line cost 51 s.)
    private var searched = 0
    private var atEnd = false

    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next line without its newline; `nil` at the end (a last line without a newline
    /// is returned too).
    public func readLine() -> String? {
        readLine { String(decoding: $0, as: UTF8.self) }
    }

    /// `body` of the next line's bytes, without its newline (a slice of the reader's buffer,
    /// for the length of the call); `nil` at the end.
    public func readLine<Result>(_ body: (ArraySlice<UInt8>) throws -> Result) rethrows -> Result? {
        while true {
            let newline = buffer.withUnsafeBufferPointer { bytes -> Int? in
                let from = max(start, searched)
                guard let base = bytes.baseAddress, from < bytes.count,
                      let found = memchr(base + from, 0x0A, bytes.count - from) else { return nil }
                return UnsafeRawPointer(found) - UnsafeRawPointer(base)
            }
            if let newline {
                let line = start..<newline
                start = newline + 1
                searched = start
                return try body(buffer[line])
            }
            searched = buffer.count
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = start..<buffer.count
                start = buffer.count
                searched = start
                return try body(buffer[line])
            }
            if start > 0 {
                buffer.removeFirst(start)
                searched -= start
                start = 0
            }
            // Read straight onto the end of the buffer.
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: Self.chunk))
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress.map { $0 + old }, Self.chunk) }
            buffer.removeLast(Self.chunk - max(count, 0))
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { atEnd = true }
        }
    }

    /// Whether a whole line (or the last one, at the end) is in the buffer already, so that
    /// `readLine` returns it without reading.
    public var hasBufferedLine: Bool {
        if atEnd { return start < buffer.count }
        return buffer.withUnsafeBufferPointer { bytes in
            let from = max(start, searched)
            guard let base = bytes.baseAddress, from < bytes.count else { return false }
            return memchr(base + from, 0x0A, bytes.count - from) != nil
        }
    }

    private static let chunk = 65_536
}

/// Lines written to a file descriptor, buffered until `flush`.
public final class WireWriter {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// Queues `fields` as one line; written when 64 KiB are queued or on `flush`.
    public func send(_ fields: [String]) -> Bool {
        pending += TSV.line(fields).utf8
        return pending.count < 65_536 || flush()
    }

    /// Writes what is queued; `false` when the other end is gone.
    @discardableResult
    public func flush() -> Bool {
        var offset = 0
        defer { pending.removeAll(keepingCapacity: true) }
        while offset < pending.count {
            let written = pending.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return write(descriptor, base + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
