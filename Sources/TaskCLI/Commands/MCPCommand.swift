import CommandLineKit

/// `tasks mcp`: the task file served to an AI agent over the Model Context Protocol, on
/// stdin and stdout (`MCPServer`). Read-only unless the configuration (`mcp.write`,
/// `mcp.allow-write`) or `--allow-write FILTER` lets it change tasks; then every change is
/// planned first and applied by its plan (`MCPPlanning`), as one history entry each.
struct MCPCommand: TasksCommand {
    static let readOnly = OptionSpec.flag("read-only", help: "Serve no tool that changes tasks, whatever the configuration says.")
    static let allowWrite = OptionSpec.value("allow-write", name: "FILTER",
                                             help: "Serve the tools that change tasks, for the tasks FILTER selects only ('+agent', 'list:Errands').")

    static let spec = CommandSpec(
        name: "mcp", abstract: "Serve the tasks to an AI agent over the Model Context Protocol (stdio).",
        discussion: """
            An agent's client starts 'tasks mcp' (with --db PATH for another file) and speaks
            JSON-RPC to it, one message a line: the 2025-11-25 revision (initialize) or the
            stateless 2026-07-28 (server/discover), answered per request. Tools: query, get,
            next, overview, explain, history, with the filter words of 'tasks list'.
            Read-only unless mcp.write = on or mcp.allow-write = FILTER in the configuration,
            or --allow-write FILTER here: then add, modify, done, reopen, delete, start, stop
            and annotate each return a plan first and change nothing until called with it;
            undo and redo revert what was applied. At most mcp.max-changes tasks (50) a call.
            The file is opened for each request and closed after, so the CLI and the ui use
            it between requests. Nothing but protocol is written to stdout. See docs/mcp.md.
            """,
        options: [readOnly, allowWrite]
    )
    static let changesTasks = false

    let writing: MCPWriting?

    init(_ line: ParsedLine) throws {
        let settings = try line.configuration().mcp
        let allow = line.value(Self.allowWrite) ?? settings.allowWrite
        if line.has(Self.readOnly) {
            guard !line.has(Self.allowWrite) else { throw CLIError.usage("--read-only and --allow-write contradict each other; give one") }
            writing = nil
        } else if let allow {
            guard !allow.trimmingWhitespace.isEmpty else {
                throw CLIError.usage("--allow-write needs filter words ('+agent', 'list:Errands'); to let an agent change every task, set mcp.write = on")
            }
            // Checked now, so that a filter that cannot be read stops the server before it serves.
            guard try FilterInput.parse(text: allow, try line.filterSettings(try line.configuration()), source: "--allow-write: ") != nil else {
                throw CLIError.usage("--allow-write '\(allow)' chooses no tasks by their fields; give filter words such as +agent or list:Errands")
            }
            writing = MCPWriting(allow: allow, maxChanges: settings.maxChanges)
        } else {
            writing = settings.write ? MCPWriting(allow: nil, maxChanges: settings.maxChanges) : nil
        }
    }

    func run(_ context: CommandContext) {
        var session = MCPSession(invocation: context.invocation, databasePath: context.service.path)
        session.writing = writing
        let tools = MCPReadTools.all + (writing == nil ? [] : MCPWriteTools.all)
        let server = MCPServer(tools: tools, session: session, version: TasksSpec.version, output: context.console.stdout)
        if context.invocation.environment["TASKS_MCP_TRACE"] == "1" { server.trace = context.console.stderr }
        server.serve(MessageReader(input: context.invocation.stdin, limit: MCPServer.messageLimit))
    }
}
