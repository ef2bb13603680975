import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors
import TaskStore
import TextFormats

/// What a run of `tasks mcp` may change: every task, or only those `allow` (filter words)
/// selects — before the change and after it — and at most `maxChanges` tasks in one call.
struct MCPWriting {
    let allow: String?
    let maxChanges: Int
    let plans = PlanBook()
}

/// A change planned and not yet applied: the commands it runs, the tasks it is bound to as they
/// were when planned, and the arguments it was made for.
struct MCPPlan {
    let token: String
    let tool: String
    let arguments: String
    let commands: [[String]]
    let targets: [Task]
}

/// The plans this run made, the newest `kept`; a plan is taken out when it is applied or found
/// stale, so it is applied at most once.
final class PlanBook: @unchecked Sendable {
    private var plans: [MCPPlan] = []
    static let kept = 100

    func keep(_ plan: MCPPlan) {
        plans.append(plan)
        if plans.count > Self.kept { plans.removeFirst(plans.count - Self.kept) }
    }

    func take(_ token: String) -> MCPPlan? {
        guard let index = plans.firstIndex(where: { $0.token == token }) else { return nil }
        return plans.remove(at: index)
    }
}

/// Plans and applies a write tool's change: the CLI's own command run in this process on the
/// file — rehearsed (run, read, rolled back) for a plan, kept when applied — as one history
/// entry marked as made through MCP, by the client that called.
enum MCPPlanning {
    /// The change of `commands` to `targets` (tasks read by `targets(_:)`; none for `add`):
    /// planned, or applied at once when `now`.
    static func change(_ tool: String, commands: [[String]], targets: [Task], _ call: MCPCall, now: Bool) throws -> ToolResult {
        let writing = try call.writing()
        let service = call.session.service()
        service.commandText = historyText(commands, client: call.client)
        let outcome = try service.asOneEntry(rehearsal: !now, {
            if now { try checkUnchanged(targets, service, call) }
            try checkFence(commands, service, call, writing)
            for words in commands { try run(words, call.session, service) }
        }, reading: { entry in try MCPOutcome.read(entry, before: targets, service, call, writing) })
        guard outcome.entry != nil else {
            return ToolResult(structured: outcome.json(plan: nil, applied: false), text: "Nothing would change: " + describe(commands) + ".")
        }
        if now { return outcome.result(plan: nil, tool: tool) }
        let plan = MCPPlan(token: "plan-" + UUIDText.random(), tool: tool, arguments: call.canonical(leaving: ["plan", "apply"]),
                           commands: commands, targets: targets)
        writing.plans.keep(plan)
        return outcome.result(plan: plan.token, tool: tool)
    }

    /// The plan `token` names, applied if none of its tasks changed since it was made.
    static func apply(_ token: String, tool: String, _ call: MCPCall) throws -> ToolResult {
        let writing = try call.writing()
        guard let plan = writing.plans.take(token) else {
            throw ToolFailure("no plan '\(token)': a plan is applied once, lives as long as this server, and the newest \(PlanBook.kept) are kept; plan the change again")
        }
        guard plan.tool == tool else {
            writing.plans.keep(plan)
            throw ToolFailure("plan '\(token)' was made by \(plan.tool); call \(plan.tool) with it")
        }
        let given = call.canonical(leaving: ["plan", "apply"])
        guard given == "{}" || given == plan.arguments else {
            writing.plans.keep(plan)
            throw ToolFailure("plan '\(token)' was made for other arguments (\(plan.arguments)); give the plan alone")
        }
        let service = call.session.service()
        service.commandText = historyText(plan.commands, client: call.client)
        let outcome = try service.asOneEntry(rehearsal: false, {
            try checkUnchanged(plan.targets, service, call)
            try checkFence(plan.commands, service, call, writing)
            for words in plan.commands { try run(words, call.session, service) }
        }, reading: { entry in try MCPOutcome.read(entry, before: plan.targets, service, call, writing) })
        return outcome.result(plan: nil, tool: tool)
    }

    /// With a fence (`--allow-write`), every task the commands would touch — the ones named,
    /// and what they change or remove besides (a repeating task's next occurrence) — must be
    /// inside it as it is now: learnt by running them in a savepoint rolled back.
    static func checkFence(_ commands: [[String]], _ service: SQLiteTaskService, _ call: MCPCall, _ writing: MCPWriting) throws {
        guard let allow = writing.allow else { return }
        let touched: [Int64] = try service.asOneEntry(rehearsal: true, {
            for words in commands { try run(words, call.session, service) }
        }, reading: { entry in
            guard let entry else { return [] }
            var query = HistoryQuery(limit: 1, withChanges: true)
            query.entry = entry
            let changes = TaskHistoryReactor(service: service).send(.load(query)).entries.first?.changes ?? []
            guard changes.reduce(0, { $0 + $1.span.count }) <= writing.maxChanges else {
                throw ToolFailure("the change would touch more than mcp.max-changes (\(writing.maxChanges)) tasks; nothing was changed — choose fewer tasks")
            }
            return changes.flatMap { Array($0.span) }
        })
        try MCPAllowance.check(try MCPHistoryTools.existing(touched, service, call), allow, service, call, when: "now")
    }

    /// Refuses, naming them, when any of `targets` is not as it was read.
    static func checkUnchanged(_ targets: [Task], _ service: SQLiteTaskService, _ call: MCPCall) throws {
        guard !targets.isEmpty else { return }
        let now = try read(uuids: targets.map(\.uuid), service, call)
        let current = Dictionary(now.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        let changed = targets.filter { current[$0.uuid] != $0 }
        guard changed.isEmpty else {
            throw ToolFailure("the plan is stale: \(changed.count) of its \(targets.count) tasks changed since it was made ("
                + changed.prefix(5).map { "\($0.uuid) \"\(TerminalText.escapingControls($0.title))\"" }.joined(separator: ", ")
                + (changed.count > 5 ? ", …" : "") + "); nothing was changed — plan it again")
        }
    }

    /// The tasks with these uuids (whole uuids), of any status, deleted ones too.
    static func read(uuids: [String], _ service: SQLiteTaskService, _ call: MCPCall) throws -> [Task] {
        guard !uuids.isEmpty else { return [] }
        let invocation = call.session.invocation
        var query = TaskQuery.every(.or(uuids.map { .term(.uuid($0)) }), today: invocation.today(), now: invocation.now(), zone: invocation.localTime)
        query.withDeleted = true
        let state = TaskListReactor(service: service).send(.choose(query))
        if let failure = state.failure { throw ToolFailure(presenting: failure) }
        return state.chosen ?? []
    }

    /// Runs one command line as `tasks` runs it — read, checked, run on `service` — with its
    /// output kept here and returned; its failure, in the CLI's words, is thrown (and rolls a
    /// change back).
    @discardableResult
    static func run(_ words: [String], _ session: MCPSession, _ service: SQLiteTaskService) throws -> String {
        var invocation = session.invocation
        invocation.arguments = words
        invocation.stdin = .bytes([])
        invocation.stdout = Output()
        invocation.stderr = Output()
        invocation.terminal = TerminalFacts(stdoutIsTerminal: false, stderrIsTerminal: false, width: nil)
        let command: any TasksCommand
        let console: Console
        let line: ParsedLine
        let weekStart: Int
        do {
            line = ParsedLine(parsed: try CommandParser(root: TasksSpec.root).parse(words), invocation: invocation)
            let reader = CommandReader(invocation: invocation)
            console = Console(stdout: invocation.stdout, stderr: invocation.stderr, settings: try reader.outputSettings(line), terminal: invocation.terminal)
            weekStart = try DateSettings.weekStart(invocation.environment)
            command = try reader.read(line)
        } catch {
            throw ToolFailure(presenting: error)
        }
        let status = ExitStatus(console: console, changesTasks: true)
        let fallback = invocation
        command.run(CommandContext(invocation: invocation, service: service, console: console, status: status,
                                   dates: { (try? line.dates()) ?? DateSettings.context(fallback, weekStart: weekStart) }))
        if status.failed {
            let said = status.failures.map { $0.message + ($0.hint.map { " (\($0))" } ?? "") }
            throw ToolFailure(said.isEmpty ? "\(describe([words])) failed" : said.joined(separator: "; "))
        }
        invocation.stdout.flush()
        return invocation.stdout.text
    }

    /// What the history records as the command: the CLI's words, marked as made through MCP by
    /// the client (`via MCP (claude-code 2.1.0): tasks done -- 01a2…`).
    static func historyText(_ commands: [[String]], client: String) -> String {
        "via MCP" + (client.isEmpty ? "" : " (\(client))") + ": " + describe(commands)
    }

    static func describe(_ commands: [[String]]) -> String {
        let shown = commands.prefix(3).map(CommandText.typed).joined(separator: "; ")
        return commands.count > 3 ? shown + "; … (\(commands.count) commands)" : shown
    }
}

/// What a change did (or would do): its history entry, and each task it touched as it was and
/// as it is after, with the fields that changed — read inside the change's transaction.
struct MCPOutcome {
    var entry: Int64?
    var summary = ""
    var changes: [JSONValue] = []
    var lines: [String] = []

    static func read(_ entry: Int64?, before: [Task], _ service: SQLiteTaskService, _ call: MCPCall, _ writing: MCPWriting) throws -> MCPOutcome {
        guard let entry else { return MCPOutcome() }
        var query = HistoryQuery(limit: 1, withChanges: true)
        query.entry = entry
        let history = TaskHistoryReactor(service: service).send(.load(query))
        if let failure = history.failure { throw ToolFailure(presenting: failure) }
        guard let recorded = history.entries.first else { throw ToolFailure("the change's history entry #\(entry) could not be read") }
        var ranges: [ClosedRange<Int64>] = []
        var touched = 0
        for change in recorded.changes {
            touched += change.span.count
            ranges.append(change.span)
        }
        guard touched <= writing.maxChanges else {
            throw ToolFailure("the change would touch \(touched) tasks, more than mcp.max-changes (\(writing.maxChanges)); nothing was changed — choose fewer tasks")
        }
        let invocation = call.session.invocation
        var tasksQuery = TaskQuery.every(.term(.ids(ranges)), today: invocation.today(), now: invocation.now(), zone: invocation.localTime)
        tasksQuery.withDeleted = true
        let state = TaskListReactor(service: service).send(.choose(tasksQuery))
        if let failure = state.failure { throw ToolFailure(presenting: failure) }
        let after = Dictionary((state.chosen ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let was = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let allow = writing.allow {
            let kept = recorded.changes.filter { $0.kind == .created || $0.kind == .changed }.flatMap { Array($0.span) }
            try MCPAllowance.check(kept, allow, service, call, when: "after the change")
        }
        var outcome = MCPOutcome(entry: entry, summary: recorded.summary)
        let zone = invocation.localTime
        for change in recorded.changes {
            for id in change.span {
                let task = after[id]
                var members: [(String, JSONValue)] = [("kind", .string(kindName(change.kind))), ("uuid", .string(task?.uuid ?? change.uuid ?? "")),
                                                      ("id", .number(id))]
                if let old = was[id] { members.append(("before", MCPTaskJSON.task(old, zone: zone, whole: true))) }
                if let task, change.kind != .purged { members.append(("after", MCPTaskJSON.task(task, zone: zone, whole: true))) }
                if change.kind == .changed {
                    members.append(("fields", .object(change.fields.map {
                        ($0.field.rawValue, .object([("before", HistoryWriter.json($0.before)), ("after", HistoryWriter.json($0.after))]))
                    })))
                }
                outcome.changes.append(.object(members))
                let title = TerminalText.escapingControls(task?.title ?? was[id]?.title ?? "")
                let fields = change.kind == .changed
                    ? ": " + change.fields.map { "\($0.field.rawValue) \(shown($0.before)) → \(shown($0.after))" }.joined(separator: "; ") : ""
                outcome.lines.append("  \(kindName(change.kind)) \(id) \"\(title)\" \(task?.uuid ?? change.uuid ?? "")" + fields)
            }
        }
        return outcome
    }

    static func kindName(_ kind: HistoryChange.Kind) -> String {
        switch kind {
        case .created: "created"
        case .changed: "changed"
        case .deleted: "deleted"
        case .purged: "purged"
        }
    }

    private static func shown(_ value: FieldValue) -> String {
        value == .none ? "(none)" : TerminalText.escapingControls(HistoryWriter.json(value).serialized())
    }

    func json(plan: String?, applied: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [("applied", .bool(applied))]
        if let plan { members.append(("plan", .string(plan))) }
        if applied, let entry { members.append(("entry", .number(entry))) }
        members += [("summary", .string(summary)), ("count", .number(Int64(changes.count))), ("changes", .array(changes))]
        return .object(members)
    }

    func result(plan: String?, tool: String) -> ToolResult {
        let head: String
        if let plan {
            head = "Planned, not applied: \(TerminalText.escapingControls(summary)). To apply exactly this, call \(tool) with {\"plan\": \"\(plan)\"}."
        } else {
            let number = entry.map { "#\($0)" } ?? ""
            head = "Applied as history entry \(number): \(TerminalText.escapingControls(summary)). To revert it, call undo with {\"entry\": \(entry ?? 0)}"
                + " (at the terminal: tasks undo \(entry ?? 0))."
        }
        return ToolResult(structured: json(plan: plan, applied: plan == nil), text: ([head] + lines).joined(separator: "\n"))
    }
}

extension HistoryChange {
    /// The ids it covers, read as a run that cannot be backwards whatever the file holds.
    var span: ClosedRange<Int64> { taskID...max(taskID, lastTaskID) }
}

/// `--allow-write FILTER` (`mcp.allow-write`): the only tasks an agent may change or make.
enum MCPAllowance {
    /// Refuses unless `filter` (the allowance's words) selects every one of `ids`.
    static func check(_ ids: [Int64], _ filter: String, _ service: SQLiteTaskService, _ call: MCPCall, when: String) throws {
        guard !ids.isEmpty else { return }
        let line = try call.line(["list"], words: [])
        let parsed: TaskFilter?
        do {
            parsed = try FilterInput.parse(text: filter, try line.filterSettings(try line.configuration()), source: "the allowed filter: ")
        } catch { throw ToolFailure(presenting: error) }
        guard let parsed else { throw ToolFailure("the allowed filter '\(filter)' chooses no tasks by their fields; nothing was changed") }
        let invocation = call.session.invocation
        let today = invocation.today()
        let matching: Set<Int64>
        do {
            matching = try service.ids(among: ids, matching: parsed, today: today, now: TaskDate.reading(invocation.now(), in: invocation.localTime, today: today))
        } catch { throw ToolFailure(presenting: error) }
        let outside = ids.filter { !matching.contains($0) }
        guard outside.isEmpty else {
            throw ToolFailure("this server may change only the tasks '\(filter)' selects, and \(outside.count == 1 ? "task" : "tasks") "
                + outside.prefix(5).map(String.init).joined(separator: ", ") + (outside.count > 5 ? ", …" : "")
                + " \(outside.count == 1 ? "is" : "are") outside it \(when); nothing was changed")
        }
    }
}

extension MCPCall {
    /// What this run may change; a write tool called on a read-only run is refused (it is not
    /// listed there either).
    func writing() throws -> MCPWriting {
        guard let writing = session.writing else {
            throw ToolFailure("this server is read-only: start it with --allow-write FILTER, or set mcp.write = on in the configuration")
        }
        return writing
    }
}
