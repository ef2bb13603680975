import ReactorCore
import TaskModel
import TaskReactors

/// `toggle`, `done`, `reopen`, `delete`, `move`: what the service reported changed, confirmed
/// once the action is through (`Done 3: Buy milk`, or the records with `--format`).
final class ChangeView: CommandView, View {
    var reactor: TaskListReactor? { didSet { reactorDidChange() } }
    /// The word for each changed task: `Done` or `Reopened`, `Deleted`, `Moved`.
    private let verb: (Task) -> String
    /// The tasks the service reported changed, in order.
    private var changed: [Task] = []

    init(context: ViewContext, verb: @escaping (Task) -> String) {
        self.verb = verb
        super.init(context: context)
    }

    func bind(reactor: TaskListReactor) {
        reactor.reportFailures(to: context.status, disposedBy: disposeBag)
        reactor.pulse { $0.$applied }.compactMap { $0 }
            .bind { [unowned self] event in changed += event.tasks }
            .disposed(by: disposeBag)
    }

    /// After the action: confirm what changed.
    func finish() {
        guard !context.status.failed else { return }
        let console = context.console
        if changed.isEmpty {
            if console.speaksToPerson && console.terminal.stdoutIsTerminal { console.stdout.write("Nothing to change.\n") }
            return
        }
        guard console.settings.format == .table else { return context.printer.report("", changed) }
        // Sentences, one group per verb (a toggle may mark some done and reopen others).
        var byVerb: [(String, [Task])] = []
        for task in changed {
            let word = verb(task)
            if let index = byVerb.firstIndex(where: { $0.0 == word }) { byVerb[index].1.append(task) } else { byVerb.append((word, [task])) }
        }
        for (word, tasks) in byVerb { context.printer.report(word, tasks) }
    }
}

extension TaskEvent {
    /// The tasks the event is about, in order.
    var tasks: [Task] {
        switch self {
        case .create(let task), .update(let task), .move(let task), .markAsDone(let task), .markAsUndone(let task), .delete(let task):
            return [task]
        case .batch(let events):
            return events.flatMap { $0.tasks }
        }
    }
}
