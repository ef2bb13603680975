import ReactorCore
import TaskModel
import TaskInterchange
import TaskReactors
import TextFormats

/// `tasks show`: every field of the task `TaskEditReactor` loaded. On a terminal, aligned
/// `field  value` lines; in a pipe one `field<TAB>value` line per field (as `gh issue view`
/// prints), values escaped as in TSV; with `--format json`, one object.
final class ShowView: CommandView, View {
    var reactor: TaskEditReactor? { didSet { reactorDidChange() } }

    func bind(reactor: TaskEditReactor) {
        bindFailures(of: reactor, to: context.status, disposedBy: disposeBag)
        reactor.state.compactMap { $0.task }.take(1)
            .bind { [unowned self] task in write(task) }
            .disposed(by: disposeBag)
    }

    /// Every field, named as in JSON, as scripts read them (`done` is `true` or `false`): the
    /// id, the fields `TaskFields` shows — those a person reads first, then the rest, then the
    /// bookkeeping — and the uuid.
    static func fields(of task: Task) -> [(name: String, value: String)] {
        var fields = [("id", String(task.id))]
        for section in [TaskFieldSpec.Shown.head, .body, .tail] {
            for field in TaskFields.all where field.shown == section { fields.append((field.name, field.value(of: task).plainText)) }
        }
        fields.append(("uuid", task.uuid))
        return fields
    }

    /// The rows a person reads: `done` says when, notes keep their lines, a moment is read
    /// on the local clock (and as it was given, when that was another zone).
    static func rows(of task: Task, zone: LocalTime) -> [(name: String, value: String)] {
        let done = task.isDone ? "yes, " + (task.completed.map(TimestampText.iso8601) ?? "") : "no"
        return fields(of: task).compactMap { field in
            switch field.name {
            case "done": return ("done", done)
            case "completed": return nil
            case "notes": return ("notes", field.value.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n           "))
            default:
                guard let date = TaskField(rawValue: field.name).flatMap({ task.value(of: $0).date }), let time = date.time else { return field }
                let local = date.shown(in: zone)
                return (field.name, TaskDate(time, in: zone) == date ? local : local + " (given as \(date))")
            }
        }
    }

    private func write(_ task: Task) {
        let output = context.console.stdout
        let shown = context.console.terminal.stdoutIsTerminal ? task.escapingControls() : task
        switch context.console.settings.format {
        case .table:
            for (name, value) in ShowView.rows(of: shown, zone: context.zone) {
                var line = TerminalText.padded(name, toWidth: 9) + "  " + value
                while line.last == " " { line.removeLast() }
                output.write(line + "\n")
            }
        case .json:
            // JSON escapes every control itself: the same bytes on a terminal as in a pipe.
            output.append { TaskJSON.append(task, to: &$0) }
            output.write("\n")
        case .tsv, .csv, .ids:
            if context.console.settings.header { output.write(TSV.line(["field", "value"])) }
            for (name, value) in ShowView.fields(of: shown) { output.write(TSV.line([name, value])) }
        }
    }
}
