import QueryLanguage
import ReactorCore
import TaskModel
import TaskReactors
import TextFormats

/// `tasks timesheet`: Taskwarrior's timesheet — each task started (still pending) or
/// completed in the weeks asked, by that moment: its week, day, id, what happened, list, due
/// and title, a blank line between weeks, and `3 completed, 2 started.` under them; the rows
/// as records with `--format`.
final class TimesheetView: CommandView, View {
    var reactor: TaskListReactor? { didSet { reactorDidChange() } }
    private var rows: [Task] = []

    func bind(reactor: TaskListReactor) {
        reactor.whenWindowMoves(disposedBy: disposeBag) { [unowned self] window in rows += window.rows }
        reactor.whenLoaded(reporting: context.status, disposedBy: disposeBag) { [unowned self] _ in write() }
    }

    /// The moment a row is shown at: completed, or started.
    private static func moment(_ task: Task) -> Timestamp? { task.isDone ? task.completed ?? task.modified : task.start }

    private func write() {
        let zone = context.zone
        let shown = rows.compactMap { task in Self.moment(task).map { (task, $0) } }.sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
        let console = context.console
        let output = console.stdout
        func fields(_ task: Task, _ time: Timestamp) -> [String] {
            [TaskDate(time, in: zone).description, task.isDone ? "completed" : "started", String(task.id), task.uuid, task.list,
             task.due?.description ?? "", task.title]
        }
        let columns = ["time", "action", "id", "uuid", "list", "due", "title"]
        switch console.settings.format {
        case .json:
            let records = shown.map { task, time in
                JSONValue.object(zip(columns, fields(task, time)).map { ($0, $0 == "id" ? JSONValue.number(task.id) : JSONValue.string($1)) })
            }
            output.write(JSONValue.array(records).serialized() + "\n")
        case .csv:
            output.write(CSV.line(columns))
            for (task, time) in shown { output.write(CSV.line(fields(task, time))) }
        case .tsv, .ids:
            if console.settings.header { output.write(TSV.line(columns)) }
            for (task, time) in shown { output.write(TSV.line(fields(task, time))) }
        case .table:
            writePicture(table(shown, width: console.terminal.stdoutIsTerminal ? console.terminal.width ?? 80 : 80), title: "Timesheet")
        }
    }

    /// Taskwarrior's table: a week's number, a date and a day only where they change.
    private func table(_ shown: [(Task, Timestamp)], width: Int) -> String {
        let zone = context.zone
        var cells: [[String]] = []
        var previous: (week: Int, date: String, day: String)?
        for (task, time) in shown {
            let day = zone.day(time)
            let week = day.isoWeek, date = day.description, name = String(CalendarDay.weekdayNames[day.weekday].prefix(3))
            if let previous, previous.week != week { cells.append(["", "", "", "", "", "", "", ""]) }
            cells.append([previous?.week != week ? "W\(week)" : "", previous?.date != date ? date : "",
                          previous?.day != name || previous?.date != date ? name.prefix(1).uppercased() + name.dropFirst() : "",
                          String(task.id), task.isDone ? "Completed" : "Started", task.list, task.due.map { String($0.description.prefix(10)) } ?? "",
                          context.console.shown(task.title)])
            previous = (week, date, name)
        }
        let done = shown.filter { $0.0.isDone }.count
        let footer = "\(done) completed, \(shown.count - done) started.\n"
        guard !cells.isEmpty else { return footer }
        let headers = ["Wk", "Date", "Day", "ID", "Action", "List", "Due", "Task"]
        var widths = headers.indices.map { column in cells.reduce(headers[column].count) { max($0, TerminalText.displayWidth($1[column])) } }
        // The title takes what is left of the width, at least 10 columns.
        let fixed = widths.dropLast().reduce(0) { $0 + $1 + 1 }
        widths[widths.count - 1] = max(10, min(widths[widths.count - 1], width - fixed))
        func line(_ row: [String]) -> String {
            let text = row.indices.map { column -> String in
                let cell = TerminalText.displayWidth(row[column]) > widths[column] ? TerminalText.truncated(row[column], toWidth: widths[column]) : row[column]
                return column == 3 ? TerminalText.leftPadded(cell, toWidth: widths[column]) : TerminalText.padded(cell, toWidth: widths[column])
            }.joined(separator: " ")
            return String(text.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        return "\n" + line(headers) + line(widths.map { String(repeating: "-", count: $0) }) + cells.map(line).joined() + "\n" + footer
    }
}
