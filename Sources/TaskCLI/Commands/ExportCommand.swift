import CommandLineKit
import QueryLanguage
import TaskInterchange
import TaskModel
import TaskReactors

/// `tasks export`: every task to stdout, in our JSON or another tool's format.
struct ExportCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "export", abstract: "Write every task to stdout, for another machine or another tool.",
        discussion: """
            FORMATS (--format):
              json         every field of every task (the default); 'tasks import' reads it
                           back unchanged: ids, uuids, times, positions, notes
              csv          the same fields as RFC 4180 rows with a header
              taskwarrior  JSON for Taskwarrior's 'task import'; notes become annotations
              todotxt      todo.txt lines: x, (A), +list, @tag, due:; notes are left out
            What a format cannot hold is named on stderr.
            FILTER words export only the tasks they choose (of every status: tasks export
            +bills). The active context is ignored unless --context names one.
            """,
        arguments: [TasksSpec.filterArgument],
        options: [Option.exportFormat, Option.context]
    )
    static let changesTasks = false

    let format: InterchangeFormat
    /// The tasks to write: every one, or those the words (and `--context`) choose.
    var query: TaskQuery?

    init(_ line: ParsedLine) throws {
        format = try line.choice(Option.exportFormat, InterchangeFormat.self) ?? .json
        guard !line.arguments.isEmpty || line.has(Option.context) else { return }
        var query = try line.filters(words: line.arguments, withContext: line.has(Option.context))
        query.status = .all
        query.waiting = .shown
        query.expired = .shown
        query.sort = .id
        query.grouping = .none
        // Taskwarrior's export carries its deleted tasks; ours, when the filter names them.
        query.withDeleted = format == .taskwarrior
        query.today = line.invocation.today()
        query.now = TaskDate.reading(line.invocation.now(), in: line.invocation.localTime, today: query.today)
        self.query = query
    }

    func run(_ context: CommandContext) {
        let reactor = TaskListReactor(service: context.service)
        let view = ExportView(context: context.view, writer: ExportWriter(format: format, localTime: context.invocation.localTime))
        view.reactor = reactor
        // Taskwarrior's templates an import kept, read first: they follow the tasks out.
        if format == .taskwarrior { reactor.action.onNext(.loadKept(format: "taskwarrior")) }
        reactor.action.onNext(query.map { .stream($0, batch: 1_000, totals: .none, fields: .all) } ?? ExportView.everyTask(withDeleted: format == .taskwarrior))
    }
}

extension InterchangeFormat: OptionChoice {
    public static var noun: String { "an export format" }
    public static var offered: [InterchangeFormat] { [.json, .csv, .taskwarrior, .todotxt] }
    public var word: String { rawValue }
    /// `todo.txt` is `todotxt`.
    public init?(word text: String) { self.init(named: text) }
}
