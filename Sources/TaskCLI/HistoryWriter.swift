import TaskModel
import TextFormats

/// The history in each output format: a table for a person, TSV and CSV rows, JSON with
/// every change, or the entry numbers alone.
struct HistoryWriter {
    let console: Console
    let localTime: LocalTime

    /// The columns of `tsv` and `csv`, in order.
    static let columns = ["entry", "time", "kind", "command", "summary", "target", "undone_by"]

    func write(_ entries: [HistoryEntry]) {
        let output = console.stdout
        let escapes = console.terminal.stdoutIsTerminal
        func shown(_ text: String) -> String { escapes ? TerminalText.escapingControls(text) : text }
        switch console.settings.format {
        case .table:
            writeTable(entries)
        case .tsv:
            if console.settings.header { output.write(TSV.line(Self.columns)) }
            for entry in entries { output.write(TSV.line(fields(of: entry).map(shown))) }
        case .csv:
            output.write(CSV.line(Self.columns))
            for entry in entries { output.write(CSV.line(fields(of: entry).map(shown))) }
        case .json:
            output.write(JSONValue.array(entries.map(Self.json)).serialized() + "\n")  // escapes every control itself
        case .ids:
            for entry in entries { output.write("\(entry.id)\n") }
        }
    }

    private func fields(of entry: HistoryEntry) -> [String] {
        [String(entry.id), TimestampText.iso8601(entry.time), Self.kindName(entry.kind), entry.command, entry.summary,
         entry.target.map(String.init) ?? "", entry.undoneBy.map(String.init) ?? ""]
    }

    private func writeTable(_ entries: [HistoryEntry]) {
        let output = console.stdout
        if entries.isEmpty {
            if !console.settings.quiet { output.write("No history yet.\n") }
            return
        }
        let style = Style(enabled: console.settings.color)
        let numbers = entries.map { "#\($0.id)" }
        let commands = entries.map { TerminalText.escapingControls($0.command) }
        let numberWidth = max(2, numbers.map { $0.count }.max() ?? 0)
        let commandWidth = min(32, max(7, commands.map(TerminalText.displayWidth).max() ?? 0))
        output.write(style.bold(TerminalText.leftPadded("#", toWidth: numberWidth) + "  WHEN              "
                                + TerminalText.padded("COMMAND", toWidth: commandWidth) + "  WHAT") + "\n")
        for (index, entry) in entries.enumerated() {
            var summary = TerminalText.escapingControls(entry.summary)
            if let undoneBy = entry.undoneBy { summary += "  (undone by #\(undoneBy))" }
            let command = TerminalText.truncated(commands[index], toWidth: commandWidth)
            var line = TerminalText.leftPadded(numbers[index], toWidth: numberWidth) + "  " + clock(entry.time) + "  "
                + TerminalText.padded(command, toWidth: commandWidth) + "  " + summary
            if let width = console.terminal.stdoutIsTerminal ? console.terminal.width : nil, TerminalText.displayWidth(line) > width {
                line = TerminalText.truncated(line, toWidth: width)
            }
            output.write((entry.undoneBy != nil ? style.dim(line) : line) + "\n")
        }
    }

    /// `2026-11-30 10:00`, local time.
    private func clock(_ time: Timestamp) -> String {
        let day = localTime.day(time)
        let minutes = Int((time.millisecondsSince1970 - localTime.midnight(day).millisecondsSince1970) / 60_000)
        let hours = String(minutes / 60), rest = String(minutes % 60)
        return "\(day) \(hours.count < 2 ? "0" + hours : hours):\(rest.count < 2 ? "0" + rest : rest)"
    }

    static func kindName(_ kind: HistoryEntry.Kind) -> String {
        switch kind {
        case .command: return "command"
        case .undo: return "undo"
        case .redo: return "redo"
        }
    }

    // MARK: - JSON

    static func json(_ entry: HistoryEntry) -> JSONValue {
        .object([
            ("entry", .number(entry.id)), ("time", .string(TimestampText.iso8601(entry.time))),
            ("kind", .string(Self.kindName(entry.kind))), ("command", .string(entry.command)), ("summary", .string(entry.summary)),
            ("target", entry.target.map(JSONValue.number) ?? .null), ("undoneBy", entry.undoneBy.map(JSONValue.number) ?? .null),
            ("changes", .array(entry.changes.map(json))),
        ])
    }

    static func json(_ change: HistoryChange) -> JSONValue {
        let kind: String
        switch change.kind {
        case .created: kind = "created"
        case .changed: kind = "changed"
        case .deleted: kind = "deleted"
        case .purged: kind = "purged"
        }
        var members: [(String, JSONValue)] = [("kind", .string(kind)), ("task", .number(change.taskID))]
        if change.taskCount > 1 { members.append(("lastTask", .number(change.lastTaskID))) }
        members.append(("uuid", change.uuid.map(JSONValue.string) ?? .null))
        members.append(("fields", .object(change.fields.map { ($0.field.rawValue, .object([("before", json($0.before)), ("after", json($0.after))])) })))
        return .object(members)
    }

    static func json(_ value: FieldValue) -> JSONValue {
        switch value {
        case .none: return .null
        case .text(let text): return .string(text)
        case .flag(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .day(let day): return .string(day.description)
        case .date(let date): return .string(date.description)
        case .priority(let priority): return .string(priority.rawValue)
        case .tags(let tags): return .array(tags.map(JSONValue.string))
        case .time(let time): return .string(TimestampText.iso8601(time))
        case .annotations(let annotations):
            return .array(annotations.map { .object([("entry", .string(TimestampText.iso8601($0.entry))), ("text", .string($0.text))]) })
        }
    }
}
