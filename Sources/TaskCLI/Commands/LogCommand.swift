import CommandLineKit

/// `tasks log TITLE…`: tasks added done, for the record (Taskwarrior's `log`).
struct LogCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "log", abstract: "Add a task that is done already (its words are its title), or one per line of stdin with '-'.",
        discussion: "As 'add', in one transaction, each done as it is added; a repeating task cannot be logged.",
        arguments: AddCommand.spec.arguments,
        options: AddCommand.spec.options
    )
    static let changesTasks = true

    var add: AddCommand

    init(_ line: ParsedLine) throws {
        add = try AddCommand(line)
        if add.fields.repeatRule != nil { throw CLIError.usage("a repeating task cannot be logged (it would be done before it began); add it, then 'tasks done' it") }
        add.logged = true
    }

    func run(_ context: CommandContext) { add.run(context) }
}

/// `tasks duplicate ID [MODIFICATIONS…]`: a new task with the fields of another (not done, in
/// no series of its own's: a repeating one starts a series of its own), changed as `add`'s
/// words and the field flags say.
struct DuplicateCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "duplicate", abstract: "Add a copy of a task, with its fields; modifications and field flags change the copy.",
        discussion: """
            The copy is pending, at the bottom of its list, and is not part of the original's series.
            tasks duplicate 12 due:fri +copy -later     (other words are the copy's title)
            """,
        arguments: [TasksSpec.idArgument, ArgumentSpec("MODIFICATIONS", help: "add's words: +tag, -tag, due:fri, project:Home, …", variadic: true, optional: true,
                                                                filter: true)],
        options: TasksSpec.editOptions.filter { $0.long != Option.title.long }
    )
    static let changesTasks = true

    let task: TaskRef
    var fields: FieldFlags

    init(_ line: ParsedLine) throws {
        fields = try line.fieldFlags(titled: false)
        task = try TaskRef(try line.requiredArgument)
        let words = Array(line.arguments.dropFirst())
        if !words.isEmpty {
            let vocabulary = try line.configuration().vocabulary
            if let title = try AddWords.read(words, into: &fields, vocabulary: vocabulary, dates: try line.dates(), removingTags: true) {
                fields.title = title
            }
        }
    }

    func run(_ context: CommandContext) {
        guard let id = task.id(context) else { return }
        let reactor = context.editReactor()
        let view = AddView(context: context.view, titles: (1, "title"), verb: "Duplicated")
        view.reactor = reactor
        reactor.action.onNext(.copy(id))
        guard reactor.currentState.failure == nil else { return }
        context.send(fields, to: reactor)
        reactor.action.onNext(.submitTitles([fields.title ?? reactor.currentState.fields.title]))
    }
}

/// `tasks append ID TEXT…` and `tasks prepend ID TEXT…`: words added to the end or the start
/// of a task's title; modifications among them (`+tag`, `due:fri`) change its fields, as in
/// Taskwarrior.
struct AppendCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "append", abstract: "Add words to the end of a task's title; modifications among them change its fields.",
        discussion: "tasks append 12 and the receipt +bills due:fri     (+tag, -tag, name:value as add reads them)",
        arguments: [TasksSpec.idArgument, ArgumentSpec("TEXT", help: "The words to add, and add's modifications.", variadic: true, filter: true)]
    )
    static let changesTasks = true

    let task: TaskRef
    let text: String
    var atStart = false
    var fields = FieldFlags()

    init(_ line: ParsedLine) throws {
        task = try TaskRef(try line.requiredArgument)
        let words = Array(line.arguments.dropFirst())
        let vocabulary = try line.configuration().vocabulary
        text = try AddWords.read(words, into: &fields, vocabulary: vocabulary, dates: try line.dates(), removingTags: true) ?? ""
        if text.allSatisfy({ $0 == " " || $0 == "\t" }) && fields.isEmpty { throw CLIError.usage("give the words to add to the title") }
    }

    func run(_ context: CommandContext) {
        guard let id = task.id(context) else { return }
        context.edit(id, fields: fields) { task in
            text.isEmpty ? [] : [.updateTitle(atStart ? text + " " + task.title : task.title + " " + text)]
        }
    }
}

/// `tasks prepend ID TEXT…`.
struct PrependCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "prepend", abstract: "Add words to the start of a task's title.",
        arguments: AppendCommand.spec.arguments
    )
    static let changesTasks = true

    var append: AppendCommand

    init(_ line: ParsedLine) throws {
        append = try AppendCommand(line)
        append.atStart = true
    }

    func run(_ context: CommandContext) { append.run(context) }
}
