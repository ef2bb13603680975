import CommandLineKit
import ReactorCore
import TaskInterchange
import TaskKit

/// What a view prints to and how; and the exit status it arrives at.
final class Screen {
    let stdout: Output
    let stderr: Output
    let settings: OutputSettings
    let terminal: TerminalFacts
    /// Today, read (with the time zone file) only when a view needs it.
    private(set) lazy var today: CalendarDay = todayProvider()
    private let todayProvider: () -> CalendarDay
    /// The database file, for messages.
    let databasePath: String?
    /// The worst outcome so far: 0, then 1 or 2.
    private(set) var status: Int32 = 0
    private var progressShown = false

    init(stdout: Output, stderr: Output, settings: OutputSettings, terminal: TerminalFacts, today: @escaping () -> CalendarDay, databasePath: String?) {
        self.todayProvider = today
        self.databasePath = databasePath
        self.stdout = stdout
        self.stderr = stderr
        self.settings = settings
        self.terminal = terminal
    }

    var writer: TaskWriter {
        TaskWriter(output: stdout, format: settings.format, header: settings.header,
                   terminalWidth: terminal.stdoutIsTerminal ? terminal.width : nil,
                   escapesControls: terminal.stdoutIsTerminal, style: Style(enabled: settings.color),
                   today: settings.format == .table ? today : nil)
    }

    /// Human sentences (not records) go to a terminal, or wherever `--format table` was asked.
    var speaksToPerson: Bool { settings.format == .table && !settings.quiet }

    func fail(_ error: CLIError) {
        clearProgress()
        stderr.write(error.text)
        status = max(status, error.status)
    }

    /// A service failure, in `ErrorPresenter`'s words.
    func fail(_ failure: ServiceFailure) {
        fail(ErrorPresenter.present(failure, databasePath: databasePath))
    }

    /// A line for a person on stderr (a summary), after any progress line is cleared.
    func message(_ text: String) {
        clearProgress()
        stderr.write(TerminalText.escapingControls(text) + "\n")
    }

    /// `tasks: warning: …` on stderr. What a file held is shown with its controls escaped.
    func warn(_ text: String) {
        message("tasks: warning: " + text)
    }

    /// A progress line on stderr, on a terminal only.
    func progress(_ text: String?) {
        guard terminal.stderrIsTerminal else { return }
        clearProgress()
        if let text {
            stderr.write(text)
            stderr.flush()
            progressShown = true
        }
    }

    private func clearProgress() {
        guard progressShown else { return }
        stderr.write("\r\u{1B}[K")
        stderr.flush()
        progressShown = false
    }

    /// `Done 3: Buy milk`, for each task up to ten, then a count of the rest.
    func confirm(_ verb: String, _ tasks: [Task]) {
        for task in tasks.prefix(10) {
            stdout.write("\(verb) \(task.id): \(TerminalText.escapingControls(task.title))\n")
        }
        if tasks.count > 10 { stdout.write("\(verb) \(tasks.count - 10) more.\n") }
    }

    /// The tasks a command changed, as records in the chosen format, or as sentences.
    func report(_ verb: String, _ tasks: [Task]) {
        if settings.quiet { return }
        if settings.format == .table {
            if terminal.stdoutIsTerminal || settings.isExplicit { confirm(verb, tasks) }
        } else if settings.isExplicit {
            writer.write([TaskSection(header: "", items: tasks)])
        }
    }
}

/// The list screen in a terminal: prints `TaskListReactor`'s sections, lists, selected task
/// and changes, and turns its failure pulse into a message and an exit status.
final class TaskListView: View {
    enum Purpose {
        /// Print the sections once loaded.
        case list
        /// Print the lists once loaded.
        case lists
        /// Confirm the changes the service announces, with this verb.
        case change(verb: (Task) -> String)
        /// Print the selected task (`show`).
        case show
        /// Hand the selected task on (`edit`).
        case select((Task) -> Void)
        /// Write every loaded task in an interchange format (`export`).
        case export(ExportWriter)
    }

    var disposeBag = DisposeBag()
    @Reacting var reactor: TaskListReactor?
    let screen: Screen
    let purpose: Purpose
    /// The tasks the service reported changed, in order.
    private(set) var changed: [Task] = []
    private var failed = false

    init(screen: Screen, purpose: Purpose) {
        self.screen = screen
        self.purpose = purpose
    }

    func bind(reactor: TaskListReactor) {
        reactor.pulse(\.$failure)
            .compactMap { $0 }
            .bind { [unowned self] failure in
                failed = true
                screen.fail(failure)
            }
            .disposed(by: disposeBag)

        // Loading ends: print what was loaded (nothing, when it failed).
        reactor.state.map(\.isLoading).distinctUntilChanged().skip(1).filter { !$0 }
            .bind { [unowned self, unowned reactor] _ in
                guard !failed else { return }
                switch purpose {
                case .list: printSections(reactor.currentState.sections)
                case .lists: printLists(reactor.currentState.lists ?? [])
                case .export(let writer): export(reactor.currentState.sections, with: writer)
                default: break
                }
            }
            .disposed(by: disposeBag)

        reactor.pulse(\.$applied)
            .compactMap { $0 }
            .bind { [unowned self] event in changed += TaskListView.tasks(in: event) }
            .disposed(by: disposeBag)

        reactor.pulse(\.$editing)
            .compactMap { $0 }
            .bind { [unowned self] task in
                switch purpose {
                case .show: ShowView.write(task, on: screen)
                case .select(let handle): handle(task)
                default: break
                }
            }
            .disposed(by: disposeBag)
    }

    /// After the action: confirm what changed.
    func finish() {
        guard !failed, case .change(let verb) = purpose else { return }
        if changed.isEmpty {
            if screen.speaksToPerson && screen.terminal.stdoutIsTerminal { screen.stdout.write("Nothing to change.\n") }
            return
        }
        guard screen.settings.format == .table else { return screen.report("", changed) }
        // Sentences, one group per verb (a toggle may mark some done and reopen others).
        var byVerb: [(String, [Task])] = []
        for task in changed {
            let word = verb(task)
            if let index = byVerb.firstIndex(where: { $0.0 == word }) { byVerb[index].1.append(task) } else { byVerb.append((word, [task])) }
        }
        for (word, tasks) in byVerb { screen.report(word, tasks) }
    }

    private static func tasks(in event: TaskEvent) -> [Task] {
        switch event {
        case .create(let task), .update(let task), .move(let task), .markAsDone(let task), .markAsUndone(let task),
             .delete(let task):
            return [task]
        case .batch(let events):
            return events.flatMap(tasks(in:))
        }
    }

    /// Streams the tasks out; what the format could not hold is named on stderr.
    private func export(_ sections: [TaskSection], with writer: ExportWriter) {
        var writer = writer
        screen.stdout.write(sections, with: &writer)
        if !writer.notKeptLines.isEmpty && !screen.settings.quiet {
            screen.warn("\(writer.format.rawValue) has no place for: \(writer.notKeptLines.joined(separator: ", "))")
        }
    }

    private func printSections(_ sections: [TaskSection]) {
        if sections.isEmpty && screen.settings.format == .table {
            if !screen.settings.quiet { screen.stdout.write("No tasks.\n") }
            return
        }
        screen.writer.write(sections)
    }

    private func printLists(_ lists: [TaskListSummary]) {
        let output = screen.stdout
        let escapes = screen.terminal.stdoutIsTerminal
        func shown(_ text: String) -> String { escapes ? TerminalText.escapingControls(text) : text }
        switch screen.settings.format {
        case .table:
            if lists.isEmpty {
                output.write("No lists.\n")
                return
            }
            let names = lists.map { TerminalText.escapingControls($0.name) }
            let width = max(4, names.map(TerminalText.displayWidth).max() ?? 0)
            let style = Style(enabled: screen.settings.color)
            output.write(style.bold(TerminalText.padded("LIST", toWidth: width) + "  PENDING   DONE") + "\n")
            for (name, list) in zip(names, lists) {
                let pending = String(list.pending), done = String(list.done)
                output.write(TerminalText.padded(name, toWidth: width) + "  " + String(repeating: " ", count: max(0, 7 - pending.count)) + pending
                             + "  " + String(repeating: " ", count: max(0, 5 - done.count)) + done + "\n")
            }
        case .tsv, .ids:
            if screen.settings.header { output.write(TSV.line(["list", "pending", "done"])) }
            for list in lists { output.write(TSV.line([shown(list.name), String(list.pending), String(list.done)])) }
        case .csv:
            output.write(CSV.line(["list", "pending", "done"]))
            for list in lists { output.write(CSV.line([shown(list.name), String(list.pending), String(list.done)])) }
        case .json:
            let value = JSONValue.array(lists.map {
                .object([("list", .string($0.name)), ("pending", .number(Int64($0.pending))), ("done", .number(Int64($0.done)))])
            })
            output.write(shown(value.serialized()) + "\n")
        }
    }
}

/// `tasks show`: every field of one task.
enum ShowView {
    static func write(_ task: Task, on screen: Screen) {
        let output = screen.stdout
        switch screen.settings.format {
        case .table:
            let noteLines: [String] = task.notes.split(separator: "\n", omittingEmptySubsequences: false)
                .map { TerminalText.escapingControls(String($0)) }
            let notes = noteLines.joined(separator: "\n           ")
            let done: String = task.isDone ? "yes, " + (task.completed.map(TimestampText.iso8601) ?? "") : "no"
            let rows: [(String, String)] = [
                ("id", String(task.id)), ("title", TerminalText.escapingControls(task.title)),
                ("list", TerminalText.escapingControls(task.list)),
                ("done", done),
                ("due", task.due?.description ?? ""), ("priority", task.priority?.rawValue ?? ""),
                ("tags", TerminalText.escapingControls(task.tags.joined(separator: " "))), ("notes", notes),
                ("position", String(task.position)), ("created", TimestampText.iso8601(task.created)),
                ("modified", TimestampText.iso8601(task.modified)), ("uuid", task.uuid),
            ]
            for (name, value) in rows {
                var line = TerminalText.padded(name, toWidth: 9) + "  " + value
                while line.last == " " { line.removeLast() }
                output.write(line + "\n")
            }
        case .json:
            output.append { TaskJSON.append(screen.terminal.stdoutIsTerminal ? task.escapingControls() : task, to: &$0) }
            output.write("\n")
        default:
            screen.writer.write([TaskSection(header: "", items: [task])])
        }
    }
}

/// The edit screen in a terminal, for `add` and `edit`: prints what was saved, or why not.
final class TaskEditView: View {
    var disposeBag = DisposeBag()
    @Reacting var reactor: TaskEditReactor?
    let screen: Screen
    /// Titles came from stdin: a bad one is named by its line.
    let itemName: String
    /// How many tasks a submit writes (for the progress line).
    let count: Int

    init(screen: Screen, itemName: String, count: Int) {
        self.screen = screen
        self.itemName = itemName
        self.count = count
    }

    func bind(reactor: TaskEditReactor) {
        reactor.pulse(\.$validationError)
            .compactMap { $0 }
            .bind { [unowned self] error in
                if case .inItem(let number, let inner) = error {
                    screen.fail(.usage(count > 1 ? "\(itemName) \(number): \(inner); nothing was added" : inner.description))
                } else {
                    screen.fail(ErrorPresenter.present(error, databasePath: screen.databasePath))
                }
            }
            .disposed(by: disposeBag)

        reactor.pulse(\.$failure)
            .compactMap { $0 }
            .bind { [unowned self] failure in screen.fail(failure) }
            .disposed(by: disposeBag)

        // The seeds' isLoading, made visible: a progress line while a large batch is written.
        reactor.state.map(\.isSaving).distinctUntilChanged().skip(1)
            .bind { [unowned self] isSaving in
                guard count >= 1000 else { return }
                screen.progress(isSaving ? "Adding \(count) tasks…" : nil)
            }
            .disposed(by: disposeBag)

        reactor.state.filter(\.isDismissed).take(1)
            .bind { [unowned self] state in
                switch state.mode {
                case .new: printAdded(state.savedAll)  // `add` submits titles: one or many
                case .edit: if let task = state.saved { screen.report("Changed", [task]) }
                }
            }
            .disposed(by: disposeBag)
    }

    /// New ids one per line in a pipe (`id=$(tasks add t)`); sentences on a terminal.
    private func printAdded(_ tasks: [Task]) {
        if screen.settings.quiet { return }
        if screen.settings.isExplicit || screen.terminal.stdoutIsTerminal {
            screen.report("Added", tasks)
        } else {
            TaskWriter.writeIDs(tasks, to: screen.stdout)
        }
    }
}

/// The import screen: a progress line while a large file is written, then what happened —
/// with what the file held that has no place here — or why nothing was imported.
final class TaskImportView: View {
    var disposeBag = DisposeBag()
    @Reacting var reactor: TaskImportReactor?
    let screen: Screen
    let file: ImportedFile
    /// `'tasks.json'` or `stdin`, for messages.
    let source: String

    init(screen: Screen, file: ImportedFile, source: String) {
        self.screen = screen
        self.file = file
        self.source = source
    }

    func bind(reactor: TaskImportReactor) {
        reactor.pulse(\.$validationError)
            .compactMap { $0 }
            .bind { [unowned self] error in screen.fail(.usage("cannot import \(source): \(error); nothing was imported")) }
            .disposed(by: disposeBag)

        reactor.pulse(\.$failure)
            .compactMap { $0 }
            .bind { [unowned self] failure in screen.fail(failure) }
            .disposed(by: disposeBag)

        reactor.state.map(\.importing).distinctUntilChanged().skip(1)
            .bind { [unowned self] count in
                guard file.batch.records.count >= 1000 else { return }
                screen.progress(count.map { "Importing \($0) tasks…" })
            }
            .disposed(by: disposeBag)

        reactor.state.compactMap(\.result).take(1)
            .bind { [unowned self] result in printResult(result) }
            .disposed(by: disposeBag)
    }

    /// On stderr (a message, not a result): `Imported 3 tasks from 'a.json': 2 new, 1 updated.`
    private func printResult(_ result: TaskImportResult) {
        if screen.settings.quiet { return }
        if !file.skipped.isEmpty {
            screen.warn("not imported: \(file.skipped.joined(separator: ", "))"
                        + (file.skipped.contains { $0.hasPrefix("recurring") } ? " (a recurring task comes in as its pending instances)" : ""))
        }
        if !file.notKept.isEmpty {
            screen.warn("no place here for: \(file.notKept.joined(separator: ", "))")
        }
        let total = result.created + result.updated + result.unchanged
        screen.message("Imported \(total) task\(total == 1 ? "" : "s") from \(source): "
                       + "\(result.created) new, \(result.updated) updated, \(result.unchanged) unchanged.")
    }
}
