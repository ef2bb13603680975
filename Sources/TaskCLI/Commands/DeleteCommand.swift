import CommandLineKit
import TaskReactors

/// `tasks delete ID…`: the tasks deleted, in one transaction (`tasks undo` brings them back).
struct DeleteCommand: TasksCommand {
    static let spec = CommandSpec(name: "delete", aliases: ["rm"], abstract: "Delete tasks.", arguments: TasksSpec.selectionArguments,
                                  options: TasksSpec.selectionOptions)
    static let changesTasks = true

    let selection: Selection

    init(_ line: ParsedLine) throws { selection = try line.selection() }

    func run(_ context: CommandContext) {
        context.change(selection, { .deleteTasks($0) }, verb: { _ in "Deleted" }, removedVerb: "Deleted", asking: "Delete")
    }
}
