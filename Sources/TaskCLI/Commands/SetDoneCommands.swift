import CommandLineKit
import TaskReactors

/// `toggle`, `done` and `reopen`: ids in (or `-` for stdin's), one change of them all out, in
/// one transaction. They differ only in their entry of the tree and the action they send.
protocol SetDoneCommand: TasksCommand {
    var ids: [Int64] { get }
    init(ids: [Int64])
    /// The list reactor's action for `ids`.
    static func action(_ ids: [Int64]) -> TaskListReactor.Action
}

extension SetDoneCommand {
    static var changesTasks: Bool { true }

    init(_ line: ParsedLine) throws { self.init(ids: try line.ids()) }

    func run(_ context: CommandContext) {
        context.change(ids.isEmpty, Self.action(ids), verb: { $0.isDone ? "Done" : "Reopened" })
    }
}

/// `tasks toggle ID…`: each task flipped between done and pending.
struct ToggleCommand: SetDoneCommand {
    static let spec = CommandSpec(name: "toggle", abstract: "Flip tasks between done and pending.", arguments: TasksSpec.idArguments)
    let ids: [Int64]
    static func action(_ ids: [Int64]) -> TaskListReactor.Action { .toggleTasksDone(ids) }
}

/// `tasks done ID…`: each task marked done (a done task stays done).
struct DoneCommand: SetDoneCommand {
    static let spec = CommandSpec(name: "done", abstract: "Mark tasks done (a done task stays done).", arguments: TasksSpec.idArguments)
    let ids: [Int64]
    static func action(_ ids: [Int64]) -> TaskListReactor.Action { .setDone(ids, true) }
}

/// `tasks reopen ID…`: each task pending again (a pending task stays pending).
struct ReopenCommand: SetDoneCommand {
    static let spec = CommandSpec(name: "reopen", abstract: "Mark tasks pending again (a pending task stays pending).",
                                  arguments: TasksSpec.idArguments)
    let ids: [Int64]
    static func action(_ ids: [Int64]) -> TaskListReactor.Action { .setDone(ids, false) }
}
