import CommandLineKit
import QueryLanguage
import TaskModel
import TextFormats

/// `tasks report`: the reports there are; `tasks report NAME [FILTER]` (or `tasks NAME`) runs
/// one; `define` and `delete` change the configuration's `report.NAME.*`.
struct ReportCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "report", abstract: "Run a report (a saved filter, columns, order and limit), or define one.",
        discussion: """
            tasks report define mine --filter '+work -someday' --columns id,title,due,priority,list --sort due,priority- --limit 20
            tasks mine [FILTER]       run it (tasks report mine, the same); FILTER words AND in
            tasks report              the reports: built in, then defined
            tasks report delete mine
            Built in: list, next, active, completed (newest first, with when), waiting,
            blocked, ready, overdue, recurring, all. A report defined with a built-in one's
            name changes what it sets of it. Columns: \(FieldVocabulary.builtIn.names(.column).joined(separator: ", ")),
            and custom fields. --sort keys: \(FieldVocabulary.builtIn.names(.sort).joined(separator: ", ")),
            each with - for descending; across lists unless --group list.
            """,
        arguments: [ArgumentSpec("NAME|define|delete", help: "A report to run, or what to do.", optional: true, completion: Completion.reportNames),
                    ArgumentSpec("FILTER", help: "run: filter words ANDed with the report's; define, delete: NAME.", variadic: true, optional: true,
                                 completion: Completion.filterWords, filter: true)],
        options: TasksSpec.listingOptions + TasksSpec.reportOptions + [Option.reportFilter, Option.reportDescription]
    )
    static let changesTasks = false

    enum Action { case show, run(ListCommand), delegate(String), define(String), delete(String) }

    let action: Action
    let line: ParsedLine

    init(_ line: ParsedLine) throws {
        self.line = line
        let words = line.arguments
        let defining = line.has(Option.reportFilter) || line.has(Option.reportDescription)
        switch words.first {
        case nil:
            action = .show
        case "define":
            guard words.count == 2 else { throw CLIError.usage("'report define' takes one NAME, and --filter, --columns, --sort, --limit, --description") }
            guard ContextDefinition.isName(words[1]), !["define", "delete"].contains(words[1]) else {
                throw CLIError.usage("'\(words[1])' cannot name a report: letters, digits, - and _ (and not define or delete)")
            }
            guard CommandRegistry.command(named: words[1]) == nil || Report.builtIn.contains(where: { $0.name == words[1] && $0.command == nil }) else {
                throw CLIError.usage("'\(words[1])' is a command of its own; choose another name for the report")
            }
            guard defining || line.has(Option.columns) || line.has(Option.sort) || line.has(Option.reportLimit) else {
                throw CLIError.usage("'report define \(words[1])' needs --filter, --columns, --sort, --limit or --description")
            }
            action = .define(words[1])
        case "delete":
            guard words.count == 2 else { throw CLIError.usage("'report delete' takes one NAME") }
            action = .delete(words[1])
        case let name?:
            if defining { throw CLIError.usage("--filter and --description go with 'report define'") }
            guard let report = try Report.named(name, in: try line.configuration()) else {
                let names = Report.names(in: try? line.configuration())
                throw CLIError.usage("no report '\(name)'" + (Suggestion.closest(to: name, among: names).map { " (did you mean '\($0)'?)" } ?? ""),
                                     hint: "the reports: \(names.joined(separator: ", ")); define one: tasks report define \(name) --filter WORDS")
            }
            if let command = report.command {
                action = .delegate(command)
            } else {
                action = .run(try ListCommand(line.rewritten(arguments: Array(line.arguments.dropFirst())), report: report))
            }
        }
    }

    func run(_ context: CommandContext) {
        context.reporting { try perform(context, environment: context.invocation.environment, console: context.console, speaks: context.speaks) }
    }

    private func perform(_ context: CommandContext, environment: [String: String], console: Console, speaks: Bool) throws {
        switch action {
        case .run(let command):
            command.run(context)
        case .delegate(let name):
            // `report next` is `next`: the same words, read by that command.
            guard let type = CommandRegistry.command(named: name) else { return }
            let command = try type.init(line.rewritten(path: [name], arguments: Array(line.arguments.dropFirst())))
            try command.validate()
            command.run(context)
        case .show:
            let configuration = try line.configuration()
            var rows: [[String]] = []
            for name in Report.names(in: configuration) {
                guard let report = try Report.named(name, in: configuration) else { continue }
                let defined = configuration.reports[name] != nil
                rows.append([name, report.filter, report.columns.map { $0.map(\.name).joined(separator: ",") } ?? "",
                             Self.sortText(report.sort), report.limit.map(String.init) ?? "", report.description, defined ? "defined" : "built in"])
            }
            if console.settings.format == .table {
                let width = rows.map { TerminalText.displayWidth($0[0]) }.max() ?? 4
                var out = ""
                for row in rows {
                    let detail = [row[1].isEmpty ? nil : row[1], row[3].isEmpty ? nil : "sort " + row[3], row[4].isEmpty ? nil : "limit " + row[4]]
                        .compactMap { $0 }.joined(separator: "; ")
                    out += "  " + TerminalText.padded(row[0], toWidth: width) + "  " + (row[5].isEmpty ? detail : row[5] + (detail.isEmpty ? "" : " — " + detail))
                        + (row[6] == "defined" ? " (defined)" : "") + "\n"
                }
                console.stdout.write(out)
            } else {
                console.stdout.write(rows.map { TSV.line($0) }.joined())
            }
        case .define(let name):
            let configuration = try line.configuration()
            // Everything is checked before the file is touched: the filter, the columns, the order.
            let settings = try line.filterSettings(configuration)
            let filter = line.value(Option.reportFilter)
            if let filter { _ = try FilterInput.parse(text: filter, settings, source: "the filter of \(name): ") }
            _ = try line.columns()
            var probe = TaskQuery()
            try line.readOrder(into: &probe)
            let keys: [(String, String?)] = [
                ("filter", filter), ("columns", line.value(Option.columns)), ("sort", line.value(Option.sort)),
                ("limit", line.value(Option.reportLimit)), ("description", line.value(Option.reportDescription)),
            ]
            for (key, value) in keys {
                guard let value else { continue }
                try ConfigFile.change(environment, "report.\(name).\(key)", to: value)
            }
            if speaks { console.stdout.write("Defined report \(name): tasks \(name)\n") }
        case .delete(let name):
            let configuration = try line.configuration()
            guard let definition = configuration.reports[name] else {
                throw CLIError.failure("no report '\(name)' is defined" + (Report.builtIn.contains { $0.name == name } ? " (a built-in one cannot be deleted)" : "")
                                       + "; nothing was changed")
            }
            for (key, value) in [("filter", definition.filter), ("columns", definition.columns), ("sort", definition.sort),
                                 ("limit", definition.limit), ("description", definition.description)] where !value.isEmpty {
                try ConfigFile.change(environment, "report.\(name).\(key)", to: nil)
            }
            if speaks { console.stdout.write("Deleted report \(name)\n") }
        }
    }

    static func sortText(_ sort: TaskQuery.Sort) -> String {
        switch sort {
        case .keys(let keys): keys.map(\.description).joined(separator: ",")
        case .manual: ""
        case .due: "due"
        case .priority: "priority-"
        case .created: "created"
        case .id: "id"
        case .started: "start"
        case .rank: "score-"
        }
    }
}

