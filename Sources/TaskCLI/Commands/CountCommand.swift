import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// `tasks count FILTER…`: how many tasks `tasks list` would show with the same words.
struct CountCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "count", abstract: "Print how many tasks the filter chooses (as 'tasks list' with the same words would show).",
        arguments: [TasksSpec.filterArgument],
        options: TasksSpec.listingOptions
    )
    static let changesTasks = false

    let query: TaskQuery
    let explain: Bool

    init(_ line: ParsedLine) throws {
        var query = try line.query()
        query.grouping = .none
        self.query = query
        explain = line.has(Option.explainFilter)
    }

    func run(_ context: CommandContext) {
        if explain { return context.console.stdout.write(FilterExplanation.text(query)) }
        let state = TaskListReactor(service: context.service, windowSize: 1).send(.refresh(query))
        if let failure = state.failure { return context.status.fail(failure) }
        let count = state.totals.count
        context.console.stdout.write("\(query.limit.map { min($0, count) } ?? count)\n")
    }
}
