import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors
import TextFormats

/// `tasks completions SHELL`: a completion script, printed without the database (`words`:
/// the filter words the scripts complete, with the database's tags and lists).
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
            'tasks completions words' prints what a filter's words complete from, one per
            line (what the scripts call): fields and modifiers, virtual tags, the database's
            tags as +tag and lists as list:NAME.
            """,
        arguments: [ArgumentSpec("SHELL", help: "bash, zsh or fish (or words).", completion: .choices(Shell.self))]
    )
    static let changesTasks = false

    /// The shells `tasks completions` writes for, and the filter words the scripts ask for.
    enum Shell: String, OptionChoice {
        case bash, zsh, fish, words
        static var noun: String { "a shell tasks completes in" }
    }

    let shell: Shell
    /// The fields filters name: the configuration's custom fields too.
    let vocabulary: FieldVocabulary

    init(_ line: ParsedLine) throws {
        shell = try ParsedLine.choice(line.requiredArgument, Shell.self)
        vocabulary = shell == .words ? (try? line.configuration().vocabulary) ?? .builtIn : .builtIn
    }

    /// The words of a filter that need no database: each field the vocabulary filters on with
    /// `:` and each comparison its type takes (not the id and uuid, which are typed as
    /// themselves), `limit:`, the virtual tags, the operators.
    static func filterWords(_ vocabulary: FieldVocabulary) -> [String] {
        var words: [String] = []
        for field in vocabulary.fields(.filter) where field.type != .id && field.type != .uuid {
            words.append(field.name + ":")
            for modifier in field.type.modifiers { words.append(field.name + "." + modifier + ":") }
        }
        words.append("limit:")
        for tag in FilterParser.virtualTags { words.append("+" + tag) }
        return words + ["and", "or", "not", "xor"]
    }

    func run(_ context: CommandContext) {
        guard shell == .words else { return }
        let reactor = TaskListReactor(service: context.service)
        let tags = reactor.send(.loadTags).tags ?? []
        let lists = reactor.send(.loadLists).lists ?? []
        if let failure = reactor.currentState.failure { return context.status.fail(failure) }
        let words = Self.filterWords(vocabulary) + tags.map { "+" + $0.name } + lists.map { "list:" + $0.name }
        context.console.stdout.write(words.map { TerminalText.escapingControls($0) + "\n" }.joined())
    }

    var standaloneOutput: String? {
        let script = CompletionScript(root: TasksSpec.root, forwarding: [Option.db.long])
        switch shell {
        case .words: return nil
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
    /// A topic that is not a command (`filters`).
    var topic: String?

    init(path: [String]) { self.path = path }

    init(_ line: ParsedLine) throws {
        guard let topic = line.arguments.first else {
            path = []
            return
        }
        if topic == "filters" || topic == "filter" {
            path = []
            self.topic = FilterHelp.text
            return
        }
        let root = TasksSpec.root
        guard let command = root.subcommand(named: topic) else {
            let names = root.subcommands.map { $0.name }
            throw UsageError.unknownCommand(topic, suggestion: Suggestion.closest(to: topic, among: names), among: names)
        }
        path = [command.name]
    }

    var standaloneOutput: String? { topic ?? HelpFormatter(root: TasksSpec.root).help(for: path) }
}

/// `tasks --version`: the root's flag, not a subcommand, so it is not in the registry; its
/// entry of the tree is the root's own.
struct VersionCommand: TasksCommand {
    static var spec: CommandSpec { TasksSpec.root }
    static let changesTasks = false

    init(_ line: ParsedLine) {}

    var standaloneOutput: String? { "tasks \(TasksSpec.version)\n" }
}

/// `tasks help filters`: the filter grammar in one screen (docs/cli.md, "Filters", has it all).
enum FilterHelp {
    static let text = """
        FILTERS: the words of list, next, count, ui, modify, done, delete, start, stop …

          milk "oat milk"       title or notes contain it (any case); a quoted phrase is one word
          /^buy .*milk$/        a regular expression over the title or the notes
          +bills -later         has the tag, has not the tag
          list:Work             Work and the lists under it (Work.Q4); list.is:Work only Work
          priority:H            also priority: (none), priority.not:H, priority.above:L
          due:today             due.before:eow  due.after:mon  due.by:fri  due: (none)  due.any:
                                the same for wait, scheduled, until, completed, created,
                                modified, start and date custom fields; dates as in 'tasks help date'
          status:pending        done, waiting, expired; deleted (only it reads deleted tasks)
          title.contains:x      title.startswith:x  title.endswith:x  title.is:x  notes.contains:x
          NAME:VALUE            a custom field (uda.NAME.type): NAME.before:, NAME.contains: …
          3  1-3,5  01a23702    ids, ranges of ids, a uuid or its first 8 or more hex digits
          +OVERDUE +YESTERDAY +TODAY +TOMORROW +DUE +WEEK +MONTH +QUARTER +YEAR +ACTIVE
          +BLOCKED +UNBLOCKED +BLOCKING +READY +WAITING +EXPIRED +REPEATING +INSTANCE
          +TEMPLATE +ANNOTATED +TAGGED +SCHEDULED +UNTIL +PROJECT +PRIORITY +UDA +ORPHAN
          +LATEST +PENDING +DONE +DELETED   (-NAME: not; Taskwarrior's set: docs/cli.md, Filters)
          and  or  xor  not  ( )   words side by side are ANDed; and binds tighter than or
          limit:N               at most N rows

        Modifiers: is (equals), not (isnt), before (below, under), after (above, over), by
        (on or before), none, any, contains (has), hasnt, startswith, endswith — as the
        field's type takes them: text is not contains startswith endswith none any; dates,
        priorities, numbers is not before after by none any; tags is not contains hasnt
        none any. A name shortens to 2 letters (abbreviation.minimum) where one field starts so (du:fri, pri:H), in filters,
        --sort, --columns and add's and modify's words alike.
        Taskwarrior's order: tasks FILTER COMMAND — every word before the command is the
        filter; after modify, done, start, stop and annotate the words modify as add's
        do (tasks +bills modify priority:H -later; tasks 12 done called them +phone: the
        other words are an annotation). In our order (tasks done 12 …) the ids in front,
        or one word of filter words quoted, choose and the words after them modify.
        A word name:value whose name or modifier is unknown, a bad date or an unbalanced
        parenthesis is refused (status 2) with the word and its place. The words of one
        command are one group: a context's filter (tasks help context) is ANDed with it.
        Without a status or ids in it, a filter chooses among pending tasks that are not
        waiting; reopen chooses among done ones. --explain prints how the words were read.

        """
}
