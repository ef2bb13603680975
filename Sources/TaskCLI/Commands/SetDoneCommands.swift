import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// `toggle`, `done` and `reopen`: ids in (or `-` for stdin's), one change of them all out, in
/// one transaction. They differ only in their entry of the tree and the action they send.
protocol SetDoneCommand: TasksCommand {
    var selection: Selection { get }
    init(selection: Selection)
    /// The list reactor's action for `ids`.
    static func action(_ ids: [Int64]) -> TaskListReactor.Action
    /// The tasks a filter chooses from unless it names a status: pending ones, done ones for `reopen`.
    static var chosenFrom: TaskQuery.Status { get }
    /// The question's verb (`Mark done`).
    static var asking: String { get }
}

extension SetDoneCommand {
    static var changesTasks: Bool { true }
    static var chosenFrom: TaskQuery.Status { .pending }

    init(_ line: ParsedLine) throws { self.init(selection: try line.selection(status: Self.chosenFrom)) }

    func run(_ context: CommandContext) {
        context.change(selection, Self.action, verb: { $0.isDone ? "Done" : "Reopened" }, asking: Self.asking)
    }
}

/// `tasks toggle ID…`: each task flipped between done and pending.
struct ToggleCommand: SetDoneCommand {
    static let spec = CommandSpec(name: "toggle", abstract: "Flip tasks between done and pending.", arguments: TasksSpec.selectionArguments, options: TasksSpec.selectionOptions)
    let selection: Selection
    static let asking = "Toggle"
    static func action(_ ids: [Int64]) -> TaskListReactor.Action { .toggleTasksDone(ids) }
}

/// `tasks done ID… [MODIFICATIONS]`: each task marked done (a done task stays done), the
/// modifications made to it first (`SelectionModifications`).
struct DoneCommand: SetDoneCommand {
    static let spec = CommandSpec(
        name: "done", abstract: "Mark tasks done (a done task stays done); modifications after them change them too.",
        discussion: """
            tasks done 12 called them +phone      (Taskwarrior's: tasks 12 done called them +phone)
            After ids (or one word of filter words, quoted), the words modify each task
            marked as add's words do (+tag, -tag, project:, due:, …); the others are an
            annotation. One change, one undo.
            """,
        arguments: TasksSpec.selectionArguments, options: TasksSpec.selectionOptions)
    let selection: Selection
    var changes = TaskChanges()
    static let asking = "Mark done"
    static func action(_ ids: [Int64]) -> TaskListReactor.Action { .setDone(ids, true) }

    init(selection: Selection) { self.selection = selection }

    init(_ line: ParsedLine) throws {
        let read = try SelectionModifications(line)
        selection = read.selection
        changes = read.changes
    }

    func run(_ context: CommandContext) {
        context.change(selection, { [changes] in .setDone($0, true, changing: changes) }, verb: { _ in "Done" }, asking: Self.asking)
    }
}

/// `tasks reopen ID…`: each task pending again (a pending task stays pending).
struct ReopenCommand: SetDoneCommand {
    static let spec = CommandSpec(name: "reopen", abstract: "Mark tasks pending again (a pending task stays pending).",
                                  arguments: TasksSpec.selectionArguments, options: TasksSpec.selectionOptions)
    let selection: Selection
    static let asking = "Reopen"
    static let chosenFrom = TaskQuery.Status.done
    static func action(_ ids: [Int64]) -> TaskListReactor.Action { .setDone(ids, false) }
}
