import QueryLanguage
import TaskModel
import TaskReactors
import TaskStore
import TextFormats

/// What the tools run with: the run's invocation, and the database opened anew for each
/// request (`service()`), so that the CLI, the ui and syncs use the file between requests and a
/// change another process made is seen by the next one.
struct MCPSession {
    let invocation: Invocation
    let databasePath: String
    /// What this run may change (nil: nothing; the write tools are not listed).
    var writing: MCPWriting?

    func service() -> SQLiteTaskService {
        let service = SQLiteTaskService(lazilyAt: databasePath, now: invocation.now, makeUUID: invocation.makeUUID, today: invocation.today)
        service.localTime = invocation.localTime
        return service
    }
}

/// The tools that read: `query`, `get`, `next`, `overview`, `explain`, `history`.
enum MCPReadTools {
    static let all: [MCPTool] = [query, get, next, overview, explain, history]

    static let filterArgument = Schema.string("Filter words, as `tasks list` reads them: +bills list:Home due.before:eow (priority:H or +urgent). Empty: every task of the status.")
    static let contextArgument = Schema.string("A context of the user's configuration to read the filter in; none by default.")

    /// The tasks `query` selects: the first `limit`, and how many there are.
    private static func select(_ query: TaskQuery, limit: Int, _ session: MCPSession) throws -> (count: Int, rows: [Task]) {
        let state = TaskListReactor(service: session.service(), windowSize: limit).send(.refresh(query))
        if let failure = state.failure { throw ToolFailure(presenting: failure) }
        return (state.totals.count, Array(state.window.rows.prefix(limit)))
    }

    /// The most matches `query` counts (`more` says there are others): counting them all is
    /// most of a query's time in a large file.
    static let countedUpTo = 1000

    static let query = MCPTool(
        name: "query", title: "Find tasks",
        description: "The tasks a filter selects (the filter language of `tasks list`), with their uuids: act on uuids, not ids, which are reused. "
            + "Returns how many there are (counted up to 1,000; more is true past that) and the first `limit`.",
        input: Schema.object([
            ("filter", filterArgument),
            ("status", Schema.string("Which tasks: pending (the default), done, or all.", oneOf: ["pending", "done", "all"])),
            ("sort", Schema.string("The order: manual, due, priority, created, or keys such as due,priority-.")),
            ("limit", Schema.integer("How many tasks to return.", 1...500, default: 50)),
            ("context", contextArgument),
        ]),
        output: Schema.open([("count", Schema.plainInteger), ("more", Schema.plainBool), ("returned", Schema.plainInteger),
                             ("tasks", Schema.array(MCPTaskJSON.taskSchema))], required: ["count", "returned", "tasks"]),
        readOnly: true
    ) { call in
        let limit = try call.integer("limit", 1...500, default: 50)
        var command = ["list", "--context", try call.string("context") ?? "none"]
        switch try call.choice("status", ["pending", "done", "all"], default: "pending") {
        case "done": command.append("--done")
        case "all": command.append("--all")
        default: break
        }
        if let sort = try call.string("sort") { command += ["--sort", sort] }
        let line = try call.line(command, words: try call.filterWords())
        var query: TaskQuery
        do { query = try ListCommand(line).query } catch { throw ToolFailure(presenting: error) }
        // One list of tasks, not a section per list; the matches counted up to `countedUpTo`
        // (past it `count` is that and `more` is true): a page of a 100,000-task file without
        // reading every match.
        query.grouping = .none
        let page: (count: Int, tasks: [Task])
        do { page = try call.session.service().page(query, limit: limit, countingUpTo: countedUpTo + 1) } catch { throw ToolFailure(presenting: error) }
        let rows = page.tasks, more = page.count > countedUpTo, count = min(page.count, countedUpTo)
        let zone = call.session.invocation.localTime
        let counted = more ? "more than \(countedUpTo) tasks" : "\(count) \(count == 1 ? "task" : "tasks")"
        let text = [counted + (rows.count < page.count ? ", the first \(rows.count):" : (count > 0 ? ":" : "."))] + rows.map(MCPTaskJSON.line)
        return ToolResult(structured: .object([("count", .number(Int64(count))), ("more", .bool(more)), ("returned", .number(Int64(rows.count))),
                                               ("tasks", .array(rows.map { MCPTaskJSON.task($0, zone: zone) }))]),
                          text: text.joined(separator: "\n"))
    }

    static let get = MCPTool(
        name: "get", title: "Read one task",
        description: "One task whole — every field, notes, annotations, what it waits on and what waits on it, its newest history entries — "
            + "by uuid (or a unique start of one, 8 hex digits at least) or id.",
        input: Schema.object([("task", Schema.string("The task's uuid, a unique start of it, or its id."))], required: ["task"]),
        output: Schema.open([("task", MCPTaskJSON.taskSchema), ("blockedBy", Schema.array(MCPTaskJSON.taskSchema)),
                             ("blocking", Schema.array(MCPTaskJSON.taskSchema)), ("history", Schema.array(.object([("type", .string("object"))])))],
                            required: ["task", "blockedBy", "blocking", "history"]),
        readOnly: true
    ) { call in
        guard let word = try call.string("task")?.trimmingWhitespace, !word.isEmpty else { throw ToolFailure("'task' is needed: a uuid or an id") }
        let task = try one(word, call)
        let state = TaskDetailsReactor(service: call.session.service(), historyLimit: 10).send(.show(task.id))
        if let failure = state.failure { throw ToolFailure(presenting: failure) }
        guard let details = state.details else { throw ToolFailure("task \(word) could not be read") }
        let zone = call.session.invocation.localTime
        let structured: JSONValue = .object([
            ("task", MCPTaskJSON.task(details.task, zone: zone, whole: true)),
            ("blockedBy", .array(details.blockers.map { MCPTaskJSON.task($0, zone: zone) })),
            ("blocking", .array(details.blocking.map { MCPTaskJSON.task($0, zone: zone) })),
            ("history", .array(state.history.map(MCPTaskJSON.entry))),
        ])
        let rows = TaskDetails.fields(of: details.task).filter { !$0.value.isEmpty }.map { "\($0.name): " + TerminalText.escapingControls($0.value) }
        return ToolResult(structured: structured, text: rows.joined(separator: "\n"))
    }

    /// The one task `word` names: an id, or a uuid or its unique start; several is refused
    /// naming them.
    static func one(_ word: String, _ call: MCPCall) throws -> Task {
        let isID = word.utf8.allSatisfy { (48...57).contains($0) }
        let isUUID = word.utf8.count >= 8 && word.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0 | 0x20) || $0 == 45 }
        guard isID || isUUID else { throw ToolFailure("'\(word)' is not a task: give its uuid (or 8 or more of its first hex digits) or its id") }
        var query = TaskQuery.every(isID ? .term(.ids([(Int64(word) ?? 0)...(Int64(word) ?? 0)])) : .term(.uuid(word.lowercased())),
                                    today: call.session.invocation.today(), now: call.session.invocation.now(), zone: call.session.invocation.localTime)
        query.withDeleted = true
        let state = TaskListReactor(service: call.session.service()).send(.choose(query))
        if let failure = state.failure { throw ToolFailure(presenting: failure) }
        let chosen = state.chosen ?? []
        guard let first = chosen.first else { throw ToolFailure("no task \(word)") }
        guard chosen.count == 1 else {
            throw ToolFailure("'\(word)' starts \(chosen.count) tasks' uuids: " + chosen.prefix(5).map { "\($0.id) \($0.uuid)" }.joined(separator: ", ")
                + "; give more of the uuid")
        }
        return first
    }

    static let next = MCPTool(
        name: "next", title: "What to do now",
        description: "The pending tasks to do first, by the score `tasks next` ranks them with, each with the score's reasons.",
        input: Schema.object([("filter", filterArgument), ("limit", Schema.integer("How many tasks.", 1...100, default: 10)), ("context", contextArgument)]),
        output: Schema.open([("tasks", Schema.array(.object([("type", .string("object"))])))], required: ["tasks"]),
        readOnly: true
    ) { call in
        let limit = try call.integer("limit", 1...100, default: 10)
        let line = try call.line(["next", "--context", try call.string("context") ?? "none", "--limit", String(limit)], words: try call.filterWords())
        let query: TaskQuery
        do { query = try NextCommand(line).query } catch { throw ToolFailure(presenting: error) }
        let (_, rows) = try select(query, limit: limit, call.session)
        let today = query.today ?? call.session.invocation.today()
        let zone = call.session.invocation.localTime
        var texts: [String] = []
        let tasks: [JSONValue] = rows.map { task in
            let rank = TaskRank(task, today: today, weights: query.rankWeights)
            texts.append(MCPTaskJSON.line(task) + " — score \(rank.score)" + (rank.parts.isEmpty ? "" : ": " + TaskWriter.parts(rank)))
            return .object([
                ("task", MCPTaskJSON.task(task, zone: zone)), ("score", .number(Int64(rank.score))),
                ("reasons", .array(rank.parts.map { .object([("name", .string($0.name)), ("points", .number(Int64($0.points))), ("reason", .string($0.reason))]) })),
            ])
        }
        return ToolResult(structured: .object([("tasks", .array(tasks))]), text: texts.isEmpty ? "Nothing to do." : texts.joined(separator: "\n"))
    }

    static let overview = MCPTool(
        name: "overview", title: "The task file at a glance",
        description: "How many tasks are pending and done; the lists and tags with their counts; the contexts and reports the user defined.",
        input: Schema.object([]),
        output: Schema.open([("pending", Schema.plainInteger), ("done", Schema.plainInteger), ("lists", Schema.array(.object([("type", .string("object"))]))),
                             ("tags", Schema.array(.object([("type", .string("object"))]))), ("contexts", Schema.array(.object([("type", .string("object"))]))),
                             ("reports", Schema.array(Schema.plainString))],
                            required: ["pending", "done", "lists", "tags", "contexts", "reports"]),
        readOnly: true
    ) { call in
        let reactor = TaskListReactor(service: call.session.service())
        let lists = reactor.send(.loadLists).lists ?? []
        let state = reactor.send(.loadTags)
        if let failure = state.failure { throw ToolFailure(presenting: failure) }
        let tags = state.tags ?? []
        let configuration: Configuration
        do { configuration = try Configuration.load(call.session.invocation.environment) } catch { throw ToolFailure(presenting: error) }
        func counted(_ summary: TaskListSummary) -> JSONValue {
            .object([("name", .string(summary.name)), ("pending", .number(Int64(summary.pending))), ("done", .number(Int64(summary.done)))])
        }
        let pending = lists.reduce(0) { $0 + $1.pending }, done = lists.reduce(0) { $0 + $1.done }
        let contexts = configuration.contexts.keys.sorted().compactMap { name in
            configuration.contexts[name].map { JSONValue.object([("name", .string(name)), ("filter", .string($0.filter))]) }
        }
        let reports = (Report.builtIn.map(\.name) + configuration.reports.keys.sorted()).map(JSONValue.string)
        let text = "\(pending) pending, \(done) done; lists: " + lists.map { "\($0.name) (\($0.pending))" }.joined(separator: ", ")
            + (tags.isEmpty ? "" : "; tags: " + tags.map { "+\($0.name) (\($0.pending))" }.joined(separator: ", "))
        return ToolResult(structured: .object([("pending", .number(Int64(pending))), ("done", .number(Int64(done))), ("lists", .array(lists.map(counted))),
                                               ("tags", .array(tags.map(counted))), ("contexts", .array(contexts)), ("reports", .array(reports))]),
                          text: TerminalText.escapingControls(text))
    }

    static let explain = MCPTool(
        name: "explain", title: "How a filter is read",
        description: "How the filter words are read (their tree, what else chooses the tasks) and how many tasks they select — before acting on them.",
        input: Schema.object([("filter", filterArgument), ("context", contextArgument)]),
        output: Schema.open([("explanation", Schema.plainString), ("count", Schema.plainInteger)], required: ["explanation", "count"]),
        readOnly: true
    ) { call in
        let line = try call.line(["list", "--context", try call.string("context") ?? "none"], words: try call.filterWords())
        let query: TaskQuery
        do { query = try ListCommand(line).query } catch { throw ToolFailure(presenting: error) }
        let (count, _) = try select(query, limit: 1, call.session)
        let explanation = FilterExplanation.text(query)
        return ToolResult(structured: .object([("explanation", .string(explanation)), ("count", .number(Int64(count)))]),
                          text: explanation + "selects \(count) \(count == 1 ? "task" : "tasks")")
    }

    static let history = MCPTool(
        name: "history", title: "What changed",
        description: "The history's newest entries (each a command, what it changed, whether it was undone), of every task or of one.",
        input: Schema.object([("task", Schema.string("Only this task's entries: its uuid or id.")), ("limit", Schema.integer("How many entries.", 1...200, default: 20))]),
        output: Schema.open([("entries", Schema.array(.object([("type", .string("object"))])))], required: ["entries"]),
        readOnly: true
    ) { call in
        let limit = try call.integer("limit", 1...200, default: 20)
        var query = HistoryQuery(limit: limit)
        if let word = try call.string("task") { query.taskID = try one(word.trimmingWhitespace, call).id }
        let state = TaskHistoryReactor(service: call.session.service()).send(.load(query))
        if let failure = state.failure { throw ToolFailure(presenting: failure) }
        let text = state.entries.map { "#\($0.id) \(TimestampText.iso8601($0.time)) \(TerminalText.escapingControls($0.summary))" + ($0.undoneBy == nil ? "" : " (undone)") }
        return ToolResult(structured: .object([("entries", .array(state.entries.map(MCPTaskJSON.entry)))]),
                          text: text.isEmpty ? "No history." : text.joined(separator: "\n"))
    }
}
