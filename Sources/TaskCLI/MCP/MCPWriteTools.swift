import QueryLanguage
import TaskModel
import TaskReactors
import TaskStore
import TextFormats

/// The tools that change tasks, listed only when this run may write: `add`, `modify`, `done`,
/// `reopen`, `delete`, `start`, `stop`, `annotate` — each planned first and applied by its
/// plan (`MCPPlanning`) — and `undo` and `redo` of what was applied.
enum MCPWriteTools {
    static let all: [MCPTool] = [add, modify, done, reopen, delete, start, stop, annotate, undo, redo]

    /// The most tasks one call may name, whatever `mcp.max-changes` says.
    static let mostNamed = 10_000

    static let selectionArguments: [(String, JSONValue)] = [
        ("tasks", Schema.array("The tasks, by uuid (or a unique start of one, 8 hex digits at least). Ids are not taken: they are reused.",
                               of: Schema.plainString, most: mostNamed)),
        ("filter", Schema.string("Instead of tasks: filter words, as `tasks list` reads them; needs expect.")),
        ("expect", Schema.integer("With filter: how many tasks it must select, or nothing is planned (query or explain tells it).", 1...Int64(mostNamed))),
        ("status", Schema.string("With filter: which tasks it reads: pending (the default), done, or all.", oneOf: ["pending", "done", "all"])),
    ]
    static let planArguments: [(String, JSONValue)] = [
        ("plan", Schema.string("A plan's token from this tool's earlier answer: applies exactly that plan, or refuses if any of its tasks changed since.")),
        ("apply", Schema.boolean("Apply at once without a plan: only for one task named by uuid.")),
    ]

    static let changeOutput = Schema.open([
        ("applied", Schema.plainBool), ("plan", Schema.plainString), ("entry", Schema.plainInteger), ("summary", Schema.plainString),
        ("count", Schema.plainInteger), ("changes", Schema.array(.object([("type", .string("object"))]))),
    ], required: ["applied", "summary", "count", "changes"])

    /// A tool that changes the tasks it selects with the command `words(call, uuids)` makes.
    static func selecting(_ name: String, title: String, description: String, destructive: Bool = true,
                          extra: [(String, JSONValue)] = [], words: @escaping @Sendable (MCPCall, [String]) throws -> [String]) -> MCPTool {
        MCPTool(
            name: name, title: title,
            description: description + " Returns a plan (the tasks as they are and as they would be) and changes nothing; "
                + "call again with its plan to apply it. Select by tasks (uuids) or by filter with expect.",
            input: Schema.object(selectionArguments + extra + planArguments), output: changeOutput, readOnly: false, destructive: destructive
        ) { call in
            if let token = try call.string("plan") { return try MCPPlanning.apply(token, tool: name, call) }
            let (targets, byUUID) = try MCPSelection.targets(call)
            let now = try call.bool("apply")
            if now && !(byUUID && targets.count == 1) {
                throw ToolFailure("apply: true is only for one task named by uuid; plan this change, then apply the plan")
            }
            return try MCPPlanning.change(name, commands: [try words(call, targets.map(\.uuid))], targets: targets, call, now: now)
        }
    }

    static func command(_ name: String) -> @Sendable (MCPCall, [String]) throws -> [String] {
        { _, uuids in [name, "--yes", "--context", "none", "--"] + uuids }
    }

    static let modify = selecting(
        "modify", title: "Change tasks",
        description: "Change fields of tasks with the modification words of `tasks modify` (priority:H +tag -tag due:fri list:Home wait: …), or give a new title.",
        extra: [("changes", Schema.string("Modification words: priority:H +urgent -later due:fri 'list:My List' until: (empty value clears).")),
                ("title", Schema.string("A new title (not with changes).")),
                ("notes", Schema.string("New notes (not with changes)."))]
    ) { call, uuids in
        var changes: [String] = []
        if let text = try call.string("changes", most: MCPCall.mostWords) {
            do { changes = try FilterParser.words(of: text) } catch { throw ToolFailure(presenting: error) }
        }
        let title = try call.string("title", most: MCPCall.mostWords), notes = try call.string("notes")
        if title != nil || notes != nil {
            guard changes.isEmpty else { throw ToolFailure("give changes, or title and notes, in one call; not both") }
            var words = ["modify", "--yes", "--context", "none"]
            if let title { words += ["--title", title] }
            if let notes { words += ["--notes", notes] }
            return words + ["--"] + uuids
        }
        guard let first = changes.first else { throw ToolFailure("'changes' is needed: modification words (priority:H +tag due:fri), or title or notes") }
        if TaskwarriorOrder.isIDShaped(first) { throw ToolFailure("'changes' begins with '\(first)', which reads as a task; begin with a modification") }
        return ["modify", "--yes", "--context", "none", "--"] + uuids + changes
    }

    static let done = selecting("done", title: "Mark tasks done", description: "Mark tasks done (a repeating task's next occurrence is made).",
                                words: command("done"))
    static let reopen = selecting("reopen", title: "Mark tasks pending again", description: "Mark done tasks pending again.", words: command("reopen"))
    static let delete = selecting("delete", title: "Delete tasks", description: "Delete tasks (undo brings them back).", words: command("delete"))
    static let start = selecting("start", title: "Start tasks", description: "Start working on tasks: active from now.", words: command("start"))
    static let stop = selecting("stop", title: "Stop tasks", description: "Stop working on tasks: the time since their start is added to their time spent.",
                                words: command("stop"))

    static let annotate = selecting(
        "annotate", title: "Annotate tasks", description: "Add a line, stamped with the time, to tasks (kept apart from their notes).",
        destructive: false, extra: [("text", Schema.string("The line to add, as it is."))]
    ) { call, uuids in
        guard let text = try call.string("text", most: MCPCall.mostWords), !text.trimmingWhitespace.isEmpty else { throw ToolFailure("'text' is needed: the line to add") }
        guard text.contains(where: { $0 == " " || $0 == "\t" }) || !MCPSelection.readsAsModification(text) else {
            throw ToolFailure("'\(text)' would be read as a modification, not a line; write the line with more words")
        }
        // One word (a shell's quoted word) with a space in it is taken as it is: the line.
        return ["annotate", "--yes", "--context", "none", "--", uuids.joined(separator: " "), text]
    }

    static let add = MCPTool(
        name: "add", title: "Add tasks",
        description: "Add one task or many, each a title with modification words (due:fri +errand list:Home priority:H), in one change. "
            + "Returns a plan and adds nothing; call again with its plan to add them (apply: true adds one task at once).",
        input: Schema.object([
            ("tasks", Schema.array("The tasks to add.", of: Schema.object([
                ("title", Schema.string("The title, as it is.")),
                ("changes", Schema.string("Modification words: due:fri +errand list:Home priority:H every:week.")),
            ], required: ["title"]), most: mostNamed)),
        ] + planArguments, required: []),
        output: changeOutput, readOnly: false
    ) { call in
        if let token = try call.string("plan") { return try MCPPlanning.apply(token, tool: "add", call) }
        let writing = try call.writing()
        guard let items = try call.items("tasks", most: writing.maxChanges) else { throw ToolFailure("'tasks' is needed: [{\"title\": …, \"changes\": …}]") }
        var commands: [[String]] = []
        for (index, item) in items.enumerated() {
            guard let members = item.members else { throw ToolFailure("tasks[\(index)] must be an object with a title") }
            if let unknown = members.first(where: { $0.0 != "title" && $0.0 != "changes" }) {
                throw ToolFailure("tasks[\(index)] has '\(unknown.0)'; a task to add has title and changes")
            }
            guard let title = item["title"]?.string, !title.trimmingWhitespace.isEmpty else { throw ToolFailure("tasks[\(index)] needs a title (a string)") }
            try MCPCall.bounded(title, "tasks[\(index)].title", most: MCPCall.mostWords)
            guard !title.contains(where: { $0 == " " || $0 == "\t" }) ? !MCPSelection.readsAsModification(title) : true else {
                throw ToolFailure("tasks[\(index)]: the title '\(title)' would be read as a modification; put it in changes, or give the title more words")
            }
            var changes: [String] = []
            if let text = item["changes"] {
                guard let text = text.string else { throw ToolFailure("tasks[\(index)].changes must be a string") }
                try MCPCall.bounded(text, "tasks[\(index)].changes", most: MCPCall.mostWords)
                do { changes = try FilterParser.words(of: text) } catch { throw ToolFailure("tasks[\(index)].changes: " + ToolFailure(presenting: error).message) }
            }
            commands.append(["add", "--context", "none", "--", title] + changes)
        }
        let now = try call.bool("apply")
        if now && commands.count > 1 { throw ToolFailure("apply: true is only for one task; plan these \(commands.count), then apply the plan") }
        return try MCPPlanning.change("add", commands: commands, targets: [], call, now: now)
    }

    static let entryInput = Schema.object([("entry", Schema.integer("The history entry a change made through MCP returned.", 1...Int64.max))], required: ["entry"])
    static let entryOutput = Schema.open([("entry", Schema.plainInteger), ("target", Schema.plainInteger), ("summary", Schema.plainString)],
                                         required: ["entry", "target", "summary"])

    static func reverting(redo: Bool, title: String, description: String) -> MCPTool {
        MCPTool(name: redo ? "redo" : "undo", title: title, description: description, input: entryInput, output: entryOutput,
                readOnly: false, destructive: true) { call in
            try MCPHistoryTools.revert(call, redo: redo)
        }
    }

    static let undo = reverting(
        redo: false, title: "Undo a change",
        description: "Revert a change made through MCP, whole, by the history entry its answer gave (as `tasks undo ENTRY`); redo applies it again.")
    static let redo = reverting(
        redo: true, title: "Redo an undone change",
        description: "Apply again a change made through MCP and undone, by its history entry; only the change undone last, with nothing changed since.")
}

/// The tasks a write tool is to change: named by uuid, or chosen by a filter whose count must
/// be the one the agent expects.
enum MCPSelection {
    static func targets(_ call: MCPCall) throws -> (tasks: [Task], byUUID: Bool) {
        let writing = try call.writing()
        let named = try call.items("tasks", most: MCPWriteTools.mostNamed)
        let filter = try call.string("filter", most: MCPCall.mostWords)
        let service = call.session.service()
        var tasks: [Task]
        var byUUID = false
        if let named {
            guard filter == nil else { throw ToolFailure("give tasks or filter, not both") }
            guard named.count <= writing.maxChanges else {
                throw ToolFailure("\(named.count) tasks is more than mcp.max-changes (\(writing.maxChanges)) allows in one call; nothing was planned")
            }
            var uuids: [String] = []
            for item in named {
                guard let word = item.string?.trimmingWhitespace.lowercased() else { throw ToolFailure("'tasks' holds uuids, as strings") }
                let bytes = word.utf8
                // A whole uuid, or a start of one that is not all digits (an id is never taken).
                let isStart = bytes.count >= 8 && bytes.count < 36 && bytes.allSatisfy({ FilterParser.isHex($0) || $0 == UInt8(ascii: "-") })
                    && !bytes.allSatisfy({ (48...57).contains($0) || $0 == UInt8(ascii: "-") })
                guard UUIDText.normalized(word) != nil || isStart else {
                    throw ToolFailure("'\(word)' is not a uuid: name tasks by uuid (or 8 or more of its first hex digits); ids are reused")
                }
                let task = try MCPReadTools.one(word, call)
                if !uuids.contains(task.uuid) { uuids.append(task.uuid) }
            }
            tasks = try MCPPlanning.read(uuids: uuids, service, call)
            byUUID = true
        } else if filter != nil {
            tasks = try chosen(call, writing)
        } else {
            throw ToolFailure("name the tasks: 'tasks' (their uuids), or 'filter' with 'expect'")
        }
        // Never an empty selection: the command's words would then begin with the changes,
        // which it would read as its filter.
        guard !tasks.isEmpty else { throw ToolFailure("the selection is empty; nothing was planned") }
        guard tasks.count <= writing.maxChanges else {
            throw ToolFailure("\(tasks.count) tasks is more than mcp.max-changes (\(writing.maxChanges)) allows in one call; nothing was planned")
        }
        if let allow = writing.allow { try MCPAllowance.check(tasks.map(\.id), allow, service, call, when: "now") }
        return (tasks, byUUID)
    }

    /// The tasks the filter chooses, when it is not empty, not every task, and selects exactly
    /// `expect` of them.
    private static func chosen(_ call: MCPCall, _ writing: MCPWriting) throws -> [Task] {
        let words = try call.filterWords()
        guard !words.isEmpty else {
            throw ToolFailure("an empty filter chooses every task; give filter words, or name the tasks by uuid")
        }
        let expect = try call.integer("expect", 1...Int64(MCPWriteTools.mostNamed), default: 0)
        guard expect > 0 else {
            throw ToolFailure("a filter needs expect: how many tasks you mean to change (query or explain counts them); nothing was planned")
        }
        let status = try call.choice("status", ["pending", "done", "all"], default: "pending")
        var command = ["list", "--context", "none"]
        if status != "pending" { command.append("--" + status) }
        func query(_ words: [String]) throws -> TaskQuery {
            do { return try ListCommand(try call.line(command, words: words)).query } catch { throw ToolFailure(presenting: error) }
        }
        let service = call.session.service()
        let limit = max(writing.maxChanges, expect) + 1
        let selected = TaskListReactor(service: service, windowSize: limit).send(.refresh(try query(words)))
        if let failure = selected.failure { throw ToolFailure(presenting: failure) }
        let count = selected.totals.count
        guard count == expect else {
            throw ToolFailure("the filter selects \(count) \(count == 1 ? "task" : "tasks"), not the \(expect) expected; nothing was planned — query it first")
        }
        let every = TaskListReactor(service: service, windowSize: 1).send(.refresh(try query([]))).totals.count
        if count > 1 && count == every {
            throw ToolFailure("the filter selects every \(status == "all" ? "" : status + " ")task (\(count)); nothing was planned — narrow it, or name the tasks by uuid")
        }
        guard count <= writing.maxChanges else {
            throw ToolFailure("the filter selects \(count) tasks, more than mcp.max-changes (\(writing.maxChanges)) allows in one call; nothing was planned")
        }
        return try MCPPlanning.read(uuids: selected.window.rows.prefix(count).map(\.uuid), service, call)
    }

    /// Whether one word would be read as a modification (`+tag`, `-tag`, `due:fri`) rather than text.
    static func readsAsModification(_ word: String) -> Bool {
        if (word.hasPrefix("+") || word.hasPrefix("-")) && word.utf8.count > 1 { return true }
        guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else { return false }
        return FilterParser.isNameShaped(String(word[..<colon]))
    }
}

/// `undo` and `redo` through MCP: only of changes made through MCP, each checked and done
/// under one lock, as its own history entry.
enum MCPHistoryTools {
    static func revert(_ call: MCPCall, redo: Bool) throws -> ToolResult {
        let writing = try call.writing()
        let number = Int64(try call.integer("entry", 1...Int64.max, default: 0))
        guard number > 0 else { throw ToolFailure("'entry' is needed: the history entry the change returned") }
        let service = call.session.service()
        let verb = redo ? "redo" : "undo"
        service.commandText = MCPPlanning.historyText([[verb, String(number)]], client: call.client)
        let done: HistoryEntry = try service.inOneTransaction {
            let target = try entry(number, service)
            guard target.kind == .command, target.command.hasPrefix("via MCP") else {
                throw ToolFailure("#\(number) was not made through MCP (\(TerminalText.escapingControls(target.command))); only the person at the terminal reverts it")
            }
            // The person's own undo of an agent's change stands: a redo is of MCP's undo only.
            if redo, let undoneBy = target.undoneBy, !(try entry(undoneBy, service)).command.hasPrefix("via MCP") {
                throw ToolFailure("#\(number) was undone at the terminal (#\(undoneBy)); only the person redoes it")
            }
            // The fence holds for a revert too: every task it touches, before and after.
            let touched = target.changes.flatMap { Array($0.span) }
            if let allow = writing.allow { try MCPAllowance.check(try existing(touched, service, call), allow, service, call, when: "now") }
            let after = TaskHistoryReactor(service: service).send(redo ? .redo : .undo(number))
            if let failure = after.failure { throw ToolFailure(presenting: failure) }
            guard let reverted = after.step?.entry else { throw ToolFailure("nothing to \(verb)") }
            guard reverted.id == number else {
                throw ToolFailure("redo applies #\(reverted.id), the change undone last, not #\(number); nothing was changed")
            }
            if let allow = writing.allow {
                try MCPAllowance.check(try existing(touched, service, call), allow, service, call, when: "after the \(verb)")
            }
            guard let written = TaskHistoryReactor(service: service).send(.load(HistoryQuery(limit: 1))).entries.first else {
                throw ToolFailure("the \(verb) of #\(number) could not be read back")
            }
            return written
        }
        let text = "\(redo ? "Redid" : "Undid") #\(number) as history entry #\(done.id): \(TerminalText.escapingControls(done.summary))."
        return ToolResult(structured: .object([("entry", .number(done.id)), ("target", .number(number)), ("summary", .string(done.summary))]), text: text)
    }

    /// History entry `number`, with its changes.
    private static func entry(_ number: Int64, _ service: SQLiteTaskService) throws -> HistoryEntry {
        var query = HistoryQuery(limit: 1, withChanges: true)
        query.entry = number
        let state = TaskHistoryReactor(service: service).send(.load(query))
        if let failure = state.failure { throw ToolFailure(presenting: failure) }
        guard let found = state.entries.first else { throw ToolFailure("no history entry #\(number)") }
        return found
    }

    /// The ids among `ids` whose tasks are there (not deleted).
    static func existing(_ ids: [Int64], _ service: SQLiteTaskService, _ call: MCPCall) throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        let invocation = call.session.invocation
        let ranges = ids.map { $0...$0 }
        let state = TaskListReactor(service: service).send(.choose(.every(.term(.ids(ranges)), today: invocation.today(), now: invocation.now(),
                                                                           zone: invocation.localTime)))
        if let failure = state.failure { throw ToolFailure(presenting: failure) }
        return (state.chosen ?? []).map(\.id)
    }
}
