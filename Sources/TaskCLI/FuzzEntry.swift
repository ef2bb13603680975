import CommandLineKit
import SyncWire
import TaskRemote
import TerminalKit
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
            // What needs no database is made too (help, completion scripts): it runs in-process.
            _ = try reader.read(parsed).standaloneOutput
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
        if selector >= 0xF0 { return newerInput(selector - 0xF0, rest, text) }
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

    /// The inputs added since issue 14, behind selectors 0xF0 and up (so that the kept corpus
    /// keeps its meaning): undo and history arguments, repeat rules and waits, key streams
    /// into `tasks ui`'s decoder, the sync helper's lines and fields, remote addresses.
    static func newerInput(_ selector: UInt8, _ rest: [UInt8], _ text: String) {
        switch selector % 5 {
        case 0:
            _ = try? IDParser.entry(text)
            _ = try? IDParser.count(text)
        case 1:
            let today = CalendarDay(year: 2026, month: 1, day: 31) ?? .unixEpoch
            for kind in [RepeatRule.Kind.every, .after] {
                guard let rule = RepeatRule(kind, interval: text) else { continue }
                var due: CalendarDay? = today
                for _ in 0..<24 { due = rule.nextDue(after: due, anchor: today, doneOn: today) }
                _ = rule.description
            }
            if let rule = RepeatRule(text) { _ = rule.description }
            _ = DueDate.parse(text, today: today)
        case 2:
            var decoder = KeyDecoder()
            for chunk in rest.split(separator: 0xFF, omittingEmptySubsequences: false) { _ = decoder.feed(chunk) }
            _ = decoder.flush()
        case 3:
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let fields = WireLine.decode(String(line))
                #if FUZZING
                precondition(WireLine.decode(WireLine.encode(fields)) == fields, "a wire line round trips")
                #endif
                _ = try? PostgresRemote.change(from: fields)
                if let json = fields.last, let decoded = try? SyncFieldsJSON.decode(json) {
                    _ = try? SyncFieldsJSON.decode(SyncFieldsJSON.encode(decoded))
                }
            }
        default:
            _ = RemoteAddress.withoutPassword(text)
            _ = RemoteAddress.looksValid(text)
        }
    }
}
