import ReactorCore
import TaskModel
import TaskReactors

/// `toggle`, `done`, `reopen`, `delete`, `move`: the change the list reactor's state says was
/// committed, confirmed (`Done 3: Buy milk`, or the records with `--format`). A one-shot
/// command prints the state `send(_:)` returned; nothing here subscribes.
struct ChangeView {
    let context: ViewContext
    /// The word for each changed task: `Done` or `Reopened`, `Deleted`, `Moved`.
    let verb: (Task) -> String
    /// The word for a task the command removed: `Deleted` for `delete`; for a reopen, the
    /// untouched next occurrence its done had made.
    let removedVerb: String
    /// The word for a task the command made: `Next` (a repeating task's next occurrence), or
    /// `Undeleted`.
    var madeVerb = "Next"

    func print(_ state: TaskListReactor.State) {
        if let failure = state.failure { return context.status.fail(failure) }
        let reported = state.change?.outcomes ?? []
        let console = context.console
        // A repeating task done whose schedule has no next date (past 9999-12-31): the series
        // ends here, which must not pass in silence.
        for (outcome, task) in reported where outcome == .changed && task.isDone {
            if let rule = task.repeat, rule.nextDue(after: task.due?.day, anchor: task.anchor, doneOn: context.today()) == nil {
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
            case .made: word = madeVerb
            case .removed: word = removedVerb
            }
            if let index = byVerb.firstIndex(where: { $0.0 == word }) { byVerb[index].1.append(task) } else { byVerb.append((word, [task])) }
        }
        for (word, tasks) in byVerb { context.printer.report(word, tasks) }
    }
}
