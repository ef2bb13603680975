#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import QueryLanguage
import TaskModel
import TaskRemote
import TaskStore
import ReactorCore
import TaskUI
import TerminalKit

/// `tasks ui`: the list and editor screens, full screen, until `q` or a signal.
struct UICommand: TasksCommand {
    static let spec = CommandSpec(
        name: "ui", abstract: "Browse and change tasks on a full screen that follows every change.",
        discussion: """
            The list of 'tasks list', on the terminal's whole screen, with a cursor:
            j/k move, :42 goes to task 42, i or Enter opens the details pane (every
            field, notes, annotations, history; Ctrl-D/Ctrl-U scroll it), space toggles,
            a adds, e edits,
            d deletes (after asking); p sets the priority, D the due date, w the
            wait, t the tags, A annotates, b starts or stops, m moves to another list,
            J/K move a task in its list. v marks a task, V a range, * all shown: with
            marks every change key acts on all of them as one command (one u). / filters
            as you type (the grammar of 'tasks list': +tag list:Work due.before:fri milk),
            f shows the next report (pending, next, waiting, active, blocked,
            completed, all), @ chooses a context (Tab cycles them), s the next sort,
            u/Ctrl-R undo and redo (an undo of a change made elsewhere names it and asks),
            Ctrl-L redraws, Ctrl-Z suspends, q quits; ? shows the keys. Changes made elsewhere
            (another terminal, a script) appear as they are committed. Takes the
            filters of 'tasks list'.
            Needs a terminal on stdin and stdout (status 2 otherwise, or with TERM=dumb).
            A file named by --db or TASKS_DB that does not exist is not made (a mistyped
            path, status 1) unless --create asks; the default file is made as by 'add'.
            """,
        arguments: [TasksSpec.filterArgument],
        options: TasksSpec.listingOptions.filter { $0 != Option.explainFilter } + [Option.create]
    )
    static let changesTasks = true

    let query: TaskQuery
    let invocation: Invocation
    /// The custom fields `/`'s filter words may name, and the week's start.
    let settings: FilterSettings
    /// What `f` and `@` choose among: the built-in reports the screen shows, the contexts.
    let queries: ScreenQueries
    /// The file was named (`--db`, `TASKS_DB`) and `--create` was not given: a missing one is
    /// a mistyped path, not a file to make.
    let mustExist: Bool

    init(_ line: ParsedLine) throws {
        query = try line.query()
        invocation = line.invocation
        let named = line.has(Option.db) || !(line.invocation.environment["TASKS_DB"] ?? "").isEmpty
        mustExist = named && !line.has(Option.create)
        let configuration = try line.configuration()
        settings = try line.filterSettings(configuration)
        var queries = ScreenQueries(reports: UICommand.reports, contexts: configuration.contexts.keys.sorted(), context: ContextChoice.of(line).name) { report, context in
            do {
                return .success(try UICommand.query(report, in: context, line: line))
            } catch {
                return .failure(ScreenQueries.QueryRefusal(ErrorPresenter.present(error).message))
            }
        }
        queries.commandLine = UICommand.filterWords(line.invocation.arguments)
        self.queries = queries
    }

    /// The words of the command line that choose tasks (`+bills --waiting`), for the status
    /// line: `ui` and the options that choose no task (the file, colour, configuration,
    /// context — which the status line names apart) left out; a word with a space quoted.
    static func filterWords(_ arguments: [String]) -> String {
        let withValue: Set<String> = ["--db", "--color", "-c", "--config", "--context", "-f", "--format"]
        let alone: Set<String> = ["-q", "--quiet", "ui", "--header"]
        var words: [String] = []
        var skipNext = false
        var sawCommand = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if withValue.contains(argument) { skipNext = true; continue }
            if withValue.contains(where: { argument.hasPrefix($0 + "=") }) { continue }
            if argument == "ui" && !sawCommand { sawCommand = true; continue }
            if alone.contains(argument) && argument != "ui" { continue }
            words.append(argument.contains(" ") || argument.isEmpty ? "'" + argument + "'" : argument)
        }
        return words.joined(separator: " ")
    }

    /// The reports `f` cycles through (`list` is the pending tasks by list).
    static let reports = ["list", "next", "waiting", "active", "blocked", "completed", "all"]

    /// The query of `report` in `context`, with the command line's words and flags.
    static func query(_ name: String, in context: String?, line: ParsedLine) throws -> TaskQuery {
        let choice = ContextChoice(name: context, source: "@")
        var query: TaskQuery
        switch name {
        case "list":
            query = try line.query(context: choice)
        case "next":
            query = try line.query(context: choice)
            query.sort = .rank
            query.grouping = .none
            query.rankWeights = try line.configuration().rankWeights
        case "active":
            query = try line.query(report: Report(name: "active", description: "", filter: "+ACTIVE", sort: .started, grouping: .none), context: choice)
        default:
            guard let report = try Report.named(name, in: try line.configuration()) else { throw CLIError.usage("no report '\(name)'") }
            query = try line.query(report: report, context: choice)
        }
        query.limit = nil  // the screen pages through every row
        return query
    }

    func validate() throws {
        if let reason = Terminal.unusableReason(inputIsTerminal: invocation.stdin.isTerminal, outputIsTerminal: invocation.terminal.stdoutIsTerminal,
                                                term: invocation.environment["TERM"]) {
            throw CLIError.usage("'tasks ui' needs a terminal: \(reason)", hint: "'tasks list' prints the same tasks")
        }
    }

    /// The database opened (created when missing: a screen that stays open adds to a real
    /// file), then the screens.
    func run(_ context: CommandContext) {
        let service = context.service, console = context.console
        // A locked file holds the screen for at most a second and a half, then says so.
        service.busyTimeoutMilliseconds = 1_500
        if mustExist && access(service.path, F_OK) != 0 {
            return context.status.fail(.failure("no database at '\(service.path)'; nothing was made",
                                                hint: "check the path, or give --create to start a new file there"))
        }
        do {
            try service.open(creating: true)
        } catch {
            return context.status.fail(error)
        }
        console.stdout.flush()
        console.stderr.flush()
        var options = ScreenApp.Options(query: query, color: console.settings.color, today: invocation.today, databasePath: service.path,
                                        tracePath: invocation.environment["TASKS_UI_TRACE"], started: invocation.started)
        options.describe = { ErrorPresenter.present($0).message }
        options.colorRules = console.settings.colorRules
        options.queries = queries
        // An entry with this screen's command, made since it opened, is its own: `u` reverts
        // it at once; any other is named and asked about first.
        let command = service.commandText, opened = SystemClock.now()
        options.ownEntry = { $0.command == command && $0.time >= opened }
        options.dates = context.dates
        // `/` reads the filter grammar on the clock of the moment it is typed.
        options.filterSettings = { [invocation, settings] in
            var now = settings
            now.dates = DateSettings.context(invocation, weekStart: settings.dates.weekStart)
            return now
        }
        options.live = UICommand.liveSetup(service: service, invocation: invocation)
        let code = ScreenApp(service: service, options: options).run { console.stderr.write($0) }
        context.status.end(with: code)
    }

    /// With a remote (`TASKS_REMOTE`, else the one `tasks sync --remote` remembered), what the
    /// screen needs to sync live; nil without one, or when this program cannot be found again
    /// to run its sync.
    static func liveSetup(service: SQLiteTaskService, invocation: Invocation) -> LiveSetup? {
        guard let identity = firstValue(service.syncIdentity()),
              let url = invocation.environment["TASKS_REMOTE"].flatMap({ $0.isEmpty ? nil : $0 }) ?? identity.remote,
              // A CalDAV server cannot be listened to: the screen syncs with it not by itself.
              !CalDAVAddress.isCalDAV(url),
              let program = RunningProgram.path else { return nil }
        return LiveSetup(url: url, node: identity.node, maker: invocation.remotes, syncCommand: [program, "--db", service.path, "sync"],
                         newestEntry: { firstValue(service.history(HistoryQuery(limit: 1)))?.first?.id },
                         now: invocation.now, zone: invocation.localTime)
    }

    /// The first value of a call the store answers as it is made (the file is local); nil
    /// when it failed.
    private static func firstValue<T>(_ call: Observable<T>) -> T? {
        var value: T?
        _ = call.take(1).subscribe(onNext: { value = $0 })
        return value
    }
}
