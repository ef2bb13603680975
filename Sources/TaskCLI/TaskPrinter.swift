import QueryLanguage
import TaskModel
import TaskReactors
import TextFormats

/// Tasks on standard output: as records in the chosen format, or as sentences for a person
/// (`Done 3: Buy milk`).
struct TaskPrinter {
    let console: Console
    /// Today, for the table's overdue mark; asked only when a table is written.
    let today: () -> CalendarDay
    var now: @Sendable () -> Timestamp = SystemClock.now
    /// The zone a moment is shown in.
    var zone: LocalTime = .system
    var othersMatching: ((TaskFilter, [Int64]) -> Set<Int64>)?

    /// The writer of the chosen format, set up for where standard output goes.
    var writer: TaskWriter {
        let terminal = console.terminal
        return TaskWriter(output: console.stdout, format: console.settings.format, header: console.settings.header,
                          terminalWidth: terminal.stdoutIsTerminal ? terminal.width : nil,
                          escapesControls: terminal.stdoutIsTerminal, style: Style(enabled: console.settings.color, rows: RowColors(rules: console.settings.colorRules, othersMatching: othersMatching)),
                          today: console.settings.format == .table ? today() : nil,
                          now: console.settings.format == .table ? TaskDate.reading(now(), in: zone, today: today()) : nil, zone: zone)
    }

    /// `Done 3: Buy milk`, for each task up to ten, then a count of the rest (of `total`,
    /// when only the first are at hand).
    func confirm(_ verb: String, _ tasks: [Task], of total: Int? = nil) {
        for task in tasks.prefix(10) {
            console.stdout.write("\(verb) \(task.id): \(TerminalText.escapingControls(task.title))\n")
        }
        let total = total ?? tasks.count
        if total > 10 { console.stdout.write("\(verb) \(total - 10) more.\n") }
    }

    /// What is allowed and said: a wait after the due date (the task stays hidden past its
    /// day); a reminder counted from a date the task does not have (it will not ring).
    func warnAboutDates(_ tasks: [Task]) {
        for task in tasks {
            if let wait = task.wait, let due = task.due, wait > due {
                console.warn("task \(task.id) waits until \(wait), after its due date \(due): it stays hidden until then")
            }
            for reminder in task.reminders where reminder.fires(for: task, in: zone) == nil {
                let missing = reminder.anchor == .due ? "no due date" : "no start (a wait: --wait)"
                console.warn("task \(task.id)'s reminder \(reminder) will not ring: the task has \(missing)")
            }
        }
    }

    /// The tasks a command changed, as records in the chosen format, or as sentences.
    func report(_ verb: String, _ tasks: [Task]) {
        let settings = console.settings
        if settings.quiet { return }
        if settings.format == .table {
            if console.terminal.stdoutIsTerminal || settings.isExplicit { confirm(verb, tasks) }
        } else if settings.isExplicit {
            writer.writeAll(tasks)
        }
    }
}
