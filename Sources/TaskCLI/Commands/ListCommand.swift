import CommandLineKit
import TaskModel
import TaskReactors

/// `tasks list`: the tasks a query selects, streamed in batches as they are read.
struct ListCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "list", aliases: ["ls"], abstract: "Show pending tasks, one section per list.",
        discussion: "FILTER words are searched for like --search.\n\n" + TasksSpec.formatHelp,
        arguments: [TasksSpec.filterArgument],
        options: TasksSpec.listingOptions
    )
    static let changesTasks = false

    let query: TaskQuery

    init(_ line: ParsedLine) throws { query = try line.query() }

    func run(_ context: CommandContext) {
        let reactor = TaskListReactor(service: context.service)
        let view = ListView(context: context.view, writer: context.view.printer.writer)
        view.reactor = reactor
        reactor.action.onNext(view.stream(query))
    }
}
