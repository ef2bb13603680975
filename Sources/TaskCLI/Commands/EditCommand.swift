import CommandLineKit
import TaskModel
import TaskReactors

/// `tasks edit ID`: the fields given as flags, or the task in `$VISUAL`/`$EDITOR` on a terminal.
struct EditCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "edit", abstract: "Change a task; with no field flags on a terminal, open $VISUAL/$EDITOR.",
        discussion: "In the editor the first line is the title; the lines after a blank line are the notes.",
        arguments: [TasksSpec.idArgument],
        options: TasksSpec.editOptions
    )
    static let changesTasks = true

    let task: TaskRef
    let fields: FieldFlags

    init(_ line: ParsedLine) throws {
        fields = try line.fieldFlags(titled: true)
        task = try TaskRef(try line.requiredArgument)
    }

    func run(_ context: CommandContext) {
        var fields = fields
        let invocation = context.invocation
        if fields.isEmpty && !(invocation.stdin.isTerminal && invocation.terminal.stdoutIsTerminal) {
            let flags = TasksSpec.editOptions.map { "--" + $0.long }.joined(separator: ", ")
            return context.status.fail(.usage("'edit' needs a field flag (\(flags)) when not on a terminal"))
        }
        guard let id = self.task.id(context) else { return }
        let reactor = context.editReactor()
        let view = EditView(context: context.view)
        view.reactor = reactor
        reactor.action.onNext(.load(id))
        guard let task = reactor.currentState.task else { return }
        if fields.isEmpty {
            guard let edited = EditorSession(invocation: invocation).edit(task) else {
                return context.status.fail(.failure("the editor failed; nothing was changed"))
            }
            guard let (title, notes) = edited else {
                if !context.console.settings.quiet { context.console.stdout.write("Nothing changed.\n") }
                return
            }
            fields.title = title
            fields.notes = notes
        }
        if let title = fields.title { reactor.action.onNext(.updateTitle(title)) }
        context.send(fields, to: reactor)
        reactor.action.onNext(.submit)
    }
}
