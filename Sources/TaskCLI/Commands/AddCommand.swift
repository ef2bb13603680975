import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// `tasks add TITLE…` and `tasks add -`: new tasks, one per title or per line of stdin, all
/// in one transaction.
struct AddCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "add", abstract: "Add a task (its words are its title), or one per line of stdin with '-'.",
        discussion: """
            The words are one title; modifiers among them set fields, as in Taskwarrior:
            tasks add Buy oat milk +errand list:Home due:eow priority:H
            (+tag, list: or project:, due:, wait:, scheduled:, until:, priority:, every:,
            after:, and custom fields by name). A quoted word is title text as it is.
            With '-', each line of stdin is a title (taken as it is) and every line is
            added in one transaction: a bad one stops the whole batch, named by its line,
            and nothing is added. In a pipe or file the new ids are printed, one per line:
            id=$(tasks add "Buy milk"). The active context's defaults apply to new tasks.
            """,
        arguments: [ArgumentSpec("TITLE", help: "The title's words and modifiers, or '-' to read titles from stdin.", variadic: true)],
        options: TasksSpec.fieldOptions + [Option.context]
    )
    static let changesTasks = true

    /// Where the titles come from.
    enum Titles {
        /// As arguments, or every line of stdin read already (`fromStdin`).
        case given([String], fromStdin: Bool)
        /// `add -`: stdin's lines, read as the tasks are written (the first line is read and
        /// checked already: bad input there never opens the database).
        case lines(LineReader)
    }

    let titles: Titles
    let fields: FieldFlags
    /// `tasks log`: the tasks are added done.
    var logged = false
    /// The active context's name, filter text and filter: a new task outside it is said to be.
    var context: (name: String, text: String, filter: TaskFilter)?

    init(_ line: ParsedLine) throws {
        var fields = try line.fieldFlags(titled: false)
        if let removed = fields.removeTags.first {
            throw CLIError.usage("'--tag -\(removed)' removes a tag, and a new task has none; use --tag \(removed)")
        }
        let configuration = try line.configuration()
        let dates = try line.dates()
        var given: [String]?
        if !line.arguments.contains("-") {
            guard let title = try AddWords.read(line.arguments, into: &fields, vocabulary: configuration.vocabulary, dates: dates) else {
                throw CLIError.usage("the words are only modifiers (\(line.arguments.joined(separator: " "))); give the task a title")
            }
            given = [title]
        }
        // The context's defaults (declared, or derived from its filter), then the
        // configuration's list, under what the command says.
        if let context = try ContextChoice.of(line).definition(in: configuration), !context.filter.trimmingWhitespace.isEmpty || !context.defaults.isEmpty {
            var defaults = FieldFlags()
            if !context.defaults.trimmingWhitespace.isEmpty {
                do throws(FilterError) { _ = try FilterParser.words(of: context.defaults) } catch {
                    throw CLIError.usage("context \(context.name): defaults: \(error.reason)")
                }
            }
            let words = context.writeWords(configuration.vocabulary)
            if try AddWords.read(words, into: &defaults, vocabulary: configuration.vocabulary, dates: dates,
                                 source: "context \(context.name): defaults: ") != nil {
                throw CLIError.usage("context \(context.name): defaults '\(context.defaults)' hold more than modifiers (list:NAME, +tag, priority:H, …)")
            }
            fields.adopt(defaults)
            if let filter = try FilterInput.parse(text: context.filter, try line.filterSettings(configuration),
                                                  source: "the filter of context \(context.name): ") {
                self.context = (context.name, context.filter.trimmingWhitespace, filter)
            }
        }
        if fields.list == nil, let list = configuration.defaultList { fields.list = list }
        self.fields = fields
        if let given {
            titles = .given(given, fromStdin: false)
            return
        }
        guard line.arguments == ["-"] else { throw CLIError.usage("'-' (titles from stdin) cannot be mixed with titles as arguments") }
        let lines = LineReader(input: line.invocation.stdin)
        let first: String?
        do throws(TaskFieldError) {
            first = try lines.peek()
        } catch {
            throw CLIError.usage("line 1: \(error); nothing was added")
        }
        guard first != nil else { throw CLIError.usage("no titles on stdin; give one title per line") }
        // The new tasks as records (`--format tsv`) are printed from the tasks themselves, and
        // `--blocked-by` and `--blocks` are set task by task as each is made (and checked for
        // cycles): then every line is read first, and the tasks are held.
        guard line.has(Option.format) || !fields.dependencies.isEmpty else {
            titles = .lines(lines)
            return
        }
        var read: [String] = []
        do throws(TaskFieldError) {
            while let title = try lines.next() { read.append(title) }
        } catch {
            throw CLIError.usage("line \(read.count + 1): \(error); nothing was added")
        }
        titles = .given(read, fromStdin: true)
    }

    func run(_ context: CommandContext) {
        let reactor = context.editReactor()
        let verb = logged ? "Logged" : "Added"
        if logged { reactor.action.onNext(.updateDone(true)) }
        switch titles {
        case .given(let titles, let fromStdin):
            let view = AddView(context: context.view, titles: (titles.count, fromStdin ? "line" : "title"), verb: verb)
            view.reactor = reactor
            context.send(fields, to: reactor)
            reactor.action.onNext(.submitTitles(titles))
            warnOutsideContext(reactor.currentState.savedAll, context)
        case .lines(let lines):
            let view = AddView(context: context.view, titles: (Int.max, "line"), verb: verb)
            view.reactor = reactor
            context.send(fields, to: reactor)
            reactor.action.onNext(.submitLines(lines.next))
        }
    }

    /// A task added under a context that its filter does not show (a `+tag` or `or` the
    /// defaults cannot give): said on stderr, so that it does not seem to vanish.
    private func warnOutsideContext(_ tasks: [Task], _ run: CommandContext) {
        guard let context, !tasks.isEmpty else { return }
        let today = run.invocation.today()
        let clock = FilterClock(today: today, reading: TaskDate.reading(run.invocation.now(), in: run.invocation.localTime, today: today))
        let outside = tasks.filter { !context.filter.matches($0, clock: clock) }
        guard !outside.isEmpty else { return }
        let ids = outside.prefix(5).map { String($0.id) }.joined(separator: ", ") + (outside.count > 5 ? ", …" : "")
        run.console.stderr.write(run.console.shown("note: \(outside.count == 1 ? "task" : "tasks") \(ids) \(outside.count == 1 ? "is" : "are") outside context \(context.name) (\(context.text)): give its fields (or define the context's --defaults) to keep new tasks in it; 'tasks --context none' lists every task") + "\n")
    }
}
