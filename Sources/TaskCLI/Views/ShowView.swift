import ReactorCore
import TaskModel
import TaskInterchange
import TaskReactors
import TextFormats

/// `tasks show`: every field of the task `TaskDetailsReactor` read, its blockers and the
/// tasks it blocks named by id. On a terminal, aligned `field  value` lines; in a pipe one
/// `field<TAB>value` line per field (as `gh issue view` prints), values escaped as in TSV;
/// with `--format json`, one object.
final class ShowView: CommandView {
    /// The custom fields declared: each a row of its own (before `extras`, which keeps them).
    var customFields: [CustomField] = []
    /// The shortest start of the uuid no other task's has, shown beside it in a table.
    var shortUUID: String?

    /// The rows a person reads (`TaskDetails`), a value's lines after the first indented.
    /// Every line of every row passes `shown` (on a terminal, escaped): annotations, custom
    /// fields and the other tasks' titles arrive from other clients as much as titles do.
    func rows(of details: TaskDetails, zone: LocalTime, now: Timestamp, shown: (String) -> String = { $0 }) -> [(name: String, value: String)] {
        let indent = "\n" + String(repeating: " ", count: ShowView.nameWidth + 2)
        return details.rows(zone: zone, now: now, customFields: customFields).map { row in
            var value = row.lines.map(shown).joined(separator: indent)
            if row.name == "uuid", let short = shortUUID, short != details.task.uuid { value += "  (" + short + " is enough)" }
            return (row.name, value)
        }
    }

    /// The widest field name, `annotations`: the values line up after it.
    static let nameWidth = 11

    func write(_ details: TaskDetails) {
        let task = details.task
        let output = context.console.stdout
        let console = context.console
        switch console.settings.format {
        case .table:
            for (name, value) in rows(of: details, zone: context.zone, now: context.now(), shown: { console.terminal.stdoutIsTerminal ? TerminalText.escapingControls($0) : $0 }) {
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
            var fields = TaskDetails.fields(of: task)
            if let index = fields.firstIndex(where: { $0.name == "notes" }) {
                // A custom field as stored (`PT3H`, a Taskwarrior time), as scripts read the others.
                fields.insert(contentsOf: customFields.map { (name: $0.name, value: ExtrasText.value($0.name, in: task.extras).map { CustomField.unquoted($0) ?? $0 } ?? "") },
                              at: index)
            }
            for (name, value) in fields { output.write(TSV.line([name, console.shown(value)])) }
        }
    }
}
