import QueryLanguage
import TaskModel
import TextFormats

/// A report: filter words, the columns shown, an order, a grouping and a limit. The built-in
/// ones are here; the configuration's (`report.NAME.*`) are read into the same shape, and one
/// named as a built-in one changes only what it sets.
struct Report: Equatable {
    var name: String
    var description: String
    /// Filter words, as typed in the configuration (`+work -someday`).
    var filter = ""
    /// `nil`: the listing's own columns (id, done, title, due, priority, tags).
    var columns: [ReportColumn]?
    var sort: TaskQuery.Sort = .manual
    var grouping: TaskQuery.Grouping = .byList
    var limit: Int?
    /// Every status and waiting task too (`all`).
    var everyTask = false
    /// A command of its own shows it (`list`, `next`, `active`): `report NAME` runs that.
    var command: String?

    static let builtIn: [Report] = [
        Report(name: "list", description: "pending tasks, one section per list (tasks list)", command: "list"),
        Report(name: "next", description: "the pending tasks to do first, by score (tasks next)", command: "next"),
        Report(name: "active", description: "the started tasks and how long they have run (tasks active)", command: "active"),
        Report(name: "completed", description: "done tasks, the latest first, with when they were done", filter: "status:done",
               columns: ReportColumn.builtIn(list: "id completed list title tags"), sort: .keys([SortKey.named("completed", descending: true)]), grouping: .none),
        Report(name: "waiting", description: "tasks waiting, the soonest to show first", filter: "+WAITING",
               columns: ReportColumn.builtIn(list: "id wait list title due priority"), sort: .keys([SortKey.named("wait")]), grouping: .none),
        Report(name: "blocked", description: "pending tasks waiting on another pending task", filter: "+BLOCKED",
               columns: ReportColumn.builtIn(list: "id list title due priority depends"), grouping: .none),
        Report(name: "ready", description: "pending tasks that can be done now (not waiting, not blocked, not scheduled later), by score",
               filter: "+READY", columns: ReportColumn.builtIn(list: "id score list title due priority tags"),
               sort: .keys([SortKey.named("score", descending: true)]), grouping: .none),
        Report(name: "overdue", description: "pending tasks past their due date, the oldest first", filter: "+OVERDUE",
               columns: ReportColumn.builtIn(list: "id due list title priority tags"), sort: .keys([SortKey.named("due")]), grouping: .none),
        Report(name: "recurring", description: "repeating tasks and their rules", filter: "+REPEATING",
               columns: ReportColumn.builtIn(list: "id repeat due list title"), sort: .keys([SortKey.named("due")]), grouping: .none),
        Report(name: "all", description: "every task: pending, waiting, expired and done", columns: ReportColumn.builtIn(list: "id done list title due priority tags"),
               sort: .keys([SortKey.named("id")]), grouping: .none, everyTask: true),
    ]

    /// The report called `name`: a built-in one with the configuration's settings over it,
    /// or one the configuration defines; `nil` when there is none.
    static func named(_ name: String, in configuration: Configuration) throws -> Report? {
        let base = builtIn.first { $0.name == name }
        guard let defined = configuration.reports[name] else { return base }
        if let command = base?.command {
            throw CLIError.usage((defined.line == 0 ? "-c report.\(name)" : "\(configuration.path):\(defined.line): report.\(name)")
                                 + ": '\(name)' is the command 'tasks \(command)', not a report to change; its order, columns and limit are its flags (--sort, --columns, --limit), or define a report of another name")
        }
        var report = base ?? Report(name: name, description: "", columns: nil)
        if !defined.description.isEmpty { report.description = defined.description }
        if !defined.filter.isEmpty { report.filter = defined.filter }
        func refuse(_ reason: String) -> CLIError {
            CLIError.usage(defined.line == 0 ? "-c report.\(name): \(reason)" : "\(configuration.path):\(defined.line): report.\(name): \(reason)")
        }
        if !defined.columns.isEmpty {
            do throws(ReportColumn.Refusal) { report.columns = try ReportColumn.parse(defined.columns, vocabulary: configuration.vocabulary) } catch {
                throw refuse(error.message)
            }
        }
        if !defined.sort.isEmpty {
            do throws(SortKeyError) { report.sort = .keys(try SortKey.parse(defined.sort, vocabulary: configuration.vocabulary)) } catch { throw refuse(error.message) }
            report.grouping = .none
        }
        if !defined.limit.isEmpty {
            guard let limit = Int(defined.limit), limit > 0, limit <= 1_000_000_000 else { throw refuse("limit '\(defined.limit)' is not a whole number above 0") }
            report.limit = limit
        }
        return report
    }

    /// Every report's name: the built-in ones, then the configuration's, sorted.
    static func names(in configuration: Configuration?) -> [String] {
        let defined = (configuration?.reports.keys.sorted() ?? []).filter { name in !builtIn.contains { $0.name == name } }
        return builtIn.map(\.name) + defined
    }
}

/// A column a report shows: a field of the vocabulary that has a cell (`FieldVocabulary`,
/// custom fields included), found by its name, an alias or an abbreviation.
struct ReportColumn: Equatable, Sendable {
    let field: QueryField

    var name: String { field.name }

    /// The built-in column `name` (for the reports and layouts written in code; a test walks
    /// them): the id's when there is none.
    static func builtIn(_ name: String) -> ReportColumn {
        let vocabulary = FieldVocabulary.builtIn
        let field = vocabulary.field(name, role: .column) ?? vocabulary.named("id")
        return ReportColumn(field: field ?? FieldVocabulary.entry(CustomField(name: name, kind: .string)))
    }

    /// Built-in columns by their names, for the reports written in code.
    static func builtIn(list names: String) -> [ReportColumn] { names.split(separator: " ").map { builtIn(String($0)) } }

    static let id = builtIn("id"), title = builtIn("title"), tags = builtIn("tags"), done = builtIn("done"), due = builtIn("due"),
               score = builtIn("score")

    struct Refusal: Error {
        let message: String
    }

    /// `id,title,due` (commas or spaces): the columns, or which word names none.
    static func parse(_ text: String, vocabulary: FieldVocabulary) throws(Refusal) -> [ReportColumn] {
        var columns: [ReportColumn] = []
        for word in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            guard let field = vocabulary.field(String(word), role: .column) else {
                let all = vocabulary.names(.column)
                throw Refusal(message: "'\(word)' is not a column" + (vocabulary.closest(to: String(word), role: .column).map { " (did you mean '\($0)'?)" } ?? "")
                              + "; the columns are " + all.joined(separator: ", "))
            }
            let column = ReportColumn(field: field)
            if !columns.contains(column) { columns.append(column) }
        }
        guard !columns.isEmpty else { throw Refusal(message: "no columns named; give some: id,title,due") }
        return columns
    }

    /// The column's text for a task: as a terminal shows it (`forTable`: local times, `+tags`,
    /// `[x]`) or as TSV and CSV carry it (stamps, `true`).
    /// `short`: the listing's short uuids (`TaskWriter.shortUUIDs`), which the `short` column shows.
    func text(_ task: Task, zone: LocalTime, today: CalendarDay, weights: TaskRank.Weights = .standard, forTable: Bool,
              short: [String: String] = [:]) -> String {
        if field.name == "short", let form = short[task.uuid] { return form }
        return field.cell(task, QueryContext(today: today, zone: zone, weights: weights), forTable)
    }
}
