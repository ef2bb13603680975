import CommandLineKit
import TextFormats
import TaskInterchange
import TaskModel

/// What the fuzz targets (`Fuzz/`, built by `scripts/fuzz` with libFuzzer) feed arbitrary
/// bytes to; the tests replay the kept corpus through the same functions. Nothing here opens
/// a database: the parts that read input are pure.
public enum FuzzEntry {
    /// The bytes as a command line (words split at NUL bytes, decoded with repair) and the
    /// rest after the first `\u{1}` as stdin: parsed, validated and, on error, presented.
    public static func commandLine(_ bytes: [UInt8]) {
        let split = bytes.split(separator: 1, maxSplits: 1, omittingEmptySubsequences: false)
        let words = (split.first ?? []).split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let stdin = split.count > 1 ? Array(split[1]) : []
        let invocation = Invocation(
            arguments: words, environment: ["TASKS_DB": "/nonexistent/fuzz.db"], stdin: .bytes(stdin),
            stdout: Output(), stderr: Output(),
            terminal: TerminalFacts(stdoutIsTerminal: bytes.count % 2 == 0, stderrIsTerminal: false, width: 40)
        )
        let reader = CommandReader(invocation: invocation)
        do {
            let parsed = try CommandParser(root: TasksSpec.root).parse(words)
            _ = try reader.outputSettings(parsed)
            if case .help(let path) = try reader.read(parsed) {
                _ = HelpFormatter(root: TasksSpec.root).help(for: path)
            }
        } catch {
            _ = ErrorPresenter.present(error).text
        }
    }

    /// The bytes as one of the inputs `tasks` reads, chosen by the first byte: titles or ids
    /// on stdin, the `$EDITOR` file, a due date, text for the terminal and record writers, or a
    /// file for `import` (our JSON, Taskwarrior's, todo.txt).
    public static func input(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        let text = String(decoding: rest, as: UTF8.self)
        switch selector % 8 {
        case 0:
            let lines = LineReader(input: .bytes(rest))
            while (try? lines.next()) != nil {}
        case 1: _ = try? StdinReader(input: .bytes(rest)).ids()
        case 2: _ = EditorSession.parse(text)
        case 3:
            let today = CalendarDay(year: 2026, month: 11, day: 29) ?? .unixEpoch
            if let day = DueDate.parse(text, today: today) { _ = day.description }
            _ = try? IDParser.id(text)
        case 5, 6, 7:
            // The import readers, then what they read written out in every export format.
            let zone = LocalTime.fixed(offsetSeconds: Int(selector) * 900 - 43_200)
            let file: ImportedFile?
            switch selector % 8 {
            case 5: file = try? TaskJSON.read(rest)
            case 6: file = try? Taskwarrior.read(rest, localTime: zone)
            default: file = try? TodoTxt.read(rest, localTime: zone)
            }
            let tasks = (file?.batch.records ?? []).enumerated().map { index, record in
                record.task(over: nil, id: Int64(index + 1), uuid: record.uuid ?? "", bottom: 0, now: Timestamp(millisecondsSince1970: 0))
            }
            for format in InterchangeFormat.allCases {
                var writer = ExportWriter(format: format, localTime: zone)
                var bytes: [UInt8] = []
                writer.begin(to: &bytes)
                for task in tasks { writer.append(selector & 1 == 0 ? task.escapingControls() : task, to: &bytes) }
                writer.end(to: &bytes)
            }
        default:
            _ = TerminalText.displayWidth(text)
            _ = TerminalText.truncated(TerminalText.escapingControls(text), toWidth: Int(selector % 40))
            var record: [UInt8] = []
            TSV.append(text, to: &record)
            CSV.append(text, to: &record)
            JSONValue.appendString(text, to: &record)
        }
    }
}
