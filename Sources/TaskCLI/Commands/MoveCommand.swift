import CommandLineKit
import TaskModel
import TaskReactors

/// `tasks move ID`: one task to another place in its list, or to the bottom of another list.
struct MoveCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "move", aliases: ["mv"], abstract: "Reorder a task, or move it to another list.",
        discussion: "Give exactly one of --before, --after, --top, --bottom and --list.",
        arguments: [TasksSpec.idArgument],
        options: [Option.before, Option.after, Option.top, Option.bottom, Option.toList]
    )
    static let changesTasks = true

    let id: Int64
    let placements: [TaskPlacement]

    init(_ line: ParsedLine) throws {
        id = try IDParser.id(line.requiredArgument)
        var placements: [TaskPlacement] = []
        if let text = line.value(Option.before) { placements.append(.before(try IDParser.id(text))) }
        if let text = line.value(Option.after) { placements.append(.after(try IDParser.id(text))) }
        if line.has(Option.top) { placements.append(.top) }
        if line.has(Option.bottom) { placements.append(.bottom) }
        if let list = line.value(Option.toList) { placements.append(.list(try FieldRules.list(list))) }
        self.placements = placements
    }

    func validate() throws {
        guard placements.count == 1 else {
            throw CLIError.usage(placements.isEmpty ? "'move' needs where to: --before ID, --after ID, --top, --bottom or --list LIST"
                                                    : "'move' takes one of --before, --after, --top, --bottom and --list")
        }
    }

    func run(_ context: CommandContext) {
        guard let placement = placements.first else { return }
        context.change(false, .moveTask(id, to: placement), verb: { _ in "Moved" })
    }
}
