import ReactorCore
import TaskInterchange
import TaskModel
import TaskReactors
import TaskStore
import TaskUI

/// Sends a validated command's actions to the reactors, with its view bound.
struct Runner {
    let invocation: Invocation
    let service: TaskDatabase
    let console: Console
    let status: ExitStatus

    private var context: ViewContext { ViewContext(console: console, status: status, today: invocation.today) }

    func run(_ command: Command) {
        switch command {
        case .help, .version, .completions:
            break
        case .list(let query):
            let reactor = TaskListReactor(service: service)
            let view = ListView(context: context, writer: context.printer.writer)
            view.reactor = reactor
            reactor.action.onNext(view.stream(query))
        case .ui(let query):
            runScreens(query)
        case .next(let query, let explain):
            let reactor = TaskListReactor(service: service)
            let writer = context.printer.writer
            if explain { writer.explainsRankOn = query.today ?? invocation.today() }
            let view = NextView(context: context, writer: writer)
            view.reactor = reactor
            reactor.action.onNext(view.stream(query))
        case .lists:
            let reactor = TaskListReactor(service: service)
            let view = ListsView(context: context)
            view.reactor = reactor
            reactor.action.onNext(.loadLists)
        case .export(let format):
            let reactor = TaskListReactor(service: service)
            let view = ExportView(context: context, writer: ExportWriter(format: format, localTime: invocation.localTime))
            view.reactor = reactor
            reactor.action.onNext(ExportView.everyTask)
        case .importTasks(let file, let source):
            let reactor = TaskImportReactor(service: service)
            let view = ImportView(context: context, file: file, source: source)
            view.reactor = reactor
            reactor.action.onNext(.importTasks(file.batch))
        case .show(let id):
            let reactor = TaskEditReactor(mode: .new, service: service, today: invocation.today)
            let view = ShowView(context: context)
            view.reactor = reactor
            reactor.action.onNext(.load(id))
        case .setDone(let ids, let how):
            change(ids.isEmpty, verb: { $0.isDone ? "Done" : "Reopened" }) { reactor in
                switch how {
                case .toggle: reactor.action.onNext(.toggleTasksDone(ids))
                case .done: reactor.action.onNext(.setDone(ids, true))
                case .reopen: reactor.action.onNext(.setDone(ids, false))
                }
            }
        case .delete(let ids):
            change(ids.isEmpty, verb: { _ in "Deleted" }, removedVerb: "Deleted") { $0.action.onNext(.deleteTasks(ids)) }
        case .move(let id, let placement):
            change(false, verb: { _ in "Moved" }) { $0.action.onNext(.moveTask(id, to: placement)) }
        case .add(let titles, let fromStdin, let fields):
            let reactor = TaskEditReactor(mode: .new, service: service, today: invocation.today)
            let view = AddView(context: context, titles: (titles.count, fromStdin ? "line" : "title"))
            view.reactor = reactor
            send(fields, to: reactor)
            reactor.action.onNext(.submitTitles(titles))
        case .addLines(let lines, let fields):
            let reactor = TaskEditReactor(mode: .new, service: service, today: invocation.today)
            let view = AddView(context: context, titles: (Int.max, "line"))
            view.reactor = reactor
            send(fields, to: reactor)
            reactor.action.onNext(.submitLines(lines.next))
        case .edit(let id, let fields):
            edit(id, fields: fields)
        case .undo(let entry):
            history { $0.action.onNext(.undo(entry)) }
        case .redo:
            history { $0.action.onNext(.redo) }
        case .sync(let url, let remember):
            let reactor = TaskSyncReactor(service: service, remotes: invocation.remotes)
            let view = SyncView(context: context)
            view.reactor = reactor
            reactor.action.onNext(.sync(url: url, remember: remember))
        case .history(var query):
            if query.limit == nil && console.settings.format == .table { query.limit = 20 }
            history { [query] in $0.action.onNext(.load(query)) }
        }
    }

    /// `tasks ui`: the database opened (created when missing: a screen that stays open adds to
    /// a real file), then the screens until `q` or a signal.
    private func runScreens(_ query: TaskQuery) {
        // A locked file holds the screen for at most a second and a half, then says so.
        service.busyTimeoutMilliseconds = 1_500
        do {
            try service.open(creating: true)
        } catch {
            return status.fail(error)
        }
        console.stdout.flush()
        console.stderr.flush()
        var options = ScreenApp.Options(query: query, color: console.settings.color, today: invocation.today, databasePath: service.path,
                                        tracePath: invocation.environment["TASKS_UI_TRACE"], started: invocation.started)
        options.describe = { ErrorPresenter.present($0).message }
        let code = ScreenApp(service: service, options: options).run { console.stderr.write($0) }
        status.end(with: code)
    }

    /// The history reactor, with its view bound.
    private func history(_ send: (TaskHistoryReactor) -> Void) {
        let reactor = TaskHistoryReactor(service: service)
        let view = HistoryView(context: context, writer: HistoryWriter(console: console, localTime: invocation.localTime))
        view.reactor = reactor
        send(reactor)
    }

    /// A change through the list reactor, confirmed by a `ChangeView` once it is through.
    private func change(_ nothingGiven: Bool, verb: @escaping (Task) -> String, removedVerb: String = "Removed", _ send: (TaskListReactor) -> Void) {
        if nothingGiven {
            if console.speaksToPerson && console.terminal.stdoutIsTerminal { console.stdout.write("No ids given; nothing to change.\n") }
            return
        }
        let reactor = TaskListReactor(service: service)
        let view = ChangeView(context: context, verb: verb, removedVerb: removedVerb)
        view.reactor = reactor
        send(reactor)
        view.finish()
    }

    private func edit(_ id: Int64, fields: FieldFlags) {
        var fields = fields
        if fields.isEmpty && !(invocation.stdin.isTerminal && invocation.terminal.stdoutIsTerminal) {
            let flags = TasksSpec.editOptions.map { "--" + $0.long }.joined(separator: ", ")
            return status.fail(.usage("'edit' needs a field flag (\(flags)) when not on a terminal"))
        }
        let reactor = TaskEditReactor(mode: .new, service: service, today: invocation.today)
        let view = EditView(context: context)
        view.reactor = reactor
        reactor.action.onNext(.load(id))
        guard let task = reactor.currentState.task else { return }
        if fields.isEmpty {
            guard let edited = EditorSession(invocation: invocation).edit(task) else { return status.fail(.failure("the editor failed; nothing was changed")) }
            guard let (title, notes) = edited else {
                if !console.settings.quiet { console.stdout.write("Nothing changed.\n") }
                return
            }
            fields.title = title
            fields.notes = notes
        }
        if let title = fields.title { reactor.action.onNext(.updateTitle(title)) }
        send(fields, to: reactor)
        reactor.action.onNext(.submit)
    }

    private func send(_ fields: FieldFlags, to reactor: TaskEditReactor) {
        if let notes = fields.notes { reactor.action.onNext(.updateNotes(notes)) }
        if let list = fields.list { reactor.action.onNext(.updateList(list)) }
        if let due = fields.due { reactor.action.onNext(.updateDue(due)) }
        if let priority = fields.priority { reactor.action.onNext(.updatePriority(priority)) }
        for tag in fields.addTags { reactor.action.onNext(.addTag(tag)) }
        for tag in fields.removeTags { reactor.action.onNext(.removeTag(tag)) }
        if let rule = fields.repeatRule { reactor.action.onNext(.updateRepeat(rule)) }
        if let wait = fields.wait { reactor.action.onNext(.updateWait(wait)) }
    }
}
