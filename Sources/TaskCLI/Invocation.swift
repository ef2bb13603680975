#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineKit
import QueryLanguage
import ReactorCore
import TextFormats
import TaskInterchange
import TaskModel
import TaskRemote
import TaskStore

/// Everything a run of `tasks` takes from its process — arguments, environment, standard
/// streams, the terminal, the clock — so that every command runs in-process in tests.
public struct Invocation {
    /// The arguments after the program's name.
    public var arguments: [String]
    public var environment: [String: String]
    public var stdin: Input
    public var stdout: Output
    public var stderr: Output
    public var terminal: TerminalFacts
    /// The clock for created/modified/completed times.
    public var now: @Sendable () -> Timestamp
    /// Today, in local time: what `today`, `+3d` and `--overdue` count from.
    public var today: () -> CalendarDay
    /// Makes uuids for new tasks; `nil` for the store's default.
    public var makeUUID: (() -> String)?
    /// Runs `$VISUAL`/`$EDITOR` on a file and returns its exit status.
    public var runEditor: (_ editor: String, _ path: String) -> Int32
    /// The local time zone, for formats that hold days (Taskwarrior's due, todo.txt's dates).
    public var localTime: LocalTime
    /// When the run began (what `tasks ui`'s trace counts from).
    public var started = MonotonicInstant.now
    /// Makes the remotes `tasks sync` talks to (PostgreSQL and CalDAV, through the helpers
    /// beside the program).
    public var remotes: any SyncRemoteMaker = RemoteMaker()
    /// Fields a program built on TaskCLI adds to the query language's built-in ones, ahead of
    /// the configuration's custom fields: entries of the vocabulary like any other, kept in
    /// `extras` (their `custom`) when a modification sets them.
    public var fields: [QueryField] = []

    public init(
        arguments: [String], environment: [String: String], stdin: Input, stdout: Output, stderr: Output,
        terminal: TerminalFacts, now: @escaping @Sendable () -> Timestamp = SystemClock.now,
        today: @escaping () -> CalendarDay = SystemClock.today, makeUUID: (() -> String)? = nil,
        runEditor: @escaping (_ editor: String, _ path: String) -> Int32 = Editor.run,
        localTime: LocalTime = .system
    ) {
        self.localTime = localTime
        self.arguments = arguments
        self.environment = environment
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.terminal = terminal
        self.now = now
        self.today = today
        self.makeUUID = makeUUID
        self.runEditor = runEditor
    }

    /// The environment variables `tasks` reads; nothing else is copied out of `environ`.
    public static let environmentKeys = ["TASKS_DB", "XDG_DATA_HOME", "HOME", "NO_COLOR", "TERM", "VISUAL", "EDITOR", "TMPDIR", "TASKS_UI_TRACE", "TASKS_MCP_TRACE", "TASKS_REMOTE", "TASKS_WEEK_START", "TASKS_ONE_ACTIVE", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "TASKS_CONTEXT"]

    /// This process's own: `CommandLine.arguments`, the variables it reads, file descriptors 0, 1 and 2.
    public static func process() -> Invocation {
        var environment: [String: String] = [:]
        for key in environmentKeys {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return Invocation(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
            stdin: .standardInput(), stdout: Output(descriptor: 1), stderr: Output(descriptor: 2),
            terminal: .current()
        )
    }
}

/// The local calendar day, from the C library's idea of the time zone (`TZ`, /etc/localtime).

/// Running the user's editor, as `git commit` does: through `sh -c`, so `EDITOR="code -w"` works.
public enum Editor {
    public static func run(_ editor: String, _ path: String) -> Int32 {
        var pid = pid_t()
        let arguments = ["sh", "-c", editor + " \"$1\"", "sh", path]
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        let result = posix_spawnp(&pid, "sh", nil, nil, &pointers, environ)
        guard result == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
