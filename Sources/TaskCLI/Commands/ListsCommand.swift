import CommandLineKit
import TaskReactors

/// `tasks lists`: each list with its pending and done counts, a list's counts taking in the
/// lists under it (`Home` holds `Home.Travel`).
struct ListsCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "lists", abstract: "Show the lists with their pending and done counts.",
        discussion: """
            A list named with dots is a hierarchy: Home.Travel is under Home. In a table each
            list's counts take in the lists under it, indented beneath it; tsv, csv and json
            give each list's own counts, then the counts with the lists under it.
            """
    )
    static let changesTasks = false

    init(_ line: ParsedLine) {}

    func run(_ context: CommandContext) { ListsView.show(.lists, in: context) }
}

/// `tasks summary`: per list (rolled up as in `lists`), pending, done and the percent done.
struct SummaryCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "summary", abstract: "Show each list's pending and done tasks and how much of it is done.",
        discussion: "Each list's counts take in the lists under it (Home holds Home.Travel); the last line is every list."
    )
    static let changesTasks = false

    init(_ line: ParsedLine) {}

    func run(_ context: CommandContext) { ListsView.show(.summary, in: context) }
}

/// `tasks tags`: each tag with how many pending and done tasks carry it.
struct TagsCommand: TasksCommand {
    static let spec = CommandSpec(name: "tags", abstract: "Show the tags with how many pending and done tasks carry each.")
    static let changesTasks = false

    init(_ line: ParsedLine) {}

    func run(_ context: CommandContext) { ListsView.show(.tags, in: context) }
}
