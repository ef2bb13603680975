import CommandLineKit

/// One command of `tasks`, whole in one file: where it sits in the command tree (`spec`),
/// what it takes from the parsed line (`init`), what must hold between those values
/// (`validate()`), and what it does (`run`). `CommandRegistry.commands` lists every one; the
/// tree — parsing, help, "did you mean", completion scripts, the manual page — is built from
/// their specs. The shape is swift-argument-parser's `ParsableCommand` (configuration,
/// validate, run); the parser underneath is our own, whose speed is measured.
///
/// Nothing before `run` touches the database: a command line that `init` or `validate()`
/// refuses is status 2 with the file as it was.
protocol TasksCommand: SendableMetatype {
    /// Its name, aliases, help, arguments and options.
    static var spec: CommandSpec { get }
    /// Whether it changes tasks: only then does a failure say "nothing was changed".
    static var changesTasks: Bool { get }
    /// The command, read from the parsed line: each value converted and checked (a malformed
    /// id, date or choice is a usage error); stdin read where `-` asks for it.
    init(_ line: ParsedLine) throws
    /// What must hold between the values read (`--all` with `--done`, a terminal for `ui`).
    func validate() throws
    /// What it prints without opening the database (help, a completion script), or `nil`.
    var standaloneOutput: String? { get }
    /// Sends its actions to the reactors, with its view bound to print their state.
    func run(_ context: CommandContext)
}

extension TasksCommand {
    func validate() throws {}
    var standaloneOutput: String? { nil }
    func run(_ context: CommandContext) {}
}

/// Every command, in the order `tasks help` lists them, with its name and aliases — the
/// parser matches a word against these without building any spec, then builds the one named
/// (`CommandRegistry.entries`); a test checks that each matches its spec. A new command is a
/// file under `Commands/` and a line here.
enum CommandRegistry {
    /// A command's names beside its type. A struct, not a tuple: a tuple's type metadata is
    /// made at run time, in every process (a twentieth of `tasks --version`'s instructions).
    struct Named: Sendable {
        let name: String
        let aliases: [String]
        let type: any TasksCommand.Type
    }

    static let named: [Named] = [
        Named(name: "list", aliases: ["ls"], type: ListCommand.self),
        Named(name: "next", aliases: [], type: NextCommand.self),
        Named(name: "count", aliases: [], type: CountCommand.self),
        Named(name: "add", aliases: [], type: AddCommand.self),
        Named(name: "log", aliases: [], type: LogCommand.self),
        Named(name: "toggle", aliases: [], type: ToggleCommand.self),
        Named(name: "done", aliases: [], type: DoneCommand.self),
        Named(name: "reopen", aliases: [], type: ReopenCommand.self),
        Named(name: "start", aliases: [], type: StartCommand.self),
        Named(name: "stop", aliases: [], type: StopCommand.self),
        Named(name: "active", aliases: [], type: ActiveCommand.self),
        Named(name: "edit", aliases: [], type: EditCommand.self),
        Named(name: "modify", aliases: ["mod"], type: ModifyCommand.self),
        Named(name: "append", aliases: [], type: AppendCommand.self),
        Named(name: "prepend", aliases: [], type: PrependCommand.self),
        Named(name: "annotate", aliases: [], type: AnnotateCommand.self),
        Named(name: "denotate", aliases: [], type: DenotateCommand.self),
        Named(name: "duplicate", aliases: [], type: DuplicateCommand.self),
        Named(name: "show", aliases: [], type: ShowCommand.self),
        Named(name: "delete", aliases: ["rm"], type: DeleteCommand.self),
        Named(name: "undelete", aliases: [], type: UndeleteCommand.self),
        Named(name: "purge", aliases: [], type: PurgeCommand.self),
        Named(name: "move", aliases: ["mv"], type: MoveCommand.self),
        Named(name: "lists", aliases: [], type: ListsCommand.self),
        Named(name: "tags", aliases: [], type: TagsCommand.self),
        Named(name: "summary", aliases: [], type: SummaryCommand.self),
        Named(name: "stats", aliases: [], type: StatsCommand.self),
        Named(name: "burndown", aliases: [], type: BurndownCommand.self),
        Named(name: "ghistory", aliases: [], type: GHistoryCommand.self),
        Named(name: "calendar", aliases: [], type: CalendarCommand.self),
        Named(name: "timesheet", aliases: [], type: TimesheetCommand.self),
        Named(name: "ui", aliases: [], type: UICommand.self),
        Named(name: "undo", aliases: [], type: UndoCommand.self),
        Named(name: "redo", aliases: [], type: RedoCommand.self),
        Named(name: "history", aliases: [], type: HistoryCommand.self),
        Named(name: "report", aliases: [], type: ReportCommand.self),
        Named(name: "context", aliases: [], type: ContextCommand.self),
        Named(name: "config", aliases: [], type: ConfigCommand.self),
        Named(name: "hooks", aliases: [], type: HooksCommand.self),
        Named(name: "sync", aliases: [], type: SyncCommand.self),
        Named(name: "mcp", aliases: [], type: MCPCommand.self),
        Named(name: "date", aliases: [], type: DateCommand.self),
        Named(name: "export", aliases: [], type: ExportCommand.self),
        Named(name: "import", aliases: [], type: ImportCommand.self),
        Named(name: "completions", aliases: [], type: CompletionsCommand.self),
        Named(name: "help", aliases: [], type: HelpCommand.self),
    ]

    static var commands: [any TasksCommand.Type] { named.map { $0.type } }

    /// The root's subcommands, each spec built when the parser, help or a completion script
    /// asks for it.
    static let entries: [CommandSpec.Subcommand] = named.map { command in
        let type = command.type
        return CommandSpec.Subcommand(name: command.name, aliases: command.aliases) { type.spec }
    }

    /// The command called `name` (its name, not an alias: the parser has resolved those).
    static func command(named name: String) -> (any TasksCommand.Type)? {
        named.first { $0.name == name }?.type
    }
}
