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
            1,000 entries and 30 days.
            """,
        options: [Option.limit, Option.forTask]
    )
    static let changesTasks = false

    let query: HistoryQuery

    init(_ line: ParsedLine) throws {
        var query = HistoryQuery(withChanges: line.value(Option.format).flatMap { OutputFormat(word: $0) } == .json)
        query.limit = try line.value(Option.limit).map(IDParser.count)
        query.taskID = try line.value(Option.forTask).map(IDParser.id)
        self.query = query
    }

    func run(_ context: CommandContext) {
        var query = self.query
        if query.limit == nil && context.console.settings.format == .table { query.limit = 20 }
        context.history { [query] in $0.action.onNext(.load(query)) }
    }
}
