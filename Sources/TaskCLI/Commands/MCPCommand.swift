import CommandLineKit

/// `tasks mcp`: the task file served to an AI agent over the Model Context Protocol, on
/// stdin and stdout (`MCPServer`). For now it reads: the tools that change tasks (planned,
/// then applied; undone as one command) are not served yet.
struct MCPCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "mcp", abstract: "Serve the tasks to an AI agent over the Model Context Protocol (stdio; read-only).",
        discussion: """
            An agent's client starts 'tasks mcp' (with --db PATH for another file) and speaks
            JSON-RPC to it, one message a line: the 2025-11-25 revision (initialize) or the
            stateless 2026-07-28 (server/discover), answered per request. Tools: query, get,
            next, overview, explain, history, with the filter words of 'tasks list'. The file
            is opened for each request and closed after, so the CLI and the ui use it between
            requests. Nothing but protocol is written to stdout. See docs/cli.md, MCP.
            """
    )
    static let changesTasks = false

    init(_ line: ParsedLine) throws {}

    func run(_ context: CommandContext) {
        let session = MCPSession(invocation: context.invocation, databasePath: context.service.path)
        let server = MCPServer(tools: MCPReadTools.all, session: session, version: TasksSpec.version, output: context.console.stdout)
        server.serve(MessageReader(input: context.invocation.stdin, limit: MCPServer.messageLimit))
    }
}
