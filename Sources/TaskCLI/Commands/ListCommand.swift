import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// `tasks list`: the tasks a query selects, streamed in batches as they are read.
struct ListCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "list", aliases: ["ls"], abstract: "Show pending tasks, one section per list.",
        discussion: "FILTER words choose the tasks (tasks help filters); --explain shows how they were read.\n\n" + TasksSpec.formatHelp,
        arguments: [TasksSpec.filterArgument],
        options: TasksSpec.listingOptions + TasksSpec.reportOptions
    )
    static let changesTasks = false

    var query: TaskQuery
    let explain: Bool
    let columns: [ReportColumn]?
    let contextLine: String?

    init(_ line: ParsedLine) throws {
        try self.init(line, report: nil)
    }

    /// `list`, or a report's run (`tasks completed`, `tasks mine`): its filter, order and
    /// columns, under what the command line gives.
    init(_ line: ParsedLine, report: Report?) throws {
        query = try line.query(report: report)
        explain = line.has(Option.explainFilter)
        columns = try line.columns() ?? report?.columns
        contextLine = try ContextChoice.of(line).headerLine(in: line)
        // The score's weights, read only when something shows or sorts by the score.
        var scored = columns?.contains(.score) ?? false
        if case .keys(let keys) = query.sort, keys.contains(where: { $0.field == ReportColumn.score.field }) { scored = true }
        if scored { query.rankWeights = try line.configuration().rankWeights }
    }

    /// `No tasks.`, and under a context which one: `No tasks in context work: list:Work.`
    private var emptyText: String {
        guard let contextLine else { return "No tasks." }
        return "No tasks in c" + contextLine.dropFirst() + " (--context none: every task)."
    }

    func run(_ context: CommandContext) {
        if explain { return context.console.stdout.write(FilterExplanation.text(query)) }
        let reactor = TaskListReactor(service: context.service)
        let writer = context.view.printer.writer
        writer.columns = columns
        writer.shortUUIDs = { [service = context.service] uuids in (try? service.shortUUIDs(uuids)) ?? [:] }
        writer.findIDs = { [service = context.service] uuids in (try? service.ids(ofUUIDs: uuids)) ?? [:] }
        writer.rankWeights = query.rankWeights
        writer.contextLine = contextLine
        if query.limit != nil {
            // A limited report is few rows: held and measured, as `next` does.
            let view = NextView(context: context.view, writer: writer, empty: emptyText)
            view.keepsSections = query.grouping != .none
            view.reactor = reactor
            return reactor.action.onNext(view.stream(query))
        }
        let view = ListView(context: context.view, writer: writer)
        view.emptyText = emptyText
        view.reactor = reactor
        reactor.action.onNext(view.stream(query))
    }
}

/// What `--explain` prints: the filter's tree, one node per line, and what else chooses the
/// tasks (status, waiting and expired ones, the search, the limit).
enum FilterExplanation {
    static func text(_ query: TaskQuery) -> String {
        var lines: [String] = []
        if let filter = query.filter {
            lines.append("filter:")
            lines += filter.explained(indent: 1)
        } else {
            lines.append("filter: none (every task)")
        }
        if let search = query.search { lines.append("search: \"\(search)\"") }
        let status: String
        switch query.status {
        case .pending: status = "pending"
        case .done: status = "done"
        case .all: status = "any"
        }
        func shown(_ choice: TaskQuery.Waiting) -> String {
            switch choice {
            case .hidden: "hidden"
            case .only: "only"
            case .shown: "shown"
            }
        }
        lines.append("status: \(status); waiting: \(shown(query.waiting)); expired: \(shown(query.expired))"
                     + (query.filter?.choosesStatus == true ? " (the filter names a status or ids)" : ""))
        if let limit = query.limit { lines.append("limit: \(limit)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
