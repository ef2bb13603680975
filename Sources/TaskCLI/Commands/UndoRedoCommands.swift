import CommandLineKit
import TaskReactors

/// `tasks undo [ENTRY]`: the newest change, or one entry of the history, reverted whole.
struct UndoCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "undo", abstract: "Revert the newest change, or history entry ENTRY, whole.",
        discussion: """
            Every command that changed tasks is one entry of the history ('tasks history'),
            however many tasks it changed: undo reverts all of it, in one transaction, as
            an entry of its own. A deleted task comes back with its id and uuid. An entry
            that a later change touched the same tasks as is refused, and nothing changes.
            On a terminal it says what it reverted: Undid #12: done 3 "Buy milk".
            """,
        arguments: [ArgumentSpec("ENTRY", help: "The entry's number (#12 or 12); the newest change when left out.",
                                 optional: true, completion: Completion.entries)]
    )
    static let changesTasks = true

    let entry: Int64?

    init(_ line: ParsedLine) throws { entry = try line.arguments.first.map(IDParser.entry) }

    func run(_ context: CommandContext) { context.history { $0.action.onNext(.undo(entry)) } }
}

/// `tasks redo`: the change undone last, applied again.
struct RedoCommand: TasksCommand {
    static let spec = CommandSpec(name: "redo", abstract: "Apply again the change undone last.", discussion: "A new change ends what can be redone.")
    static let changesTasks = true

    init(_ line: ParsedLine) {}

    func run(_ context: CommandContext) { context.history { $0.action.onNext(.redo) } }
}
