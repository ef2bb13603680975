import ReactorCore
import TaskModel
import TaskReactors

/// `toggle`, `done`, `reopen`, `delete`, `move`: what the service reported changed, confirmed
/// once the action is through (`Done 3: Buy milk`, or the records with `--format`).
final class ChangeView: CommandView, View {
    var reactor: TaskListReactor? { didSet { reactorDidChange() } }
    /// The word for each changed task: `Done` or `Reopened`, `Deleted`, `Moved`.
    private let verb: (Task) -> String
    /// The word for a task the command removed: `Deleted` for `delete`; for a reopen, the
    /// untouched next occurrence its done had made.
    private let removedVerb: String
    /// The tasks the service reported, in order, each with what happened to it.
    private var reported: [(TaskEvent.Outcome, Task)] = []

    init(context: ViewContext, verb: @escaping (Task) -> String, removedVerb: String = "Removed") {
        self.verb = verb
        self.removedVerb = removedVerb
        super.init(context: context)
    }

    func bind(reactor: TaskListReactor) {
        reactor.reportFailures(to: context.status, disposedBy: disposeBag)
        reactor.pulse { $0.$applied }.compactMap { $0 }
            .bind { [unowned self] event in reported += event.outcomes }
            .disposed(by: disposeBag)
    }

    /// After the action: confirm what changed.
    func finish() {
        guard !context.status.failed else { return }
        let console = context.console
        // A repeating task done whose schedule has no next date (past 9999-12-31): the series
        // ends here, which must not pass in silence.
        for (outcome, task) in reported where outcome == .changed && task.isDone {
            if let rule = task.repeat, rule.nextDue(after: task.due, anchor: task.anchor, doneOn: context.today()) == nil {
                console.warn("task \(task.id) repeats \(rule), but its next date would be past 9999-12-31; the series ends here")
            }
        }
        if reported.isEmpty {
            if console.speaksToPerson && console.terminal.stdoutIsTerminal { console.stdout.write("Nothing to change.\n") }
            return
        }
        guard console.settings.format == .table else { return context.printer.report("", reported.map(\.1)) }
        // Sentences, one group per verb (a toggle may mark some done and reopen others; a
        // repeating task marked done makes its next occurrence: `Next 6: Pay rent`).
        var byVerb: [(String, [Task])] = []
        for (outcome, task) in reported {
            let word: String
            switch outcome {
            case .changed: word = verb(task)
            case .made: word = "Next"
            case .removed: word = removedVerb
            }
            if let index = byVerb.firstIndex(where: { $0.0 == word }) { byVerb[index].1.append(task) } else { byVerb.append((word, [task])) }
        }
        for (word, tasks) in byVerb { context.printer.report(word, tasks) }
    }
}

extension TaskEvent {
    /// What an event did to a task, as a confirmation names it.
    enum Outcome { case made, changed, removed }

    /// The tasks the event is about, in order, each with what happened to it.
    var outcomes: [(Outcome, Task)] {
        switch self {
        case .create(let task): return [(.made, task)]
        case .update(let task), .move(let task), .markAsDone(let task), .markAsUndone(let task): return [(.changed, task)]
        case .delete(let task): return [(.removed, task)]
        case .batch(let events): return events.flatMap { $0.outcomes }
        }
    }
}
