import CommandLineKit
import TaskReactors

/// `tasks lists`: each list with its pending and done counts.
struct ListsCommand: TasksCommand {
    static let spec = CommandSpec(name: "lists", abstract: "Show the lists with their pending and done counts.")
    static let changesTasks = false

    init(_ line: ParsedLine) {}

    func run(_ context: CommandContext) {
        let reactor = TaskListReactor(service: context.service)
        let view = ListsView(context: context.view)
        view.reactor = reactor
        reactor.action.onNext(.loadLists)
    }
}
