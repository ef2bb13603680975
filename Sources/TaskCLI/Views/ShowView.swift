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
    /// The tasks a query finds: the task's blockers and dependants, named by id in a table.
    var related: (TaskQuery) -> [Task] = { _ in [] }
    /// The custom fields declared: each a row of its own (before `extras`, which keeps them).
    var customFields: [CustomField] = []

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
    func rows(of task: Task, zone: LocalTime, now: Timestamp) -> [(name: String, value: String)] {
        let done = task.isDone ? "yes, " + (task.completed.map(TimestampText.iso8601) ?? "") : "no"
        let indent = "\n" + String(repeating: " ", count: ShowView.nameWidth + 2)
        var rows = ShowView.fields(of: task).compactMap { field -> (name: String, value: String)? in
            switch field.name {
            case "done": return ("done", done)
            case "completed": return nil
            case "notes": return ("notes", field.value.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: indent))
            case "start": return ("start", task.start.map { TaskDate($0, in: zone).shown(in: zone) + " (active)" } ?? "")
            case "spent": return ("spent", task.timeSpent(at: now) == 0 ? "" : ActiveView.duration(task.timeSpent(at: now)))
            case "depends":
                guard !task.depends.isEmpty else { return field }
                var query = TaskQuery(status: .all, grouping: .none)
                query.uuids = task.depends
                let blockers = related(query)
                let pending = blockers.filter { !$0.isDone }
                var words = blockers.map { String($0.id) + ($0.isDone ? " (done)" : "") }
                let gone = task.depends.count - blockers.count
                if gone > 0 { words.append("\(gone) not here") }
                return ("depends", words.joined(separator: ", ") + (pending.isEmpty ? "" : " — blocked"))
            case "annotations":
                let lines = task.annotations.enumerated().map { index, annotation in
                    "\(index + 1). " + TaskDate(annotation.entry, in: zone).shown(in: zone) + "  "
                        + annotation.text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: indent + "   ")
                }
                return ("annotations", lines.joined(separator: indent))
            default:
                guard let date = TaskField(rawValue: field.name).flatMap({ task.value(of: $0).date }), let time = date.time else { return field }
                let local = date.shown(in: zone)
                return (field.name, TaskDate(time, in: zone) == date ? local : local + " (given as \(date))")
            }
        }
        var dependants = TaskQuery(status: .pending, grouping: .none)
        dependants.waitingOn = task.uuid
        let blocking = related(dependants)
        if !blocking.isEmpty, let index = rows.firstIndex(where: { $0.name == "depends" }) {
            rows.insert(("blocks", blocking.map { String($0.id) }.joined(separator: ", ")), at: index + 1)
        }
        if let index = rows.firstIndex(where: { $0.name == "notes" }) {
            let customs = customFields.map { field in
                (field.name, ExtrasText.value(field.name, in: task.extras).map { field.shown($0, zone: zone) } ?? "")
            }
            rows.insert(contentsOf: customs, at: index)
        }
        return rows
    }

    /// The widest field name, `annotations`: the values line up after it.
    static let nameWidth = 11

    private func write(_ task: Task) {
        let output = context.console.stdout
        let shown = context.console.terminal.stdoutIsTerminal ? task.escapingControls() : task
        switch context.console.settings.format {
        case .table:
            for (name, value) in rows(of: shown, zone: context.zone, now: context.now()) {
                var line = TerminalText.padded(name, toWidth: max(ShowView.nameWidth, TerminalText.displayWidth(name))) + "  " + value
                while line.last == " " { line.removeLast() }
                output.write(line + "\n")
            }
        case .json:
            // JSON escapes every control itself: the same bytes on a terminal as in a pipe.
            output.append { TaskJSON.append(task, to: &$0) }
            output.write("\n")
        case .tsv, .csv, .ids:
            if context.console.settings.header { output.write(TSV.line(["field", "value"])) }
            var fields = ShowView.fields(of: shown)
            if let index = fields.firstIndex(where: { $0.name == "notes" }) {
                // A custom field as stored (`PT3H`, a Taskwarrior time), as scripts read the others.
                fields.insert(contentsOf: customFields.map { (name: $0.name, value: ExtrasText.value($0.name, in: shown.extras).map { CustomField.unquoted($0) ?? $0 } ?? "") },
                              at: index)
            }
            for (name, value) in fields { output.write(TSV.line([name, value])) }
        }
    }
}
