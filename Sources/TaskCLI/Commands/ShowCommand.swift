import CommandLineKit
import TaskReactors

/// `tasks show ID`: every field of one task.
struct ShowCommand: TasksCommand {
    static let spec = CommandSpec(name: "show", abstract: "Show every field of one task.", arguments: [TasksSpec.idArgument])
    static let changesTasks = false

    let id: Int64
    /// The custom fields, shown as fields of their own.
    let configuration: Configuration

    init(_ line: ParsedLine) throws {
        id = try IDParser.id(line.requiredArgument)
        configuration = try line.configuration()
    }

    func run(_ context: CommandContext) {
        let reactor = context.editReactor()
        let view = ShowView(context: context.view)
        view.customFields = configuration.sortedFields
        view.related = { query in TaskListReactor(service: context.service).send(.refresh(query)).window.rows }
        view.reactor = reactor
        reactor.action.onNext(.load(id))
    }
}
