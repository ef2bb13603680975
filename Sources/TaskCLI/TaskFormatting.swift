import CommandLineKit
import TaskKit

/// How results are written: `--format`, and what the terminal allows.
public enum OutputFormat: String, CaseIterable, Sendable {
    case table, tsv, csv, json, ids
}

/// The ways a task becomes text, shared by every view.
enum TaskText {
    /// The columns of `tsv` and `csv`, in order (documented in `tasks help list`).
    static let columns = ["id", "done", "list", "title", "due", "priority", "tags"]

    static func fields(of task: Task) -> [String] {
        [String(task.id), task.isDone ? "true" : "false", task.list, task.title, task.due?.description ?? "",
         task.priority?.rawValue ?? "", task.tags.joined(separator: " ")]
    }

    /// The task as `json` and `export` write it: every field of the contract.
    static func json(_ task: Task) -> JSONValue {
        .object([
            ("id", .number(task.id)),
            ("uuid", .string(task.uuid)),
            ("title", .string(task.title)),
            ("notes", .string(task.notes)),
            ("list", .string(task.list)),
            ("done", .bool(task.isDone)),
            ("completed", task.completed.map { .string(iso8601($0)) } ?? .null),
            ("due", task.due.map { .string($0.description) } ?? .null),
            ("priority", task.priority.map { .string($0.rawValue) } ?? .null),
            ("tags", .array(task.tags.map(JSONValue.string))),
            ("position", .number(task.position)),
            ("created", .string(iso8601(task.created))),
            ("modified", .string(iso8601(task.modified))),
        ])
    }

    /// `2026-11-29T23:44:46.123Z`: ISO 8601 in UTC, to the millisecond.
    static func iso8601(_ time: Timestamp) -> String {
        let milliseconds = time.millisecondsSince1970
        let (days, rest) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let dayCount = rest < 0 ? days - 1 : days
        let ofDay = rest < 0 ? rest + 86_400_000 : rest
        let day = CalendarDay(daysSince1970: Int(dayCount))?.description ?? "0000-01-01"
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let hours = ofDay / 3_600_000, minutes = ofDay / 60_000 % 60, seconds = ofDay / 1000 % 60, millis = ofDay % 1000
        return "\(day)T\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))Z"
    }
}

/// Writes tasks in one of the formats, streaming row by row.
struct TaskWriter {
    let output: Output
    let format: OutputFormat
    /// `--header` for tsv.
    let header: Bool
    /// Standard output is a terminal: cut long titles to `width`, escape controls in every format.
    let terminalWidth: Int?
    let escapesControls: Bool
    let style: Style
    let today: CalendarDay?

    /// Prints `sections` (for `table`, under their headers; for the rest, row after row).
    func write(_ sections: [TaskSection]) {
        switch format {
        case .table: writeTable(sections)
        case .tsv:
            if header { output.write(TSV.line(TaskText.columns)) }
            for section in sections {
                for task in section.items { output.write(TSV.line(TaskText.fields(of: task).map(shown))) }
            }
        case .csv:
            output.write(CSV.line(TaskText.columns))
            for section in sections {
                for task in section.items { output.write(CSV.line(TaskText.fields(of: task).map(shown))) }
            }
        case .json:
            output.write("[")
            var first = true
            for section in sections {
                for task in section.items {
                    var text = first ? "\n" : ",\n"
                    first = false
                    TaskText.json(task).write(to: &text)
                    output.write(shown(text))
                }
            }
            output.write(first ? "]\n" : "\n]\n")
        case .ids:
            for section in sections {
                for task in section.items { output.write(String(task.id) + "\n") }
            }
        }
    }

    /// Text as it may reach standard output: controls escaped when that is a terminal.
    private func shown(_ text: String) -> String {
        escapesControls ? TerminalText.escapingControls(text) : text
    }

    // MARK: - Table

    private struct Row {
        var id: String
        var title: String
        var titleWidth: Int
        var due: String
        var priority: String
        var tags: String
        var tagsWidth: Int
        var isDone: Bool
        var isOverdue: Bool
    }

    private func writeTable(_ sections: [TaskSection]) {
        var idWidth = 2, titleWidth = 0, tagsWidth = 0
        var hasDue = false, hasPriority = false
        let rows: [[Row]] = sections.map { section in
            section.items.map { task in
                let title = TerminalText.escapingControls(task.title)
                let tags = TerminalText.escapingControls(task.tags.map { "+" + $0 }.joined(separator: " "))
                let row = Row(
                    id: String(task.id), title: title, titleWidth: TerminalText.displayWidth(title),
                    due: task.due?.description ?? "", priority: task.priority?.rawValue ?? "",
                    tags: tags, tagsWidth: TerminalText.displayWidth(tags), isDone: task.isDone,
                    isOverdue: !task.isDone && today.map { day in task.due.map { $0 < day } ?? false } ?? false
                )
                idWidth = max(idWidth, row.id.utf8.count)
                titleWidth = max(titleWidth, row.titleWidth)
                tagsWidth = max(tagsWidth, row.tagsWidth)
                hasDue = hasDue || !row.due.isEmpty
                hasPriority = hasPriority || !row.priority.isEmpty
                return row
            }
        }
        // On a terminal, fit the width: cut the tags, then drop them, then cut the titles.
        var maxTitle = titleWidth
        var maxTags = tagsWidth
        var showsTags = tagsWidth > 0
        if let width = terminalWidth {
            let fixed = 2 + idWidth + 2 + 3 + 2 + (hasDue ? 12 : 0) + (hasPriority ? 3 : 0)
            let room = width - fixed
            if showsTags && titleWidth + 2 + tagsWidth > room {
                maxTags = min(tagsWidth, max(0, room - 2 - min(titleWidth, 16)))
                if maxTags < 6 { showsTags = false }
            }
            let titleRoom = room - (showsTags ? 2 + maxTags : 0)
            if titleWidth > titleRoom { maxTitle = max(8, titleRoom) }
        }
        for (section, sectionRows) in zip(sections, rows) {
            let name = TerminalText.escapingControls(section.header.isEmpty ? "Tasks" : section.header)
            output.write(style.bold("\(name) (\(section.items.count))") + "\n")
            for row in sectionRows {
                var line = "  " + String(repeating: " ", count: idWidth - row.id.utf8.count) + row.id
                line += row.isDone ? "  [x]" : "  [ ]"
                let title = maxTitle < row.titleWidth ? TerminalText.truncated(row.title, toWidth: maxTitle) : row.title
                var rest = "  " + TerminalText.padded(title, toWidth: maxTitle)
                if hasDue {
                    let due = row.due.isEmpty ? String(repeating: " ", count: 10) : row.due
                    rest += "  " + (row.isOverdue ? style.red(due) : due)
                }
                if hasPriority { rest += "  " + (row.priority.isEmpty ? " " : row.priority) }
                if showsTags {
                    rest += "  " + (maxTags < row.tagsWidth ? TerminalText.truncated(row.tags, toWidth: maxTags) : row.tags)
                }
                line += rest
                while line.last == " " { line.removeLast() }
                output.write((row.isDone ? style.dim(line) : line) + "\n")
            }
        }
    }
}

/// Terminal styles, or none.
struct Style {
    let enabled: Bool
    func bold(_ text: String) -> String { enabled ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
    func dim(_ text: String) -> String { enabled ? "\u{1B}[2m" + text + "\u{1B}[0m" : text }
    func red(_ text: String) -> String { enabled ? "\u{1B}[31m" + text + "\u{1B}[39m" : text }
}
