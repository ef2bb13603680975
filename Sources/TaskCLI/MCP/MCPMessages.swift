import TaskInterchange
import TextFormats

/// Standard input as MCP's stdio transport frames it: one JSON-RPC message a line. A line over
/// `limit` bytes is not held: it is read past and reported, so 10 MB strings cannot grow the
/// server's memory without bound.
final class MessageReader {
    enum Line {
        case message([UInt8])
        /// A line longer than the limit, read past.
        case tooLong
    }

    private let input: Input
    private let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Up to here, from `start`, the buffer holds no newline (each byte is looked at once).
    private var scanned = 0
    private var skipping = false
    private var atEnd = false
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    init(input: Input, limit: Int) {
        self.input = input
        self.limit = limit
    }

    /// The next line (its `\r\n` or `\n` taken off), or nil at the end of the input.
    func next() -> Line? {
        while true {
            if let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
                defer { start = newline + 1; scanned = start }
                if skipping {
                    skipping = false
                    return .tooLong
                }
                var end = newline
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                return .message(Array(buffer[start..<end]))
            }
            scanned = buffer.count
            if buffer.count - start > limit {
                // Over the limit with no end in sight: dropped, and the rest up to the next
                // newline with it.
                skipping = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
            }
            if atEnd {
                guard start < buffer.count || skipping else { return nil }
                defer { buffer.removeAll(); start = 0; scanned = 0 }
                if skipping {
                    skipping = false
                    return .tooLong
                }
                return .message(Array(buffer[start...]))
            }
            if start > 0 && start == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
            }
            let count = chunk.withUnsafeMutableBytes { input.read(into: $0) }
            if count > 0 { buffer.append(contentsOf: chunk[0..<count]) } else { atEnd = true }
        }
    }
}

/// JSON-RPC 2.0's error codes, and MCP's for a protocol version it does not speak.
enum RPCError {
    static let parse: Int64 = -32700
    static let invalidRequest: Int64 = -32600
    static let methodNotFound: Int64 = -32601
    static let invalidParams: Int64 = -32602
    static let unsupportedVersion: Int64 = -32022
    /// A resource that is not there (the MCP specification's code).
    static let resourceNotFound: Int64 = -32002
}

/// What a request asks in which protocol: the 2025-11-25 handshake era (no `_meta` version),
/// or the stateless 2026-07-28 one (its version and capabilities in each request's `_meta`).
enum MCPEra: Equatable {
    case handshake
    case stateless

    static let handshakeVersions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    static let statelessVersions = ["2026-07-28"]
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let clientInfoKey = "io.modelcontextprotocol/clientInfo"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"
}

/// A JSON-RPC answer's error, or the request's failure to be one.
struct RPCFailure: Error {
    var code: Int64
    var message: String
    var data: JSONValue?
}
