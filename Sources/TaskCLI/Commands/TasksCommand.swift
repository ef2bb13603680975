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
    static let named: [(name: String, aliases: [String], type: any TasksCommand.Type)] = [
        (name: "list", aliases: ["ls"], type: ListCommand.self),
        (name: "next", aliases: [], type: NextCommand.self),
        (name: "count", aliases: [], type: CountCommand.self),
        (name: "add", aliases: [], type: AddCommand.self),
        (name: "log", aliases: [], type: LogCommand.self),
        (name: "toggle", aliases: [], type: ToggleCommand.self),
        (name: "done", aliases: [], type: DoneCommand.self),
        (name: "reopen", aliases: [], type: ReopenCommand.self),
        (name: "start", aliases: [], type: StartCommand.self),
        (name: "stop", aliases: [], type: StopCommand.self),
        (name: "active", aliases: [], type: ActiveCommand.self),
        (name: "edit", aliases: [], type: EditCommand.self),
        (name: "modify", aliases: ["mod"], type: ModifyCommand.self),
        (name: "append", aliases: [], type: AppendCommand.self),
        (name: "prepend", aliases: [], type: PrependCommand.self),
        (name: "annotate", aliases: [], type: AnnotateCommand.self),
        (name: "denotate", aliases: [], type: DenotateCommand.self),
        (name: "duplicate", aliases: [], type: DuplicateCommand.self),
        (name: "show", aliases: [], type: ShowCommand.self),
        (name: "delete", aliases: ["rm"], type: DeleteCommand.self),
        (name: "move", aliases: ["mv"], type: MoveCommand.self),
        (name: "lists", aliases: [], type: ListsCommand.self),
        (name: "tags", aliases: [], type: TagsCommand.self),
        (name: "summary", aliases: [], type: SummaryCommand.self),
        (name: "ui", aliases: [], type: UICommand.self),
        (name: "undo", aliases: [], type: UndoCommand.self),
        (name: "redo", aliases: [], type: RedoCommand.self),
        (name: "history", aliases: [], type: HistoryCommand.self),
        (name: "report", aliases: [], type: ReportCommand.self),
        (name: "context", aliases: [], type: ContextCommand.self),
        (name: "config", aliases: [], type: ConfigCommand.self),
        (name: "sync", aliases: [], type: SyncCommand.self),
        (name: "date", aliases: [], type: DateCommand.self),
        (name: "export", aliases: [], type: ExportCommand.self),
        (name: "import", aliases: [], type: ImportCommand.self),
        (name: "completions", aliases: [], type: CompletionsCommand.self),
        (name: "help", aliases: [], type: HelpCommand.self),
    ]

    static var commands: [any TasksCommand.Type] { named.map(\.type) }

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
