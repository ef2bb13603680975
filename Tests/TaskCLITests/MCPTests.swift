#if canImport(Glibc)
import Glibc
#endif
import TaskInterchange
import TextFormats
import _TestSupport
import Testing

/// The virtual environment `scripts/python-peers` makes (the MCP SDK, jsonschema, fastmcp).
let pythonPeers: String? = {
    func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    let venv = variable("TASKS_PY_VENV") ?? ((variable("HOME") ?? "") + "/.cache/tasks/venv")
    let python = venv + "/bin/python"
    guard access(python, X_OK) == 0, access(venv + "/lib", R_OK) == 0 else { return nil }
    return runShell("'\(python)' -c 'import mcp, jsonschema, fastmcp'", in: TemporaryFolder()).status == 0 ? python : nil
}()

/// Issue 57: `tasks mcp`, JSON-RPC over stdio — its protocol in-process, message by message,
/// and the real clients (the official SDK in both revisions, fastmcp) against the binary.
@Suite("tasks mcp")
struct MCPTests {
    static func seeded() -> CLI {
        let cli = CLI()
        cli.run("add", "Pay", "rent", "+bills", "due:2026-11-20", "priority:H")
        cli.run("add", "Buy", "milk", "+errand")
        cli.run("add", "Call", "the", "bank", "+bills", "list:Home")
        cli.run("add", "한국어", "할", "일", "😀")
        cli.run("done", "2")
        return cli
    }

    /// Each line of stdout, read as JSON.
    static func answers(_ cli: CLI, _ lines: [String], arguments: [String] = ["mcp"]) throws -> (answers: [JSONValue], result: CLI.Result) {
        let result = cli.run(arguments, stdin: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0, "\(result)")
        let answers = try result.stdout.split(separator: "\n").map { try JSONTree.parse(Array($0.utf8)) }
        return (answers, result)
    }

    static let handshake = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#
    static let meta = #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#

    @Test func bothRevisionsAreAnsweredRequestByRequest() throws {
        let cli = Self.seeded()
        let (answers, _) = try Self.answers(cli, [
            Self.handshake,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
            #"{"jsonrpc":"2.0","id":"three","method":"server/discover","params":{\#(Self.meta)}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"query","arguments":{"filter":"+bills"},\#(Self.meta)}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"query","arguments":{"filter":"+bills"}}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"ping"}"#,
        ])
        // The notification is not answered: six answers, in order.
        #expect(answers.map { $0["id"]?.serialized() } == ["1", "2", "\"three\"", "4", "5", "6"])
        #expect(answers[0]["result"]?["protocolVersion"]?.string == "2025-11-25")
        #expect(answers[0]["result"]?["serverInfo"]?["name"]?.string == "tasks")
        let tools = answers[1]["result"]?["tools"]?.elements?.compactMap { $0["name"]?.string }
        #expect(tools == ["query", "get", "next", "overview", "explain", "history"])
        #expect(answers[2]["result"]?["supportedVersions"]?.elements?.contains(.string("2026-07-28")) == true)
        #expect(answers[2]["result"]?["resultType"]?.string == "complete")
        // The same call in either revision: the same tasks, the stateless one in its envelope.
        let stateless = try #require(answers[3]["result"]), handshakeEra = try #require(answers[4]["result"])
        #expect(stateless["structuredContent"] == handshakeEra["structuredContent"])
        #expect(stateless["resultType"]?.string == "complete" && handshakeEra["resultType"] == nil)
        #expect(stateless["structuredContent"]?["count"]?.integer == 2)
        let titles = stateless["structuredContent"]?["tasks"]?.elements?.compactMap { $0["title"]?.string }
        #expect(titles.map(Set.init) == ["Pay rent", "Call the bank"])
        #expect(answers[5]["result"] == .object([]))
    }

    @Test func badInputIsAnErrorAnswerAndTheLoopGoesOn() throws {
        let cli = Self.seeded()
        let before = cli.snapshot()
        let huge = #"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"query","arguments":{"filter":""# + String(repeating: "x", count: 17 << 20) + #""}}}"#
        let (answers, result) = try Self.answers(cli, [
            "{not json",
            #"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            #"{"jsonrpc":"1.0","id":2,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tasks/delete_everything"}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"delete"}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"query","arguments":{"limit":"ten"}}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"query","arguments":{"filter":"due.before:someday-ish"}}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
            #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"query","arguments":{"filter":"--db /etc/passwd"}}}"#,
            huge,
            #"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":"query"}"#,
            #"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"get","arguments":{"task":"\u001b[2J"}}}"#,
            #"{"jsonrpc":"2.0","id":12,"method":"ping"}"#,
        ])
        func error(_ index: Int) -> Int64? { answers[index]["error"]?["code"]?.integer }
        func toolError(_ index: Int) -> String? {
            answers[index]["result"]?["isError"] == .bool(true) ? answers[index]["result"]?["content"]?.elements?.first?["text"]?.string : nil
        }
        #expect(answers.count == 14, "\(result.stdout.prefix(3000))")
        #expect(error(0) == -32700 && answers[0]["id"] == .null)
        #expect(error(1) == -32600 && answers[1]["error"]?["message"]?.string?.contains("batch") == true)
        #expect(error(2) == -32600)
        #expect(error(3) == -32601)
        #expect(error(4) == -32602 && answers[4]["error"]?["message"]?.string?.contains("Unknown tool: delete") == true)
        #expect(toolError(5)?.contains("'limit' must be a whole number") == true)
        #expect(toolError(6)?.contains("due") == true, "the CLI's words: \(String(describing: toolError(6)))")
        #expect(error(7) == -32022 && answers[7]["error"]?["data"]?["requested"]?.string == "2099-01-01")
        // Filter words are never options: `--db` is a filter word (read, or refused as one), not a file opened.
        #expect(toolError(8)?.contains("filter word 1 '--db'") == true, "\(answers[8].serialized())")
        #expect(error(9) == -32700 && answers[9]["error"]?["message"]?.string?.contains("MiB") == true)
        #expect(error(10) == -32600)
        #expect(error(11) == -32602)
        #expect(toolError(12)?.contains("is not a task") == true)
        #expect(answers[13]["id"]?.integer == 12 && answers[13]["result"] == .object([]), "the loop goes on after all of it")
        #expect(!result.stdout.contains("\u{1B}"), "nothing for a terminal on stdout")
        #expect(cli.snapshot() == before, "the file is as it was")
    }

    /// Random messages — methods, params and arguments of every type, cut short, bytes thrown
    /// in — from a fixed seed: every line out is a JSON-RPC answer, the file is as it was.
    @Test(arguments: [false, true])
    func randomMessagesGetAnswersAndChangeNothing(writing: Bool) throws {
        let cli = Self.seeded()
        let before = cli.snapshot()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let values = [#""+bills""#, "12", "-1", "1e999", "null", "true", "[]", "{}", #""\u0000""#, #""é😀""#, #""due.before:eow""#,
                      #""ffffffff""#, "9223372036854775808", #"{"a":[[[[1]]]]}"#, #""--db /tmp/x""#, #""limit:0""#, "[\"ffffffff\"]",
                      "[{\"title\":1}]", "1", "5", #""plan-0""#, #""priority:H""#]
        let methods = ["tools/call", "tools/list", "initialize", "server/discover", "ping", "resources/list", "", "tools/call"]
        let tools = ["query", "get", "next", "overview", "explain", "history", "add", "", "modify", "done", "delete", "undo", "redo", "annotate"]
        let names = ["filter", "task", "limit", "status", "sort", "context", "x", "tasks", "expect", "changes", "plan", "apply", "entry", "text", "title"]
        var lines: [String] = []
        for index in 0..<400 {
            var arguments: [String] = []
            for _ in 0..<next(3) { arguments.append("\"\(names[next(names.count)])\":\(values[next(values.count)])") }
            let meta = next(3) == 0 ? #","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"# : ""
            var line = #"{"jsonrpc":"2.0","id":\#(index),"method":"\#(methods[next(methods.count)])","params":{"name":"\#(tools[next(tools.count)])","arguments":{\#(arguments.joined(separator: ","))}\#(meta)}}"#
            switch next(6) {
            case 0: line = String(line.prefix(next(line.count)))
            case 1: line.insert(contentsOf: ["\u{0}", "}", "\"", "\\", "é"][next(5)], at: line.index(line.startIndex, offsetBy: next(line.count)))
            default: break
            }
            lines.append(line.replacingOccurrences(of: "\n", with: " "))
        }
        let (answers, result) = try Self.answers(cli, lines, arguments: ["mcp"] + (writing ? ["-c", "mcp.write=on"] : []))
        #expect(!answers.isEmpty)
        for answer in answers {
            #expect(answer["jsonrpc"]?.string == "2.0" && (answer["result"] != nil) != (answer["error"] != nil), "\(answer.serialized().prefix(300))")
        }
        #expect(result.stderr.isEmpty, "\(result.stderr.prefix(500))")
        #expect(cli.snapshot() == before)
    }

    @Test func aMissingFileIsNotMade() throws {
        let cli = CLI()
        let (answers, _) = try Self.answers(cli, [#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"overview"}}"#])
        #expect(answers.first?["result"]?["structuredContent"]?["pending"]?.integer == 0)
        #expect(access(cli.db, F_OK) != 0, "reading makes no file")
    }

    /// The official SDK in both revisions and fastmcp's client, against the binary, each answer
    /// compared with the CLI's on the same file (scripts/mcp-client-check).
    @Test(.enabled(if: tasksBinary != nil && pythonPeers != nil, "needs the binary and scripts/python-peers' environment"))
    func theRealClientsReadWhatTheCLIReads() throws {
        let python = try #require(pythonPeers), binary = try #require(tasksBinary)
        let folder = TemporaryFolder()
        _ = try tasksShell("""
            tasks add Pay rent +bills due:2026-11-20 priority:H > /dev/null
            tasks add Buy milk +errand > /dev/null
            tasks add Call the bank +bills list:Home > /dev/null
            tasks add 한국어 할 일 😀 due:tomorrow > /dev/null
            tasks add Water the plants wait:2030-01-01 > /dev/null
            tasks done 2 > /dev/null
            """, in: folder)
        let before = readBytes(folder.file("tasks.db"))
        let script = fixturesFolder() + "/../scripts/mcp-client-check"
        let run = runShell("'\(python)' '\(script)' '\(binary)' '\(folder.file("tasks.db"))'", in: folder)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("ok legacy: the protocol is 2025-11-25") && run.stdout.contains("ok auto: the protocol is 2026-07-28"))
        #expect(run.stdout.contains("ok fastmcp: lists the same tools") && run.stdout.hasSuffix("ok all\n"), "\(run.stdout)")
        #expect(readBytes(folder.file("tasks.db")) == before, "the clients changed nothing")
    }

    /// Writing allowed, the official SDK in both revisions: a plan changes nothing and applies
    /// once; a plan whose task the CLI changed since is refused; an undo through MCP is seen by
    /// `tasks list`, and `tasks undo` reverts what an agent did; bad selections are refused;
    /// resources and prompts are served (scripts/mcp-client-check write).
    @Test(.enabled(if: tasksBinary != nil && pythonPeers != nil, "needs the binary and scripts/python-peers' environment"))
    func theRealClientPlansAppliesAndUndoes() throws {
        let python = try #require(pythonPeers), binary = try #require(tasksBinary)
        let folder = TemporaryFolder()
        _ = try tasksShell("""
            tasks add Pay rent +bills due:2026-11-20 > /dev/null
            tasks add Buy milk +errand > /dev/null
            tasks add Call the bank +bills list:Home > /dev/null
            tasks add Pay the phone bill +bills > /dev/null
            """, in: folder)
        let script = fixturesFolder() + "/../scripts/mcp-client-check"
        let run = runShell("'\(python)' '\(script)' '\(binary)' '\(folder.file("tasks.db"))' write", in: folder)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        for mode in ["legacy", "auto"] {
            for line in ["a planned modify of 3 tasks shows them and changes nothing", "a plan is applied once",
                         "undo through MCP", "a plan whose task the CLI changed since is refused, and nothing is done",
                         "tasks undo at the terminal reverts the change made through MCP", "after the refusals the tasks are as they were",
                         "tasks://task/UUID reads the task", "the prompts are listed", "delete plans 1 change",
                         "start applied, undone and redone through MCP", "a redo of the person's own entry is refused"] {
                #expect(run.stdout.contains("ok \(mode): \(line)"), "\(mode): \(line)\n\(run.stdout)")
            }
        }
        #expect(run.stdout.contains("ok fastmcp: its plan applied"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("ok all\n"), "\(run.stdout)")
    }
}
