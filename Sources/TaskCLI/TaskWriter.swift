import CommandLineKit
import TextFormats
import TaskInterchange
import TaskModel
import TaskReactors

/// How results are written: `--format`, and what the terminal allows.
public enum OutputFormat: String, CaseIterable, Sendable {
    case table, tsv, csv, json, ids
}

/// The ways a task becomes text, shared by every view.
enum TaskText {
    /// The columns of `tsv` and `csv`, in order (documented in `tasks help list`).
    static let columns = ["id", "done", "list", "title", "due", "priority", "tags"]
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
                for task in section.items { writeRecord(task, field: TSV.append, separator: 0x09, end: [0x0A]) }
            }
        case .csv:
            output.write(CSV.line(TaskText.columns))
            for section in sections {
                for task in section.items { writeRecord(task, field: CSV.append, separator: 0x2C, end: [0x0D, 0x0A]) }
            }
        case .json:
            // The array `export` writes, the same bytes.
            var writer = ExportWriter(format: .json, localTime: .system)
            output.write(sections, with: &writer, escaping: escapesControls)
        case .ids:
            for section in sections {
                TaskWriter.writeIDs(section.items, to: output)
            }
        }
    }

    /// The ids alone, one per line (`--format ids`, and `add`'s output in a pipe).
    static func writeIDs(_ tasks: [Task], to output: Output) {
        for task in tasks {
            output.append { bytes in
                DecimalText.append(task.id, to: &bytes)
                bytes.append(0x0A)
            }
        }
    }

    /// One task's fields, escaped by `field`, straight into the output buffer.
    private func writeRecord(_ task: Task, field: (String, inout [UInt8]) -> Void, separator: UInt8, end: [UInt8]) {
        output.append { bytes in
            DecimalText.append(task.id, to: &bytes)
            bytes.append(separator)
            bytes.append(contentsOf: task.isDone ? TaskWriter.trueBytes : TaskWriter.falseBytes)
            bytes.append(separator)
            field(shown(task.list), &bytes)
            bytes.append(separator)
            field(shown(task.title), &bytes)
            bytes.append(separator)
            if let due = task.due { field(due.description, &bytes) }
            bytes.append(separator)
            if let priority = task.priority { field(priority.rawValue, &bytes) }
            bytes.append(separator)
            for (index, tag) in task.tags.enumerated() {
                if index > 0 { bytes.append(0x20) }
                field(shown(tag), &bytes)
            }
            bytes.append(contentsOf: end)
        }
    }

    private static let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)

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
                output.append { bytes in
                    func text(_ value: String) {
                        var value = value
                        value.withUTF8 { bytes.append(contentsOf: $0) }
                    }
                    func spaces(_ count: Int) {
                        if count > 0 { bytes.append(contentsOf: repeatElement(0x20, count: count)) }
                    }
                    if row.isDone && style.enabled { text(Style.dimOn) }
                    let lineStart = bytes.count
                    spaces(2 + idWidth - row.id.utf8.count)
                    text(row.id)
                    text(row.isDone ? "  [x]  " : "  [ ]  ")
                    if maxTitle < row.titleWidth {
                        let title = TerminalText.truncated(row.title, toWidth: maxTitle)
                        text(title)
                        spaces(maxTitle - TerminalText.displayWidth(title))
                    } else {
                        text(row.title)
                        spaces(maxTitle - row.titleWidth)
                    }
                    if hasDue {
                        spaces(2)
                        if row.due.isEmpty { spaces(10) } else { text(row.isOverdue ? style.red(row.due) : row.due) }
                    }
                    if hasPriority {
                        spaces(2)
                        if row.priority.isEmpty { spaces(1) } else { text(row.priority) }
                    }
                    if showsTags {
                        spaces(2)
                        text(maxTags < row.tagsWidth ? TerminalText.truncated(row.tags, toWidth: maxTags) : row.tags)
                    }
                    while bytes.count > lineStart && bytes.last == 0x20 { bytes.removeLast() }
                    if row.isDone && style.enabled { text(Style.reset) }
                    bytes.append(0x0A)
                }
            }
        }
    }
}

/// Terminal styles, or none.
struct Style {
    let enabled: Bool
    static let dimOn = "\u{1B}[2m", reset = "\u{1B}[0m"
    func bold(_ text: String) -> String { enabled ? "\u{1B}[1m" + text + Style.reset : text }
    func red(_ text: String) -> String { enabled ? "\u{1B}[31m" + text + "\u{1B}[39m" : text }
    func dim(_ text: String) -> String { enabled ? Style.dimOn + text + Style.reset : text }
}
