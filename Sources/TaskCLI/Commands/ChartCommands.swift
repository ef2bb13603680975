import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// A chart's words: the period (`daily`, `weekly`, `monthly`, `annual`; anywhere among them,
/// once) and the filter, read over every task — done and deleted ones too — in the context.
struct ChartWords {
    let period: ReportPeriod
    let query: TaskQuery
    let weekStart: Int

    init(_ line: ParsedLine, words: [String], standard: ReportPeriod, allowed: [ReportPeriod]) throws {
        var words = words
        var period: ReportPeriod?
        if let index = words.firstIndex(where: { ReportPeriod(rawValue: $0.lowercased()) != nil }) {
            let chosen = ReportPeriod(rawValue: words.remove(at: index).lowercased()) ?? standard
            guard allowed.contains(chosen) else {
                throw CLIError.usage("'\(chosen.rawValue)' is not a period here", hint: allowed.map(\.rawValue).joined(separator: ", "))
            }
            if words.contains(where: { ReportPeriod(rawValue: $0.lowercased()) != nil }) { throw CLIError.usage("give one period, not two") }
            period = chosen
        }
        self.period = period ?? standard
        let dates = try line.dates()
        weekStart = dates.weekStart
        var query = TaskQuery.every(try line.filters(words: words).filter, today: dates.today, now: dates.now, zone: dates.zone)
        query.withDeleted = true
        self.query = query
    }

    /// The activity, or nil when the read failed (said on stderr, status 1).
    func activity(_ context: CommandContext) -> TaskActivity? {
        let state = TaskPicturesReactor(service: context.service).send(.loadActivity(query))
        if let failure = state.failure {
            context.status.fail(failure)
            return nil
        }
        return state.activity
    }
}

/// `tasks burndown [daily|weekly|monthly] [FILTER…]`: Taskwarrior's burndown chart.
struct BurndownCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "burndown", abstract: "Chart pending, started and done tasks over time, as Taskwarrior's burndown does.",
        discussion: """
            One bar per day, week (the default) or month, the last the current one: how many tasks
            were pending, started and done at its end (done ones counted from the period they
            were completed in; deleted ones not at all). Under it the net fix rate since the
            most tasks were pending, and when none would be left at that rate. FILTER words
            choose the tasks, done and deleted ones included. --format json, tsv or csv gives the
            numbers. burndown.daily, burndown.weekly and burndown.monthly work as in Taskwarrior.
            """,
        arguments: [ArgumentSpec("PERIOD", help: "daily, weekly or monthly.", optional: true), TasksSpec.filterArgument],
        options: [Option.context]
    )
    static let changesTasks = false

    let words: ChartWords

    init(_ line: ParsedLine) throws {
        words = try ChartWords(line, words: line.arguments, standard: .weekly, allowed: [.daily, .weekly, .monthly])
    }

    func run(_ context: CommandContext) {
        guard let activity = words.activity(context) else { return }
        BurndownView(context: context.view).write(activity, period: words.period, weekStart: words.weekStart)
    }
}

/// `tasks ghistory [daily|weekly|monthly|annual] [FILTER…]` (also `tasks history --graph`):
/// Taskwarrior's graphical history; `--numbers` its history table.
struct GHistoryCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "ghistory", abstract: "Chart the tasks added, completed and deleted per period, as Taskwarrior's ghistory does.",
        discussion: """
            One row per day, week, month (the default) or year in which a task was added,
            completed or deleted: a bar of + added, X completed and - deleted (coloured blocks
            with their numbers on a colour terminal). --numbers prints Taskwarrior's history
            table instead (added, completed, deleted, net and the average); --format json, tsv
            or csv the numbers. FILTER words choose the tasks, done and deleted ones included.
            tasks history --graph is the same; ghistory.monthly and history.monthly work as in
            Taskwarrior.
            """,
        arguments: [ArgumentSpec("PERIOD", help: "daily, weekly, monthly or annual.", optional: true), TasksSpec.filterArgument],
        options: [Option.numbers, Option.context]
    )
    static let changesTasks = false

    let words: ChartWords
    let numbers: Bool

    init(_ line: ParsedLine) throws {
        words = try ChartWords(line, words: line.arguments, standard: .monthly, allowed: ReportPeriod.allCases)
        numbers = line.has(Option.numbers)
    }

    func run(_ context: CommandContext) {
        guard let activity = words.activity(context) else { return }
        let rows = activity.history(words.period, weekStart: words.weekStart)
        HistoryChartView(context: context.view).write(rows, period: words.period, numbers: numbers)
    }
}

/// `tasks calendar [MONTH] [--months N] [--details]`: Taskwarrior's calendar.
struct CalendarCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "calendar", abstract: "Show month grids with today, due, overdue and holiday days marked, as Taskwarrior's calendar does.",
        discussion: """
            MONTH: 2026-12, dec or december (this year's), dec 2027, or a year (2027: its twelve
            months); this month by default. As many months side by side as fit the width (26
            columns each), --months N in all. Weeks start on week.start's day; the column
            before them is the week's number. Days with pending tasks due are marked, overdue
            ones apart, and today and the configuration's holidays (holiday.NAME.name and
            holiday.NAME.date, or .start and .end, as Taskwarrior writes them): coloured on a
            colour terminal, else by a sign after the day — < today, * due, ! overdue, +
            holiday. --details lists the tasks due in the months shown, and their holidays.
            --format tsv, csv or json gives each marked day: its state, tasks due, holidays.
            """,
        arguments: [ArgumentSpec("MONTH", help: "2026-12, dec, dec 2027 or 2027; this month by default.", variadic: true, optional: true)],
        options: [Option.months, Option.details]
    )
    static let changesTasks = false

    let first: CalendarDay
    let months: Int?
    let details: Bool
    let dates: DateContext
    let configuration: Configuration

    init(_ line: ParsedLine) throws {
        dates = try line.dates()
        configuration = try line.configuration()
        details = line.has(Option.details)
        var months = try line.value(Option.months).map { text -> Int in
            guard let count = Int(text), (1...120).contains(count) else { throw CLIError.usage("--months \(text): give a number of months from 1 to 120") }
            return count
        }
        let words = line.arguments.map { $0.lowercased() }
        let today = dates.today
        func month(_ word: String) -> Int? {
            guard word.count >= 3 else { return nil }
            return CalendarDay.monthNames.firstIndex { $0.lowercased().hasPrefix(word) }.map { $0 + 1 }
        }
        func year(_ word: String) -> Int? { word.count == 4 && word.allSatisfy(\.isASCII) ? Int(word).flatMap { (1...9999).contains($0) ? $0 : nil } : nil }
        var first: CalendarDay?
        switch words.count {
        case 0: first = CalendarDay(year: today.year, month: today.month, day: 1)
        case 1:
            if let whole = year(words[0]) {
                first = CalendarDay(year: whole, month: 1, day: 1)
                months = months ?? 12
            } else if let number = month(words[0]) {
                first = CalendarDay(year: today.year, month: number, day: 1)
            } else if words[0].count == 7, let day = CalendarDay(words[0] + "-01") {
                first = day
            }
        case 2:
            if let number = month(words[0]), let whole = year(words[1]) { first = CalendarDay(year: whole, month: number, day: 1) }
        default: break
        }
        guard let first else {
            throw CLIError.usage("'\(line.arguments.joined(separator: " "))' is not a month", hint: "tasks calendar 2026-12, tasks calendar dec, tasks calendar dec 2027, tasks calendar 2027")
        }
        self.first = first
        self.months = months
    }

    func run(_ context: CommandContext) {
        let console = context.console
        if details && console.settings.svg { return context.status.fail(CLIError.usage("--details lists tasks as text: not with --format svg")) }
        let width = console.terminal.stdoutIsTerminal ? console.terminal.width ?? 80 : 80
        let perLine = max(1, width / 26)
        let count = months ?? perLine
        var last = first
        for _ in 1..<max(count, 1) { last = ReportPeriod.monthly.next(after: last) ?? last }
        let end = ReportPeriod.monthly.next(after: last)
        // Pending tasks, waiting ones too (a due is a due), in the months shown.
        var query = TaskQuery(status: .pending, sort: .due, grouping: .none, waiting: .shown, today: dates.today)
        query.now = TaskDate.reading(dates.now, in: dates.zone, today: dates.today)
        query.dueFrom = TaskDate(first)
        query.dueBefore = end.map(TaskDate.init)
        let state = TaskPicturesReactor(service: context.service).send(.loadDue(query))
        if let failure = state.failure { return context.status.fail(failure) }
        let holidays = configuration.holidays(from: first, through: end?.adding(days: -1) ?? last)
        CalendarView(context: context.view).write(first: first, months: count, perLine: perLine, weekStart: dates.weekStart,
                                                   marks: CalendarView.Marks(today: dates.today, due: state.due ?? [:], holidays: holidays))
        guard details, console.settings.format == .table else { return }
        console.stdout.write("\n")
        for day in holidays.keys.sorted() { console.stdout.write("\(day)  \((holidays[day] ?? []).joined(separator: ", "))\n") }
        if !holidays.isEmpty { console.stdout.write("\n") }
        let reactor = TaskListReactor(service: context.service)
        let view = NextView(context: context.view, writer: context.view.printer.writer, empty: "No tasks due in these months.")
        view.reactor = reactor
        reactor.action.onNext(view.stream(query))
    }
}

/// `tasks timesheet [--weeks N] [FILTER…]`: Taskwarrior's timesheet.
struct TimesheetCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "timesheet", abstract: "Show what was started and completed in the last weeks, as Taskwarrior's timesheet does.",
        discussion: """
            The pending tasks started and the tasks completed in the last N weeks (--weeks, 4 by
            default: since the same moment 28 days ago), by when: the week's number, the date and
            day where they change, the id, Started or Completed, the list, the due day and the
            title, a blank line between weeks; under them how many of each. FILTER words narrow
            the tasks, in the context. --format tsv, csv or json: time, action, id, uuid, list,
            due, title.
            """,
        arguments: [TasksSpec.filterArgument],
        options: [Option.weeks, Option.context]
    )
    static let changesTasks = false

    let query: TaskQuery

    init(_ line: ParsedLine) throws {
        let weeks = try line.value(Option.weeks).map { text -> Int in
            guard let count = Int(text), (1...520).contains(count) else { throw CLIError.usage("--weeks \(text): give a number of weeks from 1 to 520") }
            return count
        } ?? 4
        var query = try line.filters(words: line.arguments)
        // Taskwarrior's report.timesheet.filter, for N weeks.
        let recent = "(+PENDING and start.after:now-\(weeks)w) or (+COMPLETED and end.after:now-\(weeks)w)"
        let settings = try line.filterSettings(try line.configuration())
        query.filter = TaskFilter.all([query.filter, try FilterInput.parse(text: recent, settings, source: "timesheet: ")])
        let dates = try line.dates()
        (query.status, query.waiting, query.expired, query.sort, query.grouping) = (.all, .shown, .shown, .id, .none)
        query.today = dates.today
        query.now = TaskDate.reading(dates.now, in: dates.zone, today: dates.today)
        self.query = query
    }

    func run(_ context: CommandContext) {
        let reactor = TaskListReactor(service: context.service)
        let view = TimesheetView(context: context.view)
        view.reactor = reactor
        reactor.action.onNext(.stream(query, batch: 1_000, totals: .none, fields: .all))
    }
}
