import ReactorCore
import TaskInterchange
import TextFormats

/// `tasks mcp`'s protocol: JSON-RPC 2.0, one message a line on stdin, one answer a line on
/// stdout, nothing else there (a log line goes to stderr). Each request is answered by itself
/// in the protocol revision it is written in — the 2025-11-25 handshake era (`initialize`, then
/// requests without a version) or the stateless 2026-07-28 (`server/discover`, each request's
/// version and capabilities in its `_meta`) — with no state kept between requests but the
/// tools' list. Bad input gets an error answer; the loop never ends on one.
final class MCPServer {
    let tools: [MCPTool]
    let session: MCPSession
    let version: String
    /// Where answers go, flushed after each.
    let output: Output
    /// The client the `initialize` handshake named (a stateless request names its own).
    private var handshakeClient = ""
    /// Where each request's own time is logged (`TASKS_MCP_TRACE=1`: stderr), for the benchmark.
    var trace: Output?

    /// The most one message may hold.
    static let messageLimit = 16 << 20

    static let instructions = "A person's task list (the tasks CLI). Read with query, get, next, overview, explain and history; "
        + "filters are the words of `tasks list` (+tag list:Name due.before:eow priority:H). Name tasks by uuid: ids are reused. "
        + "Where writing is allowed, a change tool first returns a plan (nothing changed); call it again with the plan to apply it, "
        + "and undo reverts what was applied."

    init(tools: [MCPTool], session: MCPSession, version: String, output: Output) {
        self.tools = tools
        self.session = session
        self.version = version
        self.output = output
    }

    /// Answers every message until the input ends.
    func serve(_ reader: MessageReader) {
        while let line = reader.next() {
            switch line {
            case .tooLong:
                send(Self.error(.null, RPCFailure(code: RPCError.parse, message: "a message over \(Self.messageLimit >> 20) MiB was read past")))
            case .message(let bytes):
                guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
                let start = MonotonicInstant.now
                let answer = answer(bytes)
                if let trace {
                    let elapsed = (MonotonicInstant.now - start).components
                    let micros = elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
                    // Read again for the log, after the clock stopped: what was asked.
                    let message = try? JSONTree.parse(bytes)
                    let tool = message?["params"]?["name"]?.string.map { " tool=\($0)" } ?? ""
                    let plan = message?["params"]?["arguments"]?["plan"] == nil ? "" : " plan"
                    trace.write("mcp-trace method=\(message?["method"]?.string ?? "-")\(tool)\(plan) us=\(micros)\n")
                    trace.flush()
                }
                if let answer { send(answer) }
            }
        }
    }

    private func send(_ answer: JSONValue) {
        output.write(answer.serialized() + "\n")
        output.flush()
    }

    /// The answer to one message, or nil for a notification (and for a response, which this
    /// server, asking nothing, does not expect).
    func answer(_ bytes: [UInt8]) -> JSONValue? {
        let message: JSONValue
        do {
            message = try JSONTree.parse(bytes)
        } catch {
            return Self.error(.null, RPCFailure(code: RPCError.parse, message: "Parse error: \(error.description)"))
        }
        guard case .object = message else {
            let reason = message.elements != nil ? "a batch (an array) is not part of MCP; send one request a line" : "a request is a JSON object"
            return Self.error(.null, RPCFailure(code: RPCError.invalidRequest, message: reason))
        }
        let id = message["id"]
        if let id, id.string == nil, id.integer == nil {
            return Self.error(.null, RPCFailure(code: RPCError.invalidRequest, message: "\"id\" must be a string or a whole number"))
        }
        guard message["jsonrpc"]?.string == "2.0" else {
            return Self.error(id ?? .null, RPCFailure(code: RPCError.invalidRequest, message: "\"jsonrpc\" must be \"2.0\""))
        }
        guard let method = message["method"]?.string else {
            if message["result"] != nil || message["error"] != nil { return nil }
            return Self.error(id ?? .null, RPCFailure(code: RPCError.invalidRequest, message: "a request needs a \"method\""))
        }
        // A notification (no id) is not answered, whatever it says.
        guard let id else { return nil }
        do {
            let params = message["params"] ?? .object([])
            guard params.members != nil else { throw RPCFailure(code: RPCError.invalidParams, message: "\"params\" must be an object") }
            let era = try Self.era(of: params, method: method)
            var result = try answer(method, params, era: era)
            if era == .stateless, method.hasSuffix("/list"), var members = result.members {
                members += [("ttlMs", .number(0)), ("cacheScope", .string("private"))]
                result = .object(members)
            }
            if era == .stateless, var members = result.members {
                members.append(("resultType", .string("complete")))
                members.append(("_meta", .object([(MCPEra.serverInfoKey, serverInfo)])))
                result = .object(members)
            }
            return .object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])
        } catch let failure as RPCFailure {
            return Self.error(id, failure)
        } catch {
            return Self.error(id, RPCFailure(code: -32603, message: "\(error)"))
        }
    }

    /// The request's revision: stateless when its `_meta` names 2026-07-28, the handshake era
    /// when it names none (or an older one); a version neither is -32022 with what is spoken.
    static func era(of params: JSONValue, method: String) throws -> MCPEra {
        guard let meta = params["_meta"], let named = meta[MCPEra.versionKey] else {
            if method == "server/discover" {
                throw RPCFailure(code: RPCError.invalidParams, message: "params._meta must carry '\(MCPEra.versionKey)' and '\(MCPEra.capabilitiesKey)'")
            }
            return .handshake
        }
        let version = named.string ?? named.serialized()
        if MCPEra.statelessVersions.contains(version) {
            guard meta[MCPEra.capabilitiesKey]?.members != nil else {
                throw RPCFailure(code: RPCError.invalidParams, message: "params._meta must carry '\(MCPEra.capabilitiesKey)', an object")
            }
            return .stateless
        }
        if MCPEra.handshakeVersions.contains(version) { return .handshake }
        throw RPCFailure(code: RPCError.unsupportedVersion, message: "Unsupported protocol version",
                         data: .object([("supported", .array((MCPEra.handshakeVersions + MCPEra.statelessVersions).map(JSONValue.string))),
                                        ("requested", .string(version))]))
    }

    var serverInfo: JSONValue { .object([("name", .string("tasks")), ("title", .string("tasks")), ("version", .string(version))]) }

    private var capabilities: JSONValue {
        .object([("tools", .object([("listChanged", .bool(false))])), ("resources", .object([("listChanged", .bool(false)), ("subscribe", .bool(false))])),
                 ("prompts", .object([("listChanged", .bool(false))]))])
    }

    private func answer(_ method: String, _ params: JSONValue, era: MCPEra) throws -> JSONValue {
        switch method {
        case "initialize":
            handshakeClient = Self.client(params["clientInfo"])
            let asked = params["protocolVersion"]?.string ?? ""
            let version = MCPEra.handshakeVersions.contains(asked) ? asked : MCPEra.handshakeVersions.last ?? "2025-11-25"
            return .object([("protocolVersion", .string(version)), ("capabilities", capabilities), ("serverInfo", serverInfo),
                            ("instructions", .string(Self.instructions))])
        case "server/discover":
            return .object([("supportedVersions", .array((MCPEra.handshakeVersions + MCPEra.statelessVersions).map(JSONValue.string))),
                            ("capabilities", capabilities), ("instructions", .string(Self.instructions)),
                            ("ttlMs", .number(0)), ("cacheScope", .string("private"))])
        case "ping":
            return .object([])
        case "tools/list":
            return .object([("tools", .array(tools.map(\.listed)))])
        case "resources/list":
            return try MCPResources.list(session)
        case "resources/templates/list":
            return MCPResources.templates
        case "resources/read":
            return try MCPResources.read(params, session)
        case "prompts/list":
            return MCPResources.promptList
        case "prompts/get":
            return try MCPResources.prompt(params)
        case "tools/call":
            let named = params["_meta"]?[MCPEra.clientInfoKey].map(Self.client) ?? ""
            return try call(params, client: named.isEmpty ? handshakeClient : named)
        default:
            throw RPCFailure(code: RPCError.methodNotFound, message: "Method not found", data: .string(method))
        }
    }

    /// A tool's answer: its result, or its failure as a result with `isError` (what the agent
    /// reads and can mend); an unknown tool is a protocol error.
    private func call(_ params: JSONValue, client: String) throws -> JSONValue {
        guard let name = params["name"]?.string else { throw RPCFailure(code: RPCError.invalidParams, message: "tools/call needs a \"name\"") }
        guard let tool = tools.first(where: { $0.name == name }) else {
            throw RPCFailure(code: RPCError.invalidParams, message: "Unknown tool: \(name); the tools are " + tools.map(\.name).joined(separator: ", "))
        }
        do {
            let result = try tool.run(MCPCall(arguments: params["arguments"], tool: tool, session: session, client: client))
            return .object([("content", .array([.object([("type", .string("text")), ("text", .string(result.text))])])),
                            ("structuredContent", result.structured), ("isError", .bool(false))])
        } catch {
            let message = (error as? ToolFailure)?.message ?? ToolFailure(presenting: error).message
            return .object([("content", .array([.object([("type", .string("text")), ("text", .string(message))])])), ("isError", .bool(true))])
        }
    }

    /// A client's `clientInfo` as the history names it: its name and version, printable
    /// characters only, 64 at most.
    static func client(_ info: JSONValue?) -> String {
        let words = [info?["name"]?.string, info?["version"]?.string].compactMap { $0 }.joined(separator: " ")
        let kept = words.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) && $0.properties.generalCategory != .format }
        return String(String.UnicodeScalarView(kept.prefix(64))).trimmingWhitespace
    }

    static func error(_ id: JSONValue, _ failure: RPCFailure) -> JSONValue {
        var error: [(String, JSONValue)] = [("code", .number(failure.code)), ("message", .string(failure.message))]
        if let data = failure.data { error.append(("data", data)) }
        return .object([("jsonrpc", .string("2.0")), ("id", id), ("error", .object(error))])
    }
}
