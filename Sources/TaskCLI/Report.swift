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
               columns: [.id, .completed, .list, .title, .tags], sort: .keys([SortKey(.completed, descending: true)]), grouping: .none),
        Report(name: "waiting", description: "tasks waiting, the soonest to show first", filter: "+WAITING",
               columns: [.id, .wait, .list, .title, .due, .priority], sort: .keys([SortKey(.wait)]), grouping: .none),
        Report(name: "blocked", description: "pending tasks waiting on another pending task", filter: "+BLOCKED",
               columns: [.id, .list, .title, .due, .priority, .depends], grouping: .none),
        Report(name: "ready", description: "pending tasks that can be done now (not waiting, not blocked, not scheduled later), by score",
               filter: "+READY", columns: [.id, .score, .list, .title, .due, .priority, .tags],
               sort: .keys([SortKey(.score, descending: true)]), grouping: .none),
        Report(name: "overdue", description: "pending tasks past their due date, the oldest first", filter: "+OVERDUE",
               columns: [.id, .due, .list, .title, .priority, .tags], sort: .keys([SortKey(.due)]), grouping: .none),
        Report(name: "recurring", description: "repeating tasks and their rules", filter: "+REPEATING",
               columns: [.id, .repeat, .due, .list, .title], sort: .keys([SortKey(.due)]), grouping: .none),
        Report(name: "all", description: "every task: pending, waiting, expired and done", columns: [.id, .done, .list, .title, .due, .priority, .tags],
               sort: .keys([SortKey(.id)]), grouping: .none, everyTask: true),
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
            do throws(ReportColumn.Refusal) { report.columns = try ReportColumn.parse(defined.columns, custom: configuration.customFields) } catch {
                throw refuse(error.message)
            }
        }
        if !defined.sort.isEmpty {
            do throws(SortKeyError) { report.sort = .keys(try SortKey.parse(defined.sort)) } catch { throw refuse(error.message) }
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

/// A column a report shows.
enum ReportColumn: Equatable, Sendable {
    case id, done, title, list, due, priority, tags, wait, scheduled, until, created, modified, completed, start, score, `repeat`, depends, notes
    case custom(CustomField)

    static let named: [(String, ReportColumn)] = [
        ("id", .id), ("done", .done), ("title", .title), ("list", .list), ("due", .due), ("priority", .priority), ("tags", .tags),
        ("wait", .wait), ("scheduled", .scheduled), ("until", .until), ("created", .created), ("modified", .modified),
        ("completed", .completed), ("start", .start), ("score", .score), ("repeat", .repeat), ("depends", .depends), ("notes", .notes),
    ]
    /// Taskwarrior's names for the same columns.
    static let aliases: [String: ReportColumn] = [
        "description": .title, "project": .list, "status": .done, "entry": .created, "end": .completed, "urgency": .score,
        "recur": .repeat, "started": .start,
    ]

    var name: String {
        if case .custom(let field) = self { return field.name }
        return Self.named.first { $0.1 == self }?.0 ?? ""
    }

    struct Refusal: Error {
        let message: String
    }

    /// `id,title,due` (commas or spaces): the columns, or which word names none.
    static func parse(_ text: String, custom: [String: CustomField]) throws(Refusal) -> [ReportColumn] {
        var columns: [ReportColumn] = []
        for word in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let name = word.lowercased()
            guard let column = named.first(where: { $0.0 == name })?.1 ?? aliases[name] ?? custom[String(word)].map(ReportColumn.custom) else {
                let all = named.map(\.0) + custom.keys.sorted()
                throw Refusal(message: "'\(word)' is not a column" + (Suggestion.closest(to: name, among: all).map { " (did you mean '\($0)'?)" } ?? "")
                              + "; the columns are " + all.joined(separator: ", "))
            }
            if !columns.contains(column) { columns.append(column) }
        }
        guard !columns.isEmpty else { throw Refusal(message: "no columns named; give some: id,title,due") }
        return columns
    }

    /// The column's text for a task: as a terminal shows it (`forTable`: local times, `+tags`,
    /// `[x]`) or as TSV and CSV carry it (stamps, `true`).
    func text(_ task: Task, zone: LocalTime, today: CalendarDay, weights: TaskRank.Weights = .standard, forTable: Bool) -> String {
        func date(_ date: TaskDate?) -> String {
            guard let date else { return "" }
            return forTable && !date.isDay ? date.shown(in: zone) : date.description
        }
        func time(_ stamp: Timestamp?) -> String {
            guard let stamp else { return "" }
            // A table: local time; tsv and csv: UTC, as `history` and `export` write moments.
            return forTable ? TaskDate(stamp, in: zone).shown(in: zone) : TimestampText.iso8601(stamp)
        }
        switch self {
        case .id: return String(task.id)
        case .done: return forTable ? (task.isDone ? "[x]" : task.repeat != nil ? "[↻]" : "[ ]") : (task.isDone ? "true" : "false")
        case .title: return task.title
        case .list: return task.list
        case .due: return date(task.due)
        case .priority: return task.priority?.rawValue ?? ""
        case .tags: return forTable ? task.tags.map { "+" + $0 }.joined(separator: " ") : task.tags.joined(separator: " ")
        case .wait: return date(task.wait)
        case .scheduled: return date(task.scheduled)
        case .until: return date(task.until)
        case .created: return time(task.created)
        case .modified: return time(task.modified)
        case .completed: return time(task.completed)
        case .start: return time(task.start)
        case .score: return String(TaskRank(task, today: today, weights: weights).score)
        case .repeat: return task.repeat?.description ?? ""
        case .depends: return task.depends.isEmpty ? "" : String(task.depends.count)
        case .notes: return forTable ? String(task.notes.split(separator: "\n").first ?? "") : task.notes
        case .custom(let field): return ExtrasText.value(field.name, in: task.extras).map { field.shown($0, zone: zone) } ?? ""
        }
    }
}
