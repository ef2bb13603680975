import TaskModel
import TextFormats

/// What `tasks mcp` offers besides tools: the reports and contexts as resources
/// (`tasks://report/NAME`, `tasks://context/NAME`), each task at `tasks://task/UUID` (a
/// template: there may be a million), and prompts for a daily triage and a weekly review that
/// use the tools.
enum MCPResources {
    /// The most a resource's text may be; a bigger report is read with `query` and a limit.
    static let mostBytes = 4 << 20

    static func list(_ session: MCPSession) throws -> JSONValue {
        let configuration = try loaded(session)
        var resources: [JSONValue] = []
        for name in Report.builtIn.map(\.name) + configuration.reports.keys.sorted() where resources.count < 1000 {
            resources.append(.object([("uri", .string("tasks://report/\(name)")), ("name", .string("report \(name)")),
                                      ("description", .string("The tasks of `tasks \(name)`, as JSON records.")), ("mimeType", .string("application/json"))]))
        }
        for name in configuration.contexts.keys.sorted() where resources.count < 2000 {
            resources.append(.object([("uri", .string("tasks://context/\(name)")), ("name", .string("context \(name)")),
                                      ("description", .string("The context's filter and the fields new tasks get in it.")), ("mimeType", .string("application/json"))]))
        }
        return .object([("resources", .array(resources))])
    }

    static let templates: JSONValue = .object([("resourceTemplates", .array([.object([
        ("uriTemplate", .string("tasks://task/{uuid}")), ("name", .string("task")),
        ("description", .string("One task, every field, by its uuid.")), ("mimeType", .string("application/json")),
    ])]))])

    static func read(_ params: JSONValue, _ session: MCPSession) throws -> JSONValue {
        guard let uri = params["uri"]?.string else { throw RPCFailure(code: RPCError.invalidParams, message: "resources/read needs a \"uri\"") }
        let text: String
        do {
            text = try contents(uri, session)
        } catch let failure as ToolFailure {
            throw RPCFailure(code: RPCError.resourceNotFound, message: failure.message, data: .object([("uri", .string(uri))]))
        }
        return .object([("contents", .array([.object([("uri", .string(uri)), ("mimeType", .string("application/json")), ("text", .string(text))])]))])
    }

    private static func contents(_ uri: String, _ session: MCPSession) throws -> String {
        let prefix = "tasks://"
        guard uri.hasPrefix(prefix) else { throw ToolFailure("'\(uri)' is not a resource of tasks (tasks://task/UUID, tasks://report/NAME, tasks://context/NAME)") }
        let path = uri.dropFirst(prefix.count).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard path.count == 2, !path[1].isEmpty else { throw ToolFailure("'\(uri)' names no resource") }
        switch path[0] {
        case "task":
            guard path[1].utf8.count == 36, let uuid = UUIDText.normalized(path[1].lowercased()) else { throw ToolFailure("'\(path[1])' is not a whole uuid") }
            let call = try MCPCall(arguments: nil, tool: MCPReadTools.get, session: session)
            let task = try MCPReadTools.one(uuid, call)
            return MCPTaskJSON.task(task, zone: session.invocation.localTime, whole: true).serialized()
        case "report":
            let configuration = try loaded(session)
            guard Report.builtIn.contains(where: { $0.name == path[1] }) || configuration.reports[path[1]] != nil else { throw ToolFailure("no report '\(path[1])'") }
            let text = try MCPPlanning.run(["report", path[1], "--format", "json", "--context", "none"], session, session.service())
            guard text.utf8.count <= mostBytes else {
                throw ToolFailure("report \(path[1]) is \(text.utf8.count >> 20) MiB of JSON; read it with the query tool and a limit")
            }
            return text
        case "context":
            let configuration = try loaded(session)
            guard let context = configuration.contexts[path[1]] else { throw ToolFailure("no context '\(path[1])'") }
            return JSONValue.object([("name", .string(context.name)), ("filter", .string(context.filter)), ("defaults", .string(context.defaults))]).serialized()
        default:
            throw ToolFailure("'\(uri)' names no resource: tasks://task/UUID, tasks://report/NAME, tasks://context/NAME")
        }
    }

    private static func loaded(_ session: MCPSession) throws -> Configuration {
        do { return try Configuration.load(session.invocation.environment) } catch {
            throw RPCFailure(code: -32603, message: ToolFailure(presenting: error).message)
        }
    }

    // MARK: - Prompts

    static let prompts: [(name: String, title: String, description: String, text: String)] = [
        ("daily-triage", "Daily triage", "Go through today's tasks: what is overdue, due, started, and what to do next.",
         """
         Help me triage my tasks for today. Use the tasks tools: call next for what to do first (with the score's reasons), \
         query with the filter +OVERDUE and with due:today, and query with +ACTIVE for what I have started. \
         Then give me a short plan for the day: at most five tasks, in order, each with its uuid. \
         Suggest changes (a new due date, done, a lower priority) but make none until I say so; \
         when I agree, plan each change with its tool, show me the plan, and apply it by its plan.
         """),
        ("weekly-review", "Weekly review", "Review the week: what was done, what is stuck, what comes next week.",
         """
         Run my weekly review with the tasks tools. Call overview for the lists and counts; \
         history for what changed this week; query with status done and the filter end.after:sow for what I finished; \
         query with +BLOCKED, with +WAITING, and with the filter modified.before:today-14d for what is stuck or forgotten; \
         query with due.before:eonw for what is due by the end of next week. \
         Summarize in five short sections, naming tasks by title and uuid. Propose changes (delete, reschedule, reprioritize) \
         as a list; change nothing until I agree, then plan each change and apply it by its plan.
         """),
    ]

    static var promptList: JSONValue {
        .object([("prompts", .array(prompts.map {
            .object([("name", .string($0.name)), ("title", .string($0.title)), ("description", .string($0.description)), ("arguments", .array([]))])
        }))])
    }

    static func prompt(_ params: JSONValue) throws -> JSONValue {
        guard let name = params["name"]?.string else { throw RPCFailure(code: RPCError.invalidParams, message: "prompts/get needs a \"name\"") }
        guard let prompt = prompts.first(where: { $0.name == name }) else {
            throw RPCFailure(code: RPCError.invalidParams, message: "Unknown prompt: \(name); the prompts are " + prompts.map(\.name).joined(separator: ", "))
        }
        return .object([("description", .string(prompt.description)), ("messages", .array([.object([
            ("role", .string("user")), ("content", .object([("type", .string("text")), ("text", .string(prompt.text))])),
        ])]))])
    }
}
