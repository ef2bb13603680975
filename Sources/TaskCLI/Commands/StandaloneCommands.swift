import CommandLineKit

/// `tasks completions SHELL`: a completion script, printed without the database.
struct CompletionsCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "completions", abstract: "Print a completion script for bash, zsh or fish.",
        discussion: """
            bash:  source <(tasks completions bash)       (or save it in
                   ~/.local/share/bash-completion/completions/tasks)
            zsh:   tasks completions zsh > ~/.zfunc/_tasks   (with ~/.zfunc in $fpath,
                   before compinit)
            fish:  tasks completions fish > ~/.config/fish/completions/tasks.fish
            Ids, list names and tags are completed from the database.
            """,
        arguments: [ArgumentSpec("SHELL", help: "bash, zsh or fish.", completion: .choices(Shell.self))]
    )
    static let changesTasks = false

    /// The shells `tasks completions` writes for.
    enum Shell: String, OptionChoice {
        case bash, zsh, fish
        static var noun: String { "a shell tasks completes in" }
    }

    let shell: Shell

    init(_ line: ParsedLine) throws { shell = try ParsedLine.choice(line.requiredArgument, Shell.self) }

    var standaloneOutput: String? {
        let script = CompletionScript(root: TasksSpec.root, forwarding: [Option.db.long])
        switch shell {
        case .bash: return script.bash()
        case .zsh: return script.zsh()
        case .fish: return script.fish()
        }
    }
}

/// `tasks help [COMMAND]` (and `--help` anywhere): the help of the program or of a command.
struct HelpCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "help", abstract: "Show the help of tasks or of a command.",
        arguments: [ArgumentSpec("COMMAND", help: "The command.", optional: true, completion: .subcommands)]
    )
    static let changesTasks = false

    /// The command whose help it is (empty: the program's).
    let path: [String]

    init(path: [String]) { self.path = path }

    init(_ line: ParsedLine) throws {
        guard let topic = line.arguments.first else {
            path = []
            return
        }
        let root = TasksSpec.root
        guard let command = root.subcommand(named: topic) else {
            let names = root.subcommands.map { $0.name }
            throw UsageError.unknownCommand(topic, suggestion: Suggestion.closest(to: topic, among: names), among: names)
        }
        path = [command.name]
    }

    var standaloneOutput: String? { HelpFormatter(root: TasksSpec.root).help(for: path) }
}

/// `tasks --version`: the root's flag, not a subcommand, so it is not in the registry; its
/// entry of the tree is the root's own.
struct VersionCommand: TasksCommand {
    static var spec: CommandSpec { TasksSpec.root }
    static let changesTasks = false

    init(_ line: ParsedLine) {}

    var standaloneOutput: String? { "tasks \(TasksSpec.version)\n" }
}
