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

/// Every command, in the order `tasks help` lists them. A new command is a file under
/// `Commands/` and a line here.
enum CommandRegistry {
    static let commands: [any TasksCommand.Type] = [
        ListCommand.self,
        NextCommand.self,
        CountCommand.self,
        AddCommand.self,
        LogCommand.self,
        ToggleCommand.self,
        DoneCommand.self,
        ReopenCommand.self,
        StartCommand.self,
        StopCommand.self,
        ActiveCommand.self,
        EditCommand.self,
        ModifyCommand.self,
        AppendCommand.self,
        PrependCommand.self,
        AnnotateCommand.self,
        DenotateCommand.self,
        DuplicateCommand.self,
        ShowCommand.self,
        DeleteCommand.self,
        MoveCommand.self,
        ListsCommand.self,
        TagsCommand.self,
        SummaryCommand.self,
        UICommand.self,
        UndoCommand.self,
        RedoCommand.self,
        HistoryCommand.self,
        ReportCommand.self,
        ContextCommand.self,
        ConfigCommand.self,
        SyncCommand.self,
        DateCommand.self,
        ExportCommand.self,
        ImportCommand.self,
        CompletionsCommand.self,
        HelpCommand.self,
    ]

    /// The command called `name` (its name, not an alias: the parser has resolved those).
    static func command(named name: String) -> (any TasksCommand.Type)? {
        commands.first { $0.spec.name == name }
    }
}
