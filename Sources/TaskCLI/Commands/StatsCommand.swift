import CommandLineKit
import TaskReactors

/// `tasks stats`: the whole file's counts, rates and averages, as `task stats` shows them.
struct StatsCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "stats", abstract: "Show counts, rates and averages of every task, as Taskwarrior's stats does.",
        discussion: """
            Pending (not waiting), waiting, repeating, completed and deleted tasks; annotations,
            unique tags and lists; blocked and blocking tasks; the file's size and the history's
            entries; the share of tasks tagged; the oldest and newest task; how often a task was
            added, completed and deleted; the average time a task was pending and its title's
            length. --format tsv gives KEY<TAB>VALUE lines (seconds, bytes), json one object.
            """
    )
    static let changesTasks = false

    init(_ line: ParsedLine) {}

    func run(_ context: CommandContext) {
        let state = TaskPicturesReactor(service: context.service).send(.loadStats)
        if let failure = state.failure { return context.status.fail(failure) }
        guard let stats = state.stats else { return }
        StatsView(context: context.view).write(stats)
    }
}
