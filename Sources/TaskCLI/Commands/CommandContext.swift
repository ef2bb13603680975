import QueryLanguage
import ReactorCore
import TaskModel
import TaskReactors
import TaskStore
import TextFormats

/// What a command runs with: the run's invocation, the database (opened on first use), the
/// console and the exit status its views report to — and the steps several commands share.
struct CommandContext {
    let invocation: Invocation
    let service: SQLiteTaskService
    let console: Console
    let status: ExitStatus
    /// The run's dates (`ParsedLine.dates()`: resolved once, on first use; a command that
    /// reads no date never reads the configuration for them).
    var dates: () -> DateContext = { DateContext.on(SystemClock.today()) }

    /// What a view prints with.
    var view: ViewContext {
        var view = ViewContext(console: console, status: status, today: invocation.today, now: invocation.now, zone: invocation.localTime)
        if !console.settings.colorRules.isEmpty {
            view.othersMatching = { [service, invocation] filter, ids in
                (try? service.ids(among: ids, matching: filter, today: invocation.today(), now: TaskDate.reading(invocation.now(), in: invocation.localTime, today: invocation.today()))) ?? []
            }
        }
        return view
    }

    /// The editor reactor on this database (new tasks, or one task loaded).
    /// Whether a command that succeeded says so: on a terminal, without `--quiet`.
    var speaks: Bool { !console.settings.quiet && invocation.terminal.stdoutIsTerminal }

    /// Runs `body`; what it throws is the run's failure (a `CLIError` as it is, anything else
    /// as a failure in its own words). For commands that work on files, not reactors.
    func reporting(_ body: () throws -> Void) {
        do {
            try body()
        } catch let error as CLIError {
            status.fail(error)
        } catch {
            status.fail(.failure("\(error)"))
        }
    }

    func editReactor() -> TaskEditReactor {
        TaskEditReactor(mode: .new, service: service, dates: dates)
    }

    /// The history reactor, with its view bound.
    func history(_ send: (TaskHistoryReactor) -> Void) {
        let reactor = TaskHistoryReactor(service: service)
        let view = HistoryView(context: self.view, writer: HistoryWriter(console: console, localTime: invocation.localTime))
        view.reactor = reactor
        send(reactor)
    }

    /// A change of tasks by id through the list reactor — `toggle`, `done`, `reopen`,
    /// `delete`, `move` — confirmed by a `ChangeView` from the state `send` returns.
    func change(_ nothingGiven: Bool, _ action: TaskListReactor.Action, verb: @escaping (Task) -> String, removedVerb: String = "Removed",
                madeVerb: String = "Next") {
        if nothingGiven {
            if console.speaksToPerson && console.terminal.stdoutIsTerminal { console.stdout.write("No ids given; nothing to change.\n") }
            return
        }
        let state = TaskListReactor(service: service).send(action)
        ChangeView(context: view, verb: verb, removedVerb: removedVerb, madeVerb: madeVerb).print(state)
    }

    /// A change of the tasks `selection` names: by id as `change(_:_:verb:)`; by a filter, the
    /// tasks it chooses read first — none is status 1, and on a terminal more than three ask
    /// before anything is written (`--yes` does not ask; a pipe never does).
    func change(_ selection: Selection, _ action: ([Int64]) -> TaskListReactor.Action, verb: @escaping (Task) -> String,
                removedVerb: String = "Removed", madeVerb: String = "Next", asking question: String) {
        guard let query = selection.query else {
            return change(selection.ids.isEmpty, action(selection.ids), verb: verb, removedVerb: removedVerb, madeVerb: madeVerb)
        }
        guard let ids = choose(query, yes: selection.yes || selection.byIDs, always: selection.asksAlways, question: question) else { return }
        change(false, action(ids), verb: verb, removedVerb: removedVerb, madeVerb: madeVerb)
    }

    /// The ids of the tasks `query` selects, once the person at the terminal agreed (nil: none
    /// matched, the read failed, or the answer was no; the status says which).
    func choose(_ query: TaskQuery, yes: Bool, always: Bool = false, question: String) -> [Int64]? {
        let state = TaskListReactor(service: service).send(.choose(query))
        if let failure = state.failure {
            status.fail(failure)
            return nil
        }
        let tasks = state.chosen ?? []
        guard !tasks.isEmpty else {
            status.fail(.failure("no task matches the filter; nothing was changed"))
            return nil
        }
        // A short uuid names one task, as an id does — but uuids here begin with the time they
        // were made, so the tasks made in the same moment share their first digits (300 tasks
        // imported in five seconds share eight). One that begins several chosen tasks' uuids
        // is refused before anything is written, never taken as all of them.
        for prefix in query.filter?.uuidPrefixes ?? [] where prefix.utf8.count < 36 {
            let sharing = tasks.lazy.filter { $0.uuid.lowercased().hasPrefix(prefix) }.count
            if sharing > 1 {
                status.fail(.usage("'\(prefix)' begins the uuids of \(sharing) tasks; nothing was changed",
                                   hint: "give more of the uuid, or the task's id ('tasks list' shows them)"))
                return nil
            }
        }
        if yes || (tasks.count <= 3 && !always) || !(invocation.stdin.isTerminal && invocation.terminal.stdoutIsTerminal) { return tasks.map(\.id) }
        var text = tasks.count == 1 ? "1 task matches:\n" : "\(tasks.count) tasks match:\n"
        for task in tasks.prefix(5) { text += "  \(task.id)  \(TerminalText.escapingControls(task.title))\n" }
        if tasks.count > 5 { text += "  … and \(tasks.count - 5) more\n" }
        text += "\(question) \(tasks.count == 1 ? "this task" : "these \(tasks.count) tasks")? (y/n) "
        console.stdout.write(text)
        console.stdout.flush()
        let answer = (try? LineReader(input: invocation.stdin).next()).flatMap { $0 }?.trimmingWhitespace.lowercased()
        guard answer == "y" || answer == "yes" else {
            status.fail(.failure("nothing was changed"))
            return nil
        }
        return tasks.map(\.id)
    }

    /// Task `id` loaded into an editor reactor, `changes(task)` and `fields` sent, and
    /// submitted: one edit (`append`, `annotate`, `denotate`), shown as `edit` shows its change.
    func edit(_ id: Int64, fields: FieldFlags = FieldFlags(), _ changes: (Task) -> [TaskEditReactor.Action]) {
        let reactor = editReactor()
        let view = EditView(context: self.view)
        view.reactor = reactor
        reactor.action.onNext(.load(id))
        guard let task = reactor.currentState.task else { return }
        for action in changes(task) { reactor.action.onNext(action) }
        if !fields.isEmpty { send(fields, to: reactor) }
        reactor.action.onNext(.submit)
    }

    /// The field flags as the editor reactor's actions, in the order the form has them.
    func send(_ fields: FieldFlags, to reactor: TaskEditReactor) {
        if let notes = fields.notes { reactor.action.onNext(.updateNotes(notes)) }
        if let list = fields.list { reactor.action.onNext(.updateList(list)) }
        for field in TaskFields.form {
            switch field {
            case .tags:
                for tag in fields.addTags { reactor.action.onNext(.addTag(tag)) }
                for tag in fields.removeTags { reactor.action.onNext(.removeTag(tag)) }
            case .repeat:
                if let rule = fields.repeatRule { reactor.action.onNext(.updateRepeat(rule)) }
            default:
                if let text = fields.typed[field] { reactor.action.onNext(.update(field, text)) }
            }
        }
        if !fields.dependencies.isEmpty { reactor.action.onNext(.updateDependencies(fields.dependencies)) }
        for value in fields.customs { reactor.action.onNext(.setCustom(value)) }
    }
}
