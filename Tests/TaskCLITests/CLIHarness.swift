#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import QueryLanguage
import TextFormats
import TaskCLI
import TaskInterchange
import TaskModel
import _TestSupport
import Testing

/// Runs `tasks` in-process against a database file in a temporary folder, with a fixed clock,
/// fixed uuids and a fixed today, so that every output can be compared byte for byte.
final class CLI {
    let folder = TemporaryFolder()
    let db: String
    /// How many uuids were made (a test moves it on to avoid those an import brought in).
    var uuidCount = 0
    /// 2026-11-29, a Sunday.
    static let today = CalendarDay(year: 2026, month: 11, day: 29) ?? .unixEpoch
    /// 2026-11-30T10:00:00.000Z (a day after `today`: the clock and the calendar are separate fakes).
    static let now = Timestamp(millisecondsSince1970: 1_796_032_800_000)
    /// The day this CLI's runs see (a test moves it on: "three weeks later").
    var today = CLI.today
    /// The moment this CLI's runs see (a test of times of day moves it with `today`).
    var now: Timestamp {
        get { clock.now }
        set { clock.now = newValue }
    }
    private let clock = TestClock()
    /// Fields added to the built-in vocabulary for these runs (`Invocation.fields`).
    var fields: [QueryField] = []

    init() { db = folder.file("tasks.db") }

    struct Result: Equatable, CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    /// Runs `tasks ARGUMENTS`; by default in a pipe (stdout not a terminal) on `db`, with NO_COLOR.
    @discardableResult
    func run(
        _ arguments: [String], stdin: [UInt8] = [], terminal: Bool = false, width: Int? = 80,
        environment: [String: String]? = nil, editor: ((String) -> String?)? = nil,
        conversation: ((_ stdoutSoFar: String) -> String?)? = nil
    ) -> Result {
        let stdout = Output(), stderr = Output()
        var invocation = Invocation(
            arguments: arguments,
            environment: environment ?? ["TASKS_DB": db, "HOME": folder.path, "TERM": "xterm", "NO_COLOR": "1"],
            stdin: conversation.map { next in .onDemand { next(stdout.text).map { Array($0.utf8) } } } ?? .bytes(stdin, isTerminal: terminal),
            stdout: stdout, stderr: stderr,
            terminal: TerminalFacts(stdoutIsTerminal: terminal, stderrIsTerminal: terminal, width: terminal ? width : nil),
            now: { [clock] in clock.now }, today: { [unowned self] in self.today },
            makeUUID: { [unowned self] in
                uuidCount += 1
                let digits = String(uuidCount)
                return "00000000-0000-7000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
            },
            runEditor: { _, path in
                guard let editor else { return 1 }
                let before = String(decoding: readBytes(path), as: UTF8.self)
                guard let after = editor(before) else { return 1 }
                writeBytes(path, Array(after.utf8))
                return 0
            },
            // America/New_York in winter, where the Taskwarrior and todo.txt fixtures were written.
            localTime: .fixed(offsetSeconds: -5 * 3600)
        )
        invocation.fields = fields
        let status = TasksProgram.run(invocation)
        return Result(status: status, stdout: stdout.text, stderr: stderr.text)
    }

    @discardableResult
    func run(_ arguments: String...) -> Result { run(arguments) }

    /// Runs with `text` on stdin.
    func run(_ arguments: [String], input text: String) -> Result { run(arguments, stdin: Array(text.utf8)) }

    /// The database file's bytes (with its WAL folded in), to show that a command changed nothing.
    func snapshot() -> [UInt8] { readBytes(db) + readBytes(db + "-wal") }
}

/// Compares `text` with `Fixtures/TaskCLI/NAME`; `RECORD_GOLDEN=1` rewrites the file.
func assertGolden(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if let mismatch = goldenMismatch(text, named: "TaskCLI/" + name) {
        Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
    }
}

/// The harness's clock: set by the test, read by the run (one thread at a time).
private final class TestClock: @unchecked Sendable {
    var now = CLI.now
}
