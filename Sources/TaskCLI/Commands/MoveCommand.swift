import CommandLineKit
import TaskModel
import TaskReactors

/// `tasks move ID`: one task to another place in its list, or to the bottom of another list;
/// `tasks move FILTER… --list L`: every task chosen to the bottom of L, as one change.
struct MoveCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "move", aliases: ["mv"], abstract: "Reorder a task, or move it to another list.",
        discussion: """
            Give exactly one of --before, --after, --top, --bottom and --list. --list takes
            ids or a filter (tasks move +errand --list Home: every task chosen, to the bottom
            of Home, in one change and one undo); the others move one task.
            """,
        arguments: TasksSpec.selectionArguments,
        options: [Option.before, Option.after, Option.top, Option.bottom, Option.toList] + TasksSpec.selectionOptions
    )
    static let changesTasks = true

    let selection: Selection
    let placements: [TaskPlacement]

    init(_ line: ParsedLine) throws {
        selection = try line.selection()
        var placements: [TaskPlacement] = []
        if let text = line.value(Option.before) { placements.append(.before(try IDParser.id(text))) }
        if let text = line.value(Option.after) { placements.append(.after(try IDParser.id(text))) }
        if line.has(Option.top) { placements.append(.top) }
        if line.has(Option.bottom) { placements.append(.bottom) }
        if let list = line.value(Option.toList) { placements.append(.list(try FieldRules.list(list, typed: true))) }
        self.placements = placements
    }

    func validate() throws {
        guard placements.count == 1, let placement = placements.first else {
            throw CLIError.usage(placements.isEmpty ? "'move' needs where to: --before ID, --after ID, --top, --bottom or --list LIST"
                                                    : "'move' takes one of --before, --after, --top, --bottom and --list")
        }
        if case .list = placement { return }
        guard selection.query == nil, selection.ids.count == 1 else {
            throw CLIError.usage("--before, --after, --top and --bottom move one task: give its id (--list moves many)")
        }
    }

    func run(_ context: CommandContext) {
        guard let placement = placements.first else { return }
        if selection.query == nil, selection.ids.count == 1, let id = selection.ids.first {
            return context.change(false, .moveTask(id, to: placement), verb: { _ in "Moved" })
        }
        guard case .list(let list) = placement else { return }
        var changes = TaskChanges()
        changes.list = list
        context.change(selection, { .updateTasks($0, changes) }, verb: { _ in "Moved" }, asking: "Move")
    }
}
