#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineKit
import ReactorCore
import TaskInterchange
import TaskKit

/// One run of `tasks`: words in, exit status out. Parse, then validate, then run: a usage
/// error never opens the database. Commands become actions of `TaskListReactor` or
/// `TaskEditReactor`; views print their state.
public enum TasksProgram {
    /// Runs `invocation` and returns the exit status (0, 1 or 2).
    public static func run(_ invocation: Invocation) -> Int32 {
        let status = runUnflushed(invocation)
        invocation.stdout.flush()
        invocation.stderr.flush()
        return status
    }

    private static func runUnflushed(_ invocation: Invocation) -> Int32 {
        let parser = CommandParser(root: TasksSpec.root)
        let reader = CommandReader(invocation: invocation)
        let parsed: ParsedCommand
        let command: Command
        let settings: OutputSettings
        do {
            parsed = try parser.parse(invocation.arguments)
            settings = try reader.outputSettings(parsed)
            command = try reader.read(parsed)
        } catch {
            let presented = ErrorPresenter.present(error, databasePath: nil)
            invocation.stderr.write(presented.text)
            return presented.status
        }

        switch command {
        case .help(let path):
            invocation.stdout.write(HelpFormatter(root: TasksSpec.root).help(for: path))
            return 0
        case .version:
            invocation.stdout.write("tasks \(TasksSpec.version)\n")
            return 0
        case .completions(let shell):
            let script = CompletionScript(root: TasksSpec.root, forwarding: ["db"])
            switch shell {
            case .bash: invocation.stdout.write(script.bash())
            case .zsh: invocation.stdout.write(script.zsh())
            case .fish: invocation.stdout.write(script.fish())
            }
            return 0
        default:
            break
        }

        let path: String
        do {
            path = try DatabaseLocation.path(option: parsed.value("db"), environment: invocation.environment)
        } catch {
            let presented = ErrorPresenter.present(error, databasePath: nil)
            invocation.stderr.write(presented.text)
            return presented.status
        }
        let service = DatabaseService(path: path, now: invocation.now, makeUUID: invocation.makeUUID)
        let screen = Screen(stdout: invocation.stdout, stderr: invocation.stderr, settings: settings,
                            terminal: invocation.terminal, today: invocation.today, databasePath: path)
        Runner(invocation: invocation, service: service, screen: screen).run(command)
        if screen.status != 0 { service.removeCreatedFile() }
        return screen.status
    }
}

/// Sends a validated command's actions to the reactors, with their views bound.
struct Runner {
    let invocation: Invocation
    let service: DatabaseService
    let screen: Screen

    func run(_ command: Command) {
        switch command {
        case .help, .version, .completions:
            break
        case .export(let format):
            withList(.export(ExportWriter(format: format, localTime: invocation.localTime,
                                          escapingControls: invocation.terminal.stdoutIsTerminal))) {
                $0.action.onNext(.refresh(TaskQuery(status: .all, sort: .id, grouping: .none)))
            }
        case .importTasks(let file, let source):
            let reactor = TaskImportReactor(service: service)
            let view = TaskImportView(screen: screen, file: file, source: source)
            view.reactor = reactor
            reactor.action.onNext(.importTasks(file.batch))
        case .list(let query):
            withList(.list) { $0.action.onNext(.refresh(query)) }
        case .lists:
            withList(.lists) { $0.action.onNext(.loadLists) }
        case .show(let id):
            withList(.show) { $0.action.onNext(.selectTask(id)) }
        case .setDone(let ids, let how):
            if ids.isEmpty {
                if screen.speaksToPerson && screen.terminal.stdoutIsTerminal { screen.stdout.write("No ids given; nothing to change.\n") }
                return
            }
            withList(.change(verb: { $0.isDone ? "Done" : "Reopened" })) { reactor in
                switch how {
                case .toggle: reactor.action.onNext(.toggleTasksDone(ids))
                case .done: reactor.action.onNext(.setDone(ids, true))
                case .reopen: reactor.action.onNext(.setDone(ids, false))
                }
            }
        case .delete(let ids):
            if ids.isEmpty { return }
            withList(.change(verb: { _ in "Deleted" })) { $0.action.onNext(.deleteTasks(ids)) }
        case .move(let id, let placement):
            withList(.change(verb: { _ in "Moved" })) {
                $0.action.onNext(.moveTask(id, to: placement))
            }
        case .add(let titles, let fromStdin, let fields):
            add(titles, fromStdin: fromStdin, fields: fields)
        case .edit(let id, let fields):
            edit(id, fields: fields)
        }
    }

    private func withList(_ purpose: TaskListView.Purpose, _ send: (TaskListReactor) -> Void) {
        let reactor = TaskListReactor(service: service)
        let view = TaskListView(screen: screen, purpose: purpose)
        view.reactor = reactor
        send(reactor)
        view.finish()
    }

    private func add(_ titles: [String], fromStdin: Bool, fields: FieldFlags) {
        let reactor = TaskEditReactor(mode: .new, service: service, today: invocation.today)
        let view = TaskEditView(screen: screen, itemName: fromStdin ? "line" : "title", count: titles.count)
        view.reactor = reactor
        send(fields, to: reactor)
        reactor.action.onNext(.submitTitles(titles))
    }

    private func edit(_ id: Int64, fields: FieldFlags) {
        var fields = fields
        if fields.isEmpty {
            guard invocation.stdin.isTerminal && invocation.terminal.stdoutIsTerminal else {
                screen.fail(.usage("'edit' needs a field flag (--title, --notes, --list, --due, --priority, --tag) when not on a terminal"))
                return
            }
        }
        var selected: Task?
        withList(.select { selected = $0 }) { $0.action.onNext(.selectTask(id)) }
        guard let task = selected else { return }
        if fields.isEmpty {
            guard let edited = EditorSession(invocation: invocation).edit(task) else { return screen.fail(.failure("the editor failed; nothing was changed")) }
            guard let (title, notes) = edited else {
                if !screen.settings.quiet { screen.stdout.write("Nothing changed.\n") }
                return
            }
            fields.title = title
            fields.notes = notes
        }
        let reactor = TaskEditReactor(mode: .edit(task), service: service, today: invocation.today)
        let view = TaskEditView(screen: screen, itemName: "title", count: 1)
        view.reactor = reactor
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
    }
}
