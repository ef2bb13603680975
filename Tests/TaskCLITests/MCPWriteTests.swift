#if canImport(Glibc)
import Glibc
#endif
import TaskInterchange
import TextFormats
import _TestSupport
import Testing

/// Issue 57: the tools that change tasks — listed only when writing is allowed; planned, then
/// applied by the plan as one history entry; kept inside `--allow-write`'s filter and
/// `mcp.max-changes`; undone through MCP or at the terminal.
@Suite("tasks mcp, writing")
struct MCPWriteTests {
    static let writeTools = ["add", "modify", "done", "reopen", "delete", "start", "stop", "annotate", "undo", "redo"]

    /// A `tools/call` line.
    static func call(_ id: Int, _ tool: String, _ arguments: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#
    }

    /// The structured answer of a tool, or its error text.
    static func outcome(_ answer: JSONValue) -> (value: JSONValue?, error: String?) {
        guard let result = answer["result"] else { return (nil, answer["error"]?["message"]?.string) }
        if result["isError"] == .bool(true) { return (nil, result["content"]?.elements?.first?["text"]?.string) }
        return (result["structuredContent"], nil)
    }

    static func uuid(_ cli: CLI, _ id: Int) -> String { "00000000-0000-7000-8000-" + String(repeating: "0", count: 12 - String(id).count) + String(id) }

    @Test func theToolsThatWriteAreListedOnlyWhenWritingIsAllowed() throws {
        let cli = MCPTests.seeded()
        let list = #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#
        func names(_ arguments: [String]) throws -> [String] {
            let (answers, _) = try MCPTests.answers(cli, [list], arguments: arguments)
            return answers.first?["result"]?["tools"]?.elements?.compactMap { $0["name"]?.string } ?? []
        }
        let reading = ["query", "get", "next", "overview", "explain", "history"]
        #expect(try names(["mcp"]) == reading)
        #expect(try names(["mcp", "-c", "mcp.write=on"]) == reading + Self.writeTools)
        #expect(try names(["mcp", "--allow-write", "+agent"]) == reading + Self.writeTools)
        #expect(try names(["mcp", "--read-only", "-c", "mcp.write=on"]) == reading, "--read-only wins over the configuration")
        for (arguments, message) in [
            (["mcp", "--read-only", "--allow-write", "+x"], "--read-only and --allow-write contradict each other"),
            (["mcp", "--allow-write", " "], "--allow-write needs filter words"),
            (["mcp", "--allow-write", "due.before:someday-ish"], "--allow-write: "),
            (["mcp", "-c", "mcp.write=maybe"], "mcp.write is 'maybe'; use on or off"),
            (["mcp", "-c", "mcp.max-changes=0"], "mcp.max-changes is '0'"),
            (["mcp", "-c", "mcp.writ=on"], "unknown key 'mcp.writ'"),
        ] {
            let result = cli.run(arguments, stdin: Array((list + "\n").utf8))
            #expect(result.status == 2 && result.stderr.contains(message) && result.stdout.isEmpty, "\(arguments): \(result)")
        }
    }

    /// One `tasks mcp` run for the whole conversation (its plans live in it): each step gets
    /// the answers so far and returns the next request — running the CLI on the same file in
    /// between, as another process would. The answers, one a step.
    static func converse(_ cli: CLI, _ arguments: [String], _ steps: [([JSONValue]) -> String]) throws -> [JSONValue] {
        var index = 0
        let result = cli.run(arguments, conversation: { sofar in
            guard index < steps.count else { return nil }
            let answers = sofar.split(separator: "\n").compactMap { try? JSONTree.parse(Array($0.utf8)) }
            defer { index += 1 }
            return steps[index](answers) + "\n"
        })
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return try result.stdout.split(separator: "\n").map { try JSONTree.parse(Array($0.utf8)) }
    }

    /// The plan token in an answer, or a token that names none.
    static func token(_ answer: JSONValue?) -> String { answer.flatMap { outcome($0).value?["plan"]?.string } ?? "none" }

    @Test func aPlanChangesNothingAndIsAppliedOnceAsOneEntryMarkedAsMCPs() throws {
        let cli = MCPTests.seeded()
        let before = cli.snapshot()
        let bills = [Self.uuid(cli, 1), Self.uuid(cli, 3)]
        var snapshots: [[UInt8]] = []
        let answers = try Self.converse(cli, ["mcp", "-c", "mcp.write=on"], [
            { _ in MCPTests.handshake },
            { _ in Self.call(2, "modify", #"{"tasks":["\#(bills[0])","\#(bills[1])"],"changes":"priority:M +checked due:2026-12-24"}"#) },
            { answers in snapshots.append(cli.snapshot()); return Self.call(3, "modify", #"{"plan":"\#(Self.token(answers.last))"}"#) },
            { answers in Self.call(4, "modify", #"{"plan":"\#(Self.token(answers[1]))"}"#) },
        ])
        #expect(answers.count == 4)
        #expect(snapshots == [before], "a plan writes nothing")
        let plan = try #require(Self.outcome(answers[1]).value, "\(answers[1].serialized())")
        #expect(plan["applied"] == .bool(false) && plan["count"]?.integer == 2 && plan["entry"] == nil)
        let changes = try #require(plan["changes"]?.elements)
        #expect(changes.compactMap { $0["uuid"]?.string } == bills)
        #expect(changes.allSatisfy { $0["before"]?["priority"] != .string("M") && $0["after"]?["priority"] == .string("M") })
        #expect(changes.first?["fields"]?["due"]?["after"] == .string("2026-12-24"))
        let applied = try #require(Self.outcome(answers[2]).value, "\(answers[2].serialized())")
        #expect(applied["applied"] == .bool(true))
        #expect(applied["changes"]?.elements?.compactMap { $0["after"]?["priority"]?.string } == ["M", "M"], "applied as planned")
        let entry = try #require(applied["entry"]?.integer)
        #expect(Self.outcome(answers[3]).error?.contains("no plan") == true, "a plan is applied once")
        // One entry, the CLI's words, marked as made through MCP by the client that called.
        let history = cli.run("history", "--format", "json", "--limit", "1").stdout
        #expect(history.contains(#""entry":\#(entry)"#) && history.contains("via MCP (test 1): tasks modify --yes --context none -- "), "\(history)")
        #expect(Set(cli.run("list", "+checked", "priority:M", "--format", "ids").stdout.split(separator: "\n")) == ["1", "3"])
        // `tasks undo` at the terminal reverts what the agent did.
        #expect(cli.run("undo").status == 0)
        #expect(cli.run("list", "+checked", "--format", "ids").stdout.isEmpty)
    }

    @Test func aPlanWhoseTasksChangedSinceIsRefusedAndChangesNothing() throws {
        let cli = MCPTests.seeded()
        let rent = Self.uuid(cli, 1)
        var snapshot: [UInt8] = []
        var unchanged = false
        let answers = try Self.converse(cli, ["mcp", "-c", "mcp.write=on"], [
            { _ in MCPTests.handshake },
            { _ in Self.call(2, "done", #"{"tasks":["\#(rent)"]}"#) },
            { answers in
                cli.run("modify", "1", "priority:L")  // another process, between the requests
                snapshot = cli.snapshot()
                return Self.call(3, "done", #"{"plan":"\#(Self.token(answers.last))"}"#)
            },
            { _ in
                unchanged = cli.snapshot() == snapshot
                return Self.call(4, "done", #"{"tasks":["\#(rent)"],"apply":true}"#)
            },
        ])
        #expect(unchanged, "a stale plan changes nothing")
        let stale = Self.outcome(answers[2]).error
        #expect(stale?.contains("the plan is stale: 1 of its 1 tasks changed since it was made (\(rent) \"Pay rent\"); nothing was changed") == true,
                "\(String(describing: stale))")
        // Planned afresh (here at once: one task named by uuid), it goes through.
        #expect(Self.outcome(answers[3]).value?["applied"] == .bool(true))
        #expect(cli.run("list", "--format", "ids").stdout == "3\n4\n")
    }

    @Test func undoAndRedoThroughMCPOnlyTouchWhatMCPDid() throws {
        let cli = MCPTests.seeded()
        var phone: [String] = []
        var snapshot: [UInt8] = []
        func entry(_ answer: JSONValue?) -> Int64 { answer.flatMap { Self.outcome($0).value?["entry"]?.integer } ?? 0 }
        let answers = try Self.converse(cli, ["mcp", "-c", "mcp.write=on"], [
            { _ in MCPTests.handshake },
            { _ in Self.call(2, "add", #"{"tasks":[{"title":"Ring the plumber","changes":"+phone due:2026-12-01"}],"apply":true}"#) },
            { answers in
                phone.append(cli.run("list", "+phone", "--format", "ids").stdout)
                return Self.call(3, "undo", #"{"entry":\#(entry(answers[1]))}"#)
            },
            { answers in
                phone.append(cli.run("list", "+phone", "--format", "ids").stdout)
                return Self.call(4, "redo", #"{"entry":\#(entry(answers[1]))}"#)
            },
            { _ in
                phone.append(cli.run("list", "+phone", "--format", "ids").stdout)
                snapshot = cli.snapshot()
                return Self.call(5, "undo", #"{"entry":1}"#)
            },
            { _ in Self.call(6, "undo", #"{"entry":999}"#) },
            { answers in Self.call(7, "redo", #"{"entry":\#(entry(answers[1]))}"#) },
        ])
        #expect(phone == ["5\n", "", "5\n"], "the undo and the redo are seen by tasks list")
        #expect(Self.outcome(answers[2]).value?["target"]?.integer == entry(answers[1]))
        #expect(Self.outcome(answers[4]).error?.contains("#1 was not made through MCP") == true)
        #expect(Self.outcome(answers[5]).error?.contains("no history entry #999") == true)
        #expect(Self.outcome(answers[6]).error != nil, "nothing is undone to redo")
        #expect(cli.snapshot() == snapshot)
    }

    @Test func allowWriteAndMaxChangesKeepTheAgentInside() throws {
        let cli = MCPTests.seeded()
        cli.run("add", "Agent", "task", "+agent")
        cli.run("add", "Agent", "other", "+agent")
        cli.run("add", "Agent", "third", "+agent")
        let before = cli.snapshot()
        let six = Self.uuid(cli, 6)
        var unchanged = false
        let calls: [(String, String, String)] = [
            ("done", #"{"tasks":["\#(Self.uuid(cli, 1))"]}"#, "may change only the tasks '+agent' selects, and task 1 is outside it now"),
            ("modify", #"{"tasks":["\#(six)"],"changes":"-agent"}"#, "outside it after the change"),
            ("add", #"{"tasks":[{"title":"Not mine"}],"apply":true}"#, "outside it after the change"),
            ("done", #"{"filter":"+agent","expect":3}"#, "more than mcp.max-changes (2)"),
            ("done", #"{"filter":"+agent","expect":2}"#, "selects 3 tasks, not the 2 expected"),
            ("done", #"{"filter":"+agent or +bills","expect":5}"#, "more than mcp.max-changes"),
            ("add", #"{"tasks":[{"title":"+x"}]}"#, "would be read as a modification"),
            ("annotate", #"{"tasks":["\#(six)"],"text":"due:fri"}"#, "would be read as a modification"),
            ("modify", #"{"tasks":["\#(six)"],"changes":"12 x"}"#, "reads as a task"),
            ("modify", #"{"tasks":["\#(six)"],"changes":"prio:Z"}"#, "prio"),
            ("done", #"{"tasks":["6"]}"#, "is not a uuid"),
            ("done", #"{"tasks":["\#(six)"],"filter":"+agent"}"#, "not both"),
            ("done", #"{}"#, "name the tasks"),
            ("delete", #"{"tasks":["\#(six)","\#(Self.uuid(cli, 7))"],"apply":true}"#, "only for one task named by uuid"),
            // An expect of 0 would have let an empty selection leave the changes to be read as the filter.
            ("modify", #"{"filter":"+nosuchtag","expect":0,"changes":"list:Work +agent"}"#, "'expect' is 0; give 1 to"),
        ]
        let steps: [([JSONValue]) -> String] = [{ _ in MCPTests.handshake }] + calls.enumerated().map { index, call in
            { _ in Self.call(index + 2, call.0, call.1) }
        } + [{ _ in
            unchanged = cli.snapshot() == before
            return Self.call(99, "add", #"{"tasks":[{"title":"Mine","changes":"+agent"}],"apply":true}"#)
        }]
        var answers = try Self.converse(cli, ["mcp", "--allow-write", "+agent", "-c", "mcp.max-changes=2"], steps)
        let made = answers.removeLast()
        for (index, call) in calls.enumerated() {
            let error = Self.outcome(answers[index + 1]).error
            #expect(error?.contains(call.2) == true, "\(call.0) \(call.1): \(String(describing: error))")
        }
        #expect(Self.outcome(made).value?["changes"]?.elements?.first?["after"]?["tags"] == .array([.string("agent")]))
        #expect(unchanged, "every refusal left the file as it was")
        #expect(cli.run("list", "+agent", "--format", "ids").stdout == "5\n6\n7\n8\n")
    }

    /// Each agent configuration docs/mcp.md shows starts a server that answers, with the tools
    /// the page says it serves.
    @Test func theConfigurationsInTheDocsStartAServer() throws {
        let page = String(decoding: readBytes(fixturesFolder() + "/../docs/mcp.md"), as: UTF8.self)
        let blocks = page.split(separator: "```json\n", omittingEmptySubsequences: false).dropFirst()
            .compactMap { $0.split(separator: "```", omittingEmptySubsequences: false).first.map(String.init) }
        #expect(blocks.count == 2)
        for block in blocks {
            let tree = try JSONTree.parse(Array(block.utf8))
            let server = try #require(tree["mcpServers"]?["tasks"])
            #expect(server["command"]?.string == "tasks")
            let listed = server["args"]?.elements ?? []
            let arguments = listed.compactMap { $0.string }
            #expect(!arguments.isEmpty)
            let cli = MCPTests.seeded()
            let (answers, _) = try MCPTests.answers(cli, [#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#], arguments: arguments)
            let tools = answers.first?["result"]?["tools"]?.elements?.compactMap { $0["name"]?.string } ?? []
            #expect(tools.contains("query") && tools.contains("modify") == arguments.contains("--allow-write"), "\(arguments): \(tools)")
        }
    }

    /// The fence holds for what a command touches besides the tasks named (a reopened task's
    /// next occurrence, removed), and for undo and redo; a redo never overrides the person's
    /// undo; a fence that chooses nothing is refused; a refused change leaves no file behind.
    @Test func theFenceHoldsEverywhereAndThePersonsUndoStands() throws {
        let cli = MCPTests.seeded()
        cli.run("add", "Pay", "the", "gas", "+agent", "due:2026-11-30", "every:month")
        cli.run("done", "5")  // its next occurrence, task 6, is due 2026-12-30
        let fenced = ["mcp", "--allow-write", "due.before:2026-12-10"]
        let before = cli.snapshot()
        let reopen = try Self.converse(cli, fenced, [
            { _ in MCPTests.handshake },
            { _ in Self.call(2, "reopen", #"{"tasks":["\#(Self.uuid(cli, 5))"]}"#) },
        ])
        #expect(Self.outcome(reopen[1]).error?.contains("task 6 is outside it now") == true, "\(reopen[1].serialized())")
        #expect(cli.snapshot() == before)

        // An agent's change made with writing open, then: a fenced agent may not undo it; the
        // person undoes it, and no agent redoes it.
        let made = try Self.converse(cli, ["mcp", "-c", "mcp.write=on"], [
            { _ in MCPTests.handshake },
            { _ in Self.call(2, "modify", #"{"tasks":["\#(Self.uuid(cli, 3))"],"changes":"priority:L","apply":true}"#) },
        ])
        let entry = try #require(Self.outcome(made[1]).value?["entry"]?.integer)
        let undo = try Self.converse(cli, ["mcp", "--allow-write", "+agent"], [
            { _ in MCPTests.handshake },
            { _ in Self.call(2, "undo", #"{"entry":\#(entry)}"#) },
        ])
        #expect(Self.outcome(undo[1]).error?.contains("task 3 is outside it now") == true, "\(undo[1].serialized())")
        #expect(cli.run("undo", "\(entry)").status == 0)
        let redo = try Self.converse(cli, ["mcp", "-c", "mcp.write=on"], [
            { _ in MCPTests.handshake },
            { _ in Self.call(2, "redo", #"{"entry":\#(entry)}"#) },
        ])
        #expect(Self.outcome(redo[1]).error?.contains("was undone at the terminal") == true, "\(redo[1].serialized())")

        let open = cli.run(["mcp", "--allow-write", "limit:5"], stdin: Array((MCPTests.handshake + "\n").utf8))
        #expect(open.status == 2 && open.stderr.contains("chooses no tasks by their fields"), "\(open)")

        let empty = CLI()
        let refused = try Self.converse(empty, ["mcp", "--allow-write", "+agent"], [
            { _ in MCPTests.handshake },
            { _ in Self.call(2, "add", #"{"tasks":[{"title":"Not fenced in"}],"apply":true}"#) },
        ])
        #expect(Self.outcome(refused[1]).error?.contains("outside it after the change") == true)
        #expect(access(empty.db, F_OK) != 0, "a refused add leaves no file behind")
    }

    /// Strings past what a shell could pass (a filter, modifications, a title) or a person
    /// writes (notes) are refused before anything reads them.
    @Test func longStringsAreRefusedBeforeTheyAreRead() throws {
        let cli = MCPTests.seeded()
        let before = cli.snapshot()
        let long = String(repeating: "x", count: 2 << 20)
        let calls: [(String, String, String)] = [
            ("add", #"{"tasks":[{"title":"a \#(long)"}],"apply":true}"#, "'tasks[0].title' is 2097154 bytes; at most 65536 are read"),
            ("modify", #"{"filter":"\#(long)","expect":1,"changes":"priority:H"}"#, "'filter' is 2097152 bytes"),
            ("modify", #"{"tasks":["\#(Self.uuid(cli, 1))"],"notes":"\#(long)"}"#, "'notes' is 2097152 bytes; at most 1048576 are read"),
            ("query", #"{"filter":"\#(long)"}"#, "'filter' is 2097152 bytes"),
        ]
        let lines = [MCPTests.handshake] + calls.enumerated().map { Self.call($0.offset + 2, $0.element.0, $0.element.1) }
        let (answers, _) = try MCPTests.answers(cli, lines, arguments: ["mcp", "-c", "mcp.write=on"])
        for (index, call) in calls.enumerated() {
            #expect(Self.outcome(answers[index + 1]).error?.contains(call.2) == true, "\(call.0): \(answers[index + 1].serialized().prefix(300))")
        }
        #expect(cli.snapshot() == before)
    }

    @Test func aMaxChangesCountsWhatTheChangeMakesToo() throws {
        let cli = CLI()
        cli.run("add", "Water", "the", "plants", "+home", "due:2026-11-29", "every:day")
        cli.run("add", "Sweep", "+home", "due:2026-11-29", "every:week")
        cli.run("add", "Read")
        let before = cli.snapshot()
        let answers = try Self.converse(cli, ["mcp", "-c", "mcp.write=on", "-c", "mcp.max-changes=3"], [
            { _ in MCPTests.handshake },
            { _ in Self.call(2, "done", #"{"filter":"+home","expect":2}"#) },
        ])
        // Two done and two next occurrences made: four tasks, one more than allowed.
        #expect(Self.outcome(answers[1]).error?.contains("would touch 4 tasks, more than mcp.max-changes (3)") == true, "\(answers[1].serialized())")
        #expect(cli.snapshot() == before)
    }
}
