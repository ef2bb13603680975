import CommandLineKit
import TaskModel
import TaskReactors

/// `tasks history`: the entries of the history, newest first.
struct HistoryCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "history", abstract: "Show the history of changes, newest first.",
        discussion: """
            Each entry: its number, when, the command as typed and what it did; an entry
            undone since is marked. --format json adds every change: the task's id and
            uuid, and each field before and after. The history keeps at least the last
            1,000 entries and 30 days. --since DATE: the entries since then (a day: from
            its start), e.g. what was done this week: tasks history --since sow.
            --graph [PERIOD] [FILTER…] charts the tasks added, completed and deleted per
            period instead, as tasks ghistory does.
            """,
        arguments: [ArgumentSpec("PERIOD", help: "With --graph: daily, weekly, monthly or annual.", optional: true),
                    ArgumentSpec("FILTER", help: "With --graph: filter words (tasks help filters).", variadic: true, optional: true,
                                 completion: Completion.filterWords, filter: true)],
        options: [Option.limit, Option.forTask, Option.since, Option.graph, Option.numbers, Option.context]
    )
    static let changesTasks = false

    let query: HistoryQuery
    /// `--graph`: `ghistory`'s chart instead of the entries.
    let graph: GHistoryCommand?

    init(_ line: ParsedLine) throws {
        if line.has(Option.graph) {
            for option in [Option.limit, Option.forTask, Option.since] where line.value(option) != nil {
                throw CLIError.usage("--\(option.long) lists entries; --graph charts tasks: give one or the other")
            }
            graph = try GHistoryCommand(line)
            query = HistoryQuery(withChanges: false)
            return
        }
        graph = nil
        if let word = line.arguments.first { throw CLIError.usage("unexpected '\(word)': the history takes no words", hint: "tasks history --graph \(word) charts tasks") }
        if line.has(Option.numbers) { throw CLIError.usage("--numbers goes with --graph") }
        if line.value(Option.context) != nil { throw CLIError.usage("--context chooses tasks for --graph; the history's entries are every context's") }
        var query = HistoryQuery(withChanges: line.value(Option.format).flatMap { OutputFormat(word: $0) } == .json)
        query.limit = try line.value(Option.limit).map(IDParser.count)
        query.taskID = try line.value(Option.forTask).map(IDParser.id)
        if let text = line.value(Option.since) {
            // The grammar of --due, with the run's clock, zone and week start; a day from its start.
            let dates = try line.dates()
            guard case .date(let date) = try TaskFields.spec(.due).judge(text, in: dates) else { throw TaskFieldError.badValue(.due, text) }
            let since = date.time ?? line.invocation.localTime.midnight(date.day)
            if since > line.invocation.now() {
                throw CLIError.usage("--since \(text) is \(date.shown(in: line.invocation.localTime)), still ahead: nothing could show",
                                     hint: "a weekday is the next one; for this week say sow, for days back: 3 days ago, -1w")
            }
            query.since = since
        }
        self.query = query
    }

    func run(_ context: CommandContext) {
        if let graph { return graph.run(context) }
        if context.console.settings.svg { return context.status.fail(CLIError.usage("--format svg draws the history's chart: tasks history --graph")) }
        var query = self.query
        if query.limit == nil && context.console.settings.format == .table { query.limit = 20 }
        context.history { [query] in $0.action.onNext(.load(query)) }
    }
}
