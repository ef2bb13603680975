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
    let id: Int64?
    let uuid: String?
    /// The custom fields, shown as fields of their own.
    let configuration: Configuration

    init(_ line: ParsedLine) throws {
        let word = try line.requiredArgument
        if let uuid = FilterParser.uuidPrefix(word.trimmingWhitespace) {
            (id, self.uuid) = (nil, uuid)
        } else {
            (id, uuid) = (try IDParser.id(word), nil)
        }
        configuration = try line.configuration()
    }

    /// The id of the one task whose uuid begins with `uuid`; none or several is said and nil.
    private func resolve(_ uuid: String, _ context: CommandContext) -> Int64? {
        var query = TaskQuery(status: .all)
        query.filter = .term(.uuid(uuid))
        let state = TaskListReactor(service: context.service).send(.choose(query))
        if let failure = state.failure {
            context.status.fail(failure)
            return nil
        }
        let tasks = state.chosen ?? []
        switch tasks.count {
        case 1: return tasks[0].id
        case 0: context.status.fail(.failure("no task has a uuid beginning '\(uuid)'"))
        default: context.status.fail(.usage("'\(uuid)' begins the uuids of \(tasks.count) tasks", hint: "give more of the uuid, or the task's id"))
        }
        return nil
    }

    /// The task read with its blockers and the tasks it blocks (`TaskDetailsReactor`, the
    /// ui's details pane's reactor), then printed.
    func run(_ context: CommandContext) {
        guard let id = id ?? uuid.flatMap({ resolve($0, context) }) else { return }
        let state = TaskDetailsReactor(service: context.service, historyLimit: 0).send(.show(id))
        if let failure = state.failure { return context.status.fail(failure) }
        guard let details = state.details else { return context.status.fail(TaskServiceError(TaskServiceError.notFound(ids: [id]))) }
        let view = ShowView(context: context.view)
        view.customFields = configuration.vocabulary.fields.compactMap(\.custom)
        view.write(details)
    }
}
