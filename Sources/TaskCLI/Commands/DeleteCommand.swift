import CommandLineKit
import TaskReactors

/// `tasks delete ID…`: the tasks deleted, in one transaction (`tasks undo` brings them back).
struct DeleteCommand: TasksCommand {
    static let spec = CommandSpec(name: "delete", aliases: ["rm"], abstract: "Delete tasks.", arguments: TasksSpec.idArguments)
    static let changesTasks = true

    let ids: [Int64]

    init(_ line: ParsedLine) throws { ids = try line.ids() }

    func run(_ context: CommandContext) {
        context.change(ids.isEmpty, .deleteTasks(ids), verb: { _ in "Deleted" }, removedVerb: "Deleted")
    }
}
