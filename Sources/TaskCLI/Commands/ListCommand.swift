import CommandLineKit
import TaskModel
import TaskReactors

/// `tasks list`: the tasks a query selects, streamed in batches as they are read.
struct ListCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "list", aliases: ["ls"], abstract: "Show pending tasks, one section per list.",
        discussion: "FILTER words choose the tasks (tasks help filters); --explain shows how they were read.\n\n" + TasksSpec.formatHelp,
        arguments: [TasksSpec.filterArgument],
        options: TasksSpec.listingOptions
    )
    static let changesTasks = false

    let query: TaskQuery
    let explain: Bool

    init(_ line: ParsedLine) throws {
        query = try line.query()
        explain = line.has(Option.explainFilter)
    }

    func run(_ context: CommandContext) {
        if explain { return context.console.stdout.write(FilterExplanation.text(query)) }
        let reactor = TaskListReactor(service: context.service)
        let view = ListView(context: context.view, writer: context.view.printer.writer)
        view.reactor = reactor
        reactor.action.onNext(view.stream(query))
    }
}

/// What `--explain` prints: the filter's tree, one node per line, and what else chooses the
/// tasks (status, waiting and expired ones, the search, the limit).
enum FilterExplanation {
    static func text(_ query: TaskQuery) -> String {
        var lines: [String] = []
        if let filter = query.filter {
            lines.append("filter:")
            lines += filter.explained(indent: 1)
        } else {
            lines.append("filter: none (every task)")
        }
        if let search = query.search { lines.append("search: \"\(search)\"") }
        let status: String
        switch query.status {
        case .pending: status = "pending"
        case .done: status = "done"
        case .all: status = "any"
        }
        func shown(_ choice: TaskQuery.Waiting) -> String {
            switch choice {
            case .hidden: "hidden"
            case .only: "only"
            case .shown: "shown"
            }
        }
        lines.append("status: \(status); waiting: \(shown(query.waiting)); expired: \(shown(query.expired))"
                     + (query.filter?.choosesStatus == true ? " (the filter names a status or ids)" : ""))
        if let limit = query.limit { lines.append("limit: \(limit)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
