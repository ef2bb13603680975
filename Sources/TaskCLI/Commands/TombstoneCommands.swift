import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// `tasks undelete ID|FILTER`: deleted tasks brought back from their tombstones (the filter is
/// read over the deleted tasks alone), as one change `tasks undo` reverts.
struct UndeleteCommand: TasksCommand {
    static let spec = CommandSpec(name: "undelete", abstract: "Bring deleted tasks back.", discussion: """
        tasks list status:deleted     the deleted tasks
        tasks undelete 12
        tasks undelete +bills
        Deleted tasks are kept (as Taskwarrior keeps them) until purged; this brings them back
        with their ids and fields. The filter is read over the deleted tasks only; more than
        three ask first on a terminal, as every change does.
        """, arguments: TasksSpec.selectionArguments, options: TasksSpec.selectionOptions)
    static let changesTasks = true

    let selection: Selection

    init(_ line: ParsedLine) throws { selection = try line.selection(deleted: true) }

    func run(_ context: CommandContext) {
        context.change(selection, { .undeleteTasks($0) }, verb: { _ in "Undeleted" }, madeVerb: "Undeleted", asking: "Undelete")
    }
}

/// `tasks purge ID|FILTER`: deleted tasks' tombstones let go — no longer listed or brought
/// back — as one change `tasks undo` reverts while the history keeps it.
struct PurgeCommand: TasksCommand {
    static let spec = CommandSpec(name: "purge", abstract: "Let deleted tasks go for good.", discussion: """
        tasks purge 12
        tasks purge modified.before:now-1y     those deleted more than a year ago
        Only deleted tasks are purged (the filter is read over them alone), after a question on
        a terminal however few (--yes does not ask; a pipe never does). 'tasks undo' brings them
        back while the history keeps the purge (at least its last 1,000 entries and 30 days).
        """, arguments: TasksSpec.selectionArguments, options: TasksSpec.selectionOptions)
    static let changesTasks = true

    let selection: Selection

    init(_ line: ParsedLine) throws { selection = try line.selection(deleted: true, alwaysAsks: true) }

    func run(_ context: CommandContext) {
        context.change(selection, { .purgeTasks($0) }, verb: { _ in "Purged" }, removedVerb: "Purged", asking: "Purge")
    }
}
