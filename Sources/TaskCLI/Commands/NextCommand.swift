import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// `tasks next`: the pending tasks ranked by their score, at most `--limit`.
struct NextCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "next", abstract: "Show the pending tasks to do first, ranked by a score (--explain shows it).",
        discussion: """
            One list without sections, highest score first; tasks waiting are left out.
            The score adds: due — overdue 100 + 2 per day late (30 days at most), due
            today 90, due in 1 to 7 days 80 down to 20; priority — H 40, M 25, L 10;
            age — 1 per whole week since it was added, at most 10. Ties: the lower id.
            The configuration changes each number (next.due.overdue, next.due.per_day_late,
            next.due.today, next.due.tomorrow, next.due.per_day, next.priority.high|medium|low,
            next.age.per_week, next.age.max).
            """,
        arguments: [TasksSpec.filterArgument],
        options: [Option.inList, Option.withTag, Option.search, Option.withPriority, Option.nextLimit, Option.columns, Option.sort,
                  Option.context, Option.explain]
    )
    static let changesTasks = false

    var query: TaskQuery
    let explain: Bool
    let format: String?
    /// `--columns`: the report's columns instead of the listing's.
    let columns: [ReportColumn]?

    init(_ line: ParsedLine) throws {
        query = try line.filters()
        query.today = line.invocation.today()
        query.now = TaskDate.reading(line.invocation.now(), in: line.invocation.localTime, today: query.today)
        query.sort = .rank
        query.rankWeights = try line.configuration().rankWeights
        query.grouping = .none
        // `--limit`, or the filter's `limit:N`, or ten.
        query.limit = try line.value(Option.nextLimit).map(IDParser.count) ?? query.limit ?? 10
        try line.readOrder(into: &query)
        columns = try line.columns()
        explain = line.has(Option.explain)
        format = line.value(Option.format)
    }

    func validate() throws {
        if explain, let format, !["table", "tsv"].contains(format) {
            throw CLIError.usage("--explain shows scores in a table or tsv, not in \(format)")
        }
    }

    func run(_ context: CommandContext) {
        let reactor = TaskListReactor(service: context.service)
        let writer = context.view.printer.writer
        writer.rankWeights = query.rankWeights
        writer.columns = columns
        if explain { writer.explainsRankOn = query.today ?? context.invocation.today() }
        let view = NextView(context: context.view, writer: writer)
        view.reactor = reactor
        reactor.action.onNext(view.stream(query))
    }
}
