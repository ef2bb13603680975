import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// `tasks start ID…` and `tasks stop ID…`: each task active from now, or stopped with the time
/// since its start added to its time spent; all in one change (one undo).
struct StartCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "start", abstract: "Start working on tasks: active from now (TASKS_ONE_ACTIVE=1 stops the others).",
        discussion: """
            A started task counts its time until 'tasks stop' or 'tasks done'; 'tasks active' lists what runs.
            tasks start 12 on the draft +writing    modifications after the ids, as 'done' takes them
            """,
        arguments: TasksSpec.selectionArguments,
        options: TasksSpec.selectionOptions
    )
    static let changesTasks = true

    let selection: Selection
    let changes: TaskChanges
    var starts = true

    init(_ line: ParsedLine) throws {
        let read = try SelectionModifications(line)
        selection = read.selection
        changes = read.changes
    }

    func run(_ context: CommandContext) {
        let alone = starts && ActivitySettings.oneActive(context.invocation.environment)
        context.change(selection, { [changes, starts] in .setActive($0, starts, alone: alone, changing: changes) },
                       verb: { $0.isActive ? "Started" : "Stopped" }, asking: starts ? "Start" : "Stop")
    }
}

/// `tasks stop ID…`.
struct StopCommand: TasksCommand {
    static let spec = CommandSpec(name: "stop", abstract: "Stop working on tasks: the time since their start is added to their time spent.",
                                  arguments: TasksSpec.selectionArguments, options: TasksSpec.selectionOptions)
    static let changesTasks = true

    var start: StartCommand

    init(_ line: ParsedLine) throws {
        start = try StartCommand(line)
        start.starts = false
    }

    func run(_ context: CommandContext) { start.run(context) }
}

/// `TASKS_ONE_ACTIVE`: `1` (or `yes`, `true`) makes a start stop every other active task.
enum ActivitySettings {
    static func oneActive(_ environment: [String: String]) -> Bool {
        ["1", "yes", "true", "on"].contains((environment["TASKS_ONE_ACTIVE"] ?? "").lowercased())
    }
}

/// `tasks active`: the tasks being worked on, the longest running first, with how long.
struct ActiveCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "active", abstract: "List the started tasks: since when, for how long, and the time spent in all.",
        discussion: "In a pipe: id, title, start (ISO 8601), seconds running, seconds spent in all, one task per line."
    )
    static let changesTasks = false

    var query = TaskQuery(grouping: .none)

    init(_ line: ParsedLine) throws {
        query.active = true
        query.sort = .started
    }

    func run(_ context: CommandContext) {
        let reactor = TaskListReactor(service: context.service)
        let view = ActiveView(context: context.view, now: context.invocation.now)
        view.reactor = reactor
        reactor.action.onNext(.stream(query, batch: 1_000, totals: .none, fields: .all))
    }
}

/// `tasks annotate ID TEXT…`: a line added to the task now, apart from its notes.
struct AnnotateCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "annotate", abstract: "Add a line to a task, stamped with the time (kept apart from its notes).",
        discussion: """
            tasks annotate 3 called, will ring back
            tasks annotate '+bills due.before:eow' paid by card    every task the filter
                chooses (the filter quoted as one word), in one change and one undo
            tasks 12 annotate called them +phone    add's modifications among the words
                change the tasks too (+tag, -tag, project:, due:, …)
            """,
        arguments: [ArgumentSpec("ID|FILTER", help: "A task's id, ids (1-3,5), or filter words quoted as one word.", completion: Completion.ids),
                    ArgumentSpec("TEXT", help: "The line to add, and add's modifications.", variadic: true, filter: true)],
        options: TasksSpec.selectionOptions
    )
    static let changesTasks = true

    let selection: Selection
    let changes: TaskChanges

    /// The words after the selection are the annotation, with `add`'s modifications among them
    /// (`tasks 12 annotate called them +phone`), as Taskwarrior's `annotate` reads them.
    init(_ line: ParsedLine) throws {
        var fields = FieldFlags()
        let dates = try line.dates()
        let configuration = try line.configuration()
        let words = Array(line.arguments.dropFirst())
        let text = words.isEmpty ? nil
            : try AddWords.read(words, into: &fields, vocabulary: configuration.vocabulary, dates: dates, removingTags: true)
        guard let text, !text.trimmingWhitespace.isEmpty else { throw CLIError.usage("give the text of the annotation") }
        selection = try line.selectionWord()
        var changes = try BulkChanges.of(fields, dates: dates)
        changes.annotate = [text.trimmingWhitespace]
        self.changes = changes
    }

    func run(_ context: CommandContext) {
        if selection.query == nil, selection.ids.count == 1, let id = selection.ids.first {
            return context.change(false, .update(id, changes), verb: { _ in "Annotated" })
        }
        context.change(selection, { .updateTasks($0, changes) }, verb: { _ in "Annotated" }, asking: "Annotate")
    }
}

/// `tasks denotate ID TEXT|N`: the annotation with that text (or the only one containing it),
/// or the Nth, removed.
struct DenotateCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "denotate", abstract: "Remove an annotation: by its text, a part only it has, or its number (from 1, as 'show' lists them).",
        arguments: [TasksSpec.idArgument, ArgumentSpec("TEXT|N", help: "The annotation's text, or its number.", variadic: true)]
    )
    static let changesTasks = true

    let task: TaskRef
    let pick: AnnotationPick

    init(_ line: ParsedLine) throws {
        task = try TaskRef(try line.requiredArgument)
        let text = line.arguments.dropFirst().joined(separator: " ").trimmingWhitespace
        if text.isEmpty { throw CLIError.usage("give the annotation's text or number") }
        if let number = Int(text) {
            guard number >= 1 else { throw CLIError.usage("annotations are numbered from 1") }
            pick = .number(number)
        } else {
            pick = .text(text)
        }
    }

    func run(_ context: CommandContext) {
        var changes = TaskChanges()
        changes.denotate = [pick]
        guard let id = task.id(context) else { return }
        context.change(false, .update(id, changes), verb: { _ in "Denotated" })
    }
}
