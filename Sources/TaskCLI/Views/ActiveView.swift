import ReactorCore
import TaskModel
import TaskReactors
import TextFormats

/// `tasks active`: each started task with its start, how long it has run and the time spent
/// in all — a table for a person, tab-separated fields in a pipe, task objects in JSON.
final class ActiveView: CommandView, View {
    var reactor: TaskListReactor? { didSet { reactorDidChange() } }
    private let now: () -> Timestamp
    private var rows: [Task] = []

    init(context: ViewContext, now: @escaping () -> Timestamp) {
        self.now = now
        super.init(context: context)
    }

    func bind(reactor: TaskListReactor) {
        reactor.whenWindowMoves(disposedBy: disposeBag) { [unowned self] window in rows += window.rows }
        reactor.whenLoaded(reporting: context.status, disposedBy: disposeBag) { [unowned self] _ in write() }
    }

    private func write() {
        let console = context.console
        let time = now()
        switch console.settings.format {
        case .json:
            let writer = context.printer.writer
            writer.writeAll(rows)
        case .tsv, .csv, .ids:
            if console.settings.format == .ids { return TaskWriter.writeIDs(rows, to: console.stdout) }
            let isCSV = console.settings.format == .csv
            func line(_ fields: [String]) -> String { isCSV ? CSV.line(fields) : TSV.line(fields) }
            // CSV always has its header row, as `export --format csv`; TSV with --header.
            if console.settings.header || isCSV { console.stdout.write(line(["id", "title", "start", "running", "spent"])) }
            for task in rows {
                let running = task.runningTime(at: time)
                console.stdout.write(line([String(task.id), task.title, task.start.map(TimestampText.iso8601) ?? "",
                                           String(running), String(task.timeSpent(at: time))]))
            }
        case .table:
            if rows.isEmpty {
                if !console.settings.quiet { console.stdout.write("Nothing is started.\n") }
                return
            }
            let shown = console.terminal.stdoutIsTerminal ? rows.map { $0.escapingControls() } : rows
            let idWidth = shown.map { String($0.id).count }.max() ?? 1
            let titleWidth = shown.map { TerminalText.displayWidth($0.title) }.max() ?? 0
            for task in shown {
                let id = String(repeating: " ", count: idWidth - String(task.id).count) + String(task.id)
                let started = task.start.map { TaskDate($0, in: context.zone).shown(in: context.zone) } ?? ""
                let running = TaskDetails.duration(task.runningTime(at: time))
                var line = "  " + id + "  " + TerminalText.padded(task.title, toWidth: titleWidth) + "  since " + started + ", " + running
                if task.spent > 0 { line += " (" + TaskDetails.duration(task.timeSpent(at: time)) + " in all)" }
                console.stdout.write(line + "\n")
            }
        }
    }
}
