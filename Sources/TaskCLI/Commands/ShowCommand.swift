import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// `tasks show ID`: every field of one task.
struct ShowCommand: TasksCommand {
    static let spec = CommandSpec(name: "show", abstract: "Show every field of one task.",
                                  arguments: [ArgumentSpec("ID", help: "The task's id, or its uuid (or a start of it no other task's has).", completion: Completion.ids)])
    static let changesTasks = false

    /// The task: its id, or its uuid or a start of it (as Taskwarrior's `info` takes either).
    let task: TaskRef
    /// The custom fields, shown as fields of their own.
    let configuration: Configuration

    init(_ line: ParsedLine) throws {
        task = try TaskRef(try line.requiredArgument)
        configuration = try line.configuration()
    }

    /// The task read with its blockers and the tasks it blocks (`TaskDetailsReactor`, the
    /// ui's details pane's reactor), then printed.
    func run(_ context: CommandContext) {
        guard let id = task.id(context) else { return }
        let state = TaskDetailsReactor(service: context.service, historyLimit: 0).send(.show(id))
        if let failure = state.failure { return context.status.fail(failure) }
        guard let details = state.details else { return context.status.fail(TaskServiceError(TaskServiceError.notFound(ids: [id]))) }
        let view = ShowView(context: context.view)
        // On a terminal, the start of the uuid that names this task alone (Taskwarrior shows
        // the first 8 digits; here those of tasks made together are the same).
        if context.console.settings.format == .table { view.shortUUID = TaskRef.shortest(details.task.uuid, context) }
        view.customFields = configuration.vocabulary.fields.compactMap(\.custom)
        view.write(details)
    }
}
