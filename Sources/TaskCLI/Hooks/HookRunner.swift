#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineKit
import TaskInterchange
import TaskModel
import TextFormats

/// Taskwarrior's hooks, run as Taskwarrior runs them (docs/cli.md, "Hooks"): the executables
/// of the hooks folder named `on-launch*`, `on-add*`, `on-modify*` and `on-exit*`, in name
/// order, each given Taskwarrior's arguments (`api:2 args:… command:… rc:… data:… version:…`)
/// and the tasks as lines of Taskwarrior's JSON on stdin. `on-add` and `on-modify` give the
/// task back on their first line (changed or not) and may refuse the command by exiting
/// non-zero; every other line of theirs is feedback, shown on stderr.
final class HookRunner: TaskHooks {
    struct Hook: Equatable {
        let event: String
        let name: String
        let path: String
    }

    static let events = ["on-launch", "on-add", "on-modify", "on-exit"]
    /// How long a hook may run, by default (`hooks.timeout`).
    static let defaultTimeout = 10

    let hooks: [Hook]
    let arguments: [String]
    let timeout: Int
    let zone: LocalTime
    let customFields: Set<String>
    let stderr: Output
    /// The tasks the command made or changed, as the hooks left them, for `on-exit`.
    private(set) var touched: [Task] = []

    init(hooks: [Hook], arguments: [String], timeout: Int, zone: LocalTime, customFields: Set<String>, stderr: Output) {
        self.hooks = hooks
        self.arguments = arguments
        self.timeout = timeout
        self.zone = zone
        self.customFields = customFields
        self.stderr = stderr
    }

    /// The folder hooks are read from: `hooks.location`, else `$XDG_CONFIG_HOME/tasks/hooks`
    /// (`~/.config/tasks/hooks`).
    static func folder(_ configuration: Configuration, _ environment: [String: String]) -> String? {
        if let location = configuration.hooksLocation {
            guard location.hasPrefix("~/") else { return location }
            return environment["HOME"].map { $0 + location.dropFirst() }
        }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/tasks/hooks" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/tasks/hooks" }
        return nil
    }

    /// The hooks in `folder`, in the order they run: none when it does not exist (one failed
    /// `opendir`, all a command pays without hooks). A file that is not executable is listed
    /// with `runs` false (`tasks hooks` says so) and never run.
    static func found(in folder: String) -> [(hook: Hook, runs: Bool)] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var found: [(Hook, Bool)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let event = events.first(where: { name.hasPrefix($0) }) else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            found.append((Hook(event: event, name: name, path: path), access(path, X_OK) == 0))
        }
        return found.sorted { $0.0.name.utf8.lexicographicallyPrecedes($1.0.name.utf8) }
    }

    /// Taskwarrior's arguments for a run of `words` (the command line after the program's
    /// name), the command named `command`, with the configuration at `rc` and the database in
    /// the folder `data`.
    static func arguments(words: [String], command: String, rc: String, data: String) -> [String] {
        ["api:2", "args:" + (["tasks"] + words).joined(separator: " "), "command:" + command, "rc:" + rc, "data:" + data,
         "version:" + TasksSpec.version]
    }

    private func run(_ event: String, input: [String], each: (Hook, HookProcess) throws(TaskServiceError) -> Void) throws(TaskServiceError) {
        let bytes = Array(input.map { $0 + "\n" }.joined().utf8)
        for hook in hooks where hook.event == event {
            try each(hook, HookProcess.run(hook.path, arguments: arguments, input: bytes, timeout: timeout))
        }
    }

    /// Why `process` counts as a refusal, or nil when it exited 0. Refused, its first line (not
    /// a task's JSON) is the reason and its other lines are shown as feedback.
    private func refusal(_ hook: Hook, _ process: HookProcess) -> TaskServiceError? {
        if process.ending == .exited(0) { return nil }
        let reason = process.lines.firstIndex { !$0.trimmingWhitespace.isEmpty && !$0.hasPrefix("{") }
        show(process.lines.indices.filter { $0 != reason && !process.lines[$0].hasPrefix("{") }.map { process.lines[$0] })
        let first = reason.map { TerminalText.escapingControls(process.lines[$0]) }
        switch process.ending {
        case .exited(0): return nil
        case .exited(let status): return .hookRefused(hook: hook.name, reason: first ?? "it exited with status \(status)")
        case .signalled(let signal): return .hookRefused(hook: hook.name, reason: "it was ended by signal \(signal)")
        case .timedOut: return .hookRefused(hook: hook.name, reason: "it did not finish within \(timeout) s (hooks.timeout), and was stopped")
        case .notStarted(let reason): return .hookRefused(hook: hook.name, reason: "it could not be run (\(reason))")
        }
    }

    /// Shows `lines` (a hook's feedback) on stderr, each cleaned of terminal controls.
    private func show(_ lines: some Sequence<String>) {
        for line in lines where !line.trimmingWhitespace.isEmpty {
            stderr.write(TerminalText.escapingControls(line) + "\n")
        }
    }

    /// Runs the `on-launch` hooks; the first that fails refuses the command.
    func launch() throws(TaskServiceError) {
        try run("on-launch", input: []) { (hook: Hook, process: HookProcess) throws(TaskServiceError) in
            if let refused = refusal(hook, process) { throw refused }
            show(process.lines)
        }
    }

    /// Runs the `on-exit` hooks with the tasks the command made or changed; what fails is
    /// returned (the command's changes stay: they are made).
    func exit() -> TaskServiceError? {
        var failed: TaskServiceError?
        let lines = touched.map { Taskwarrior.hookLine($0, zone: zone) }
        try? run("on-exit", input: lines) { (hook: Hook, process: HookProcess) throws(TaskServiceError) in
            if let refused = refusal(hook, process) {
                failed = failed ?? refused
            } else {
                show(process.lines)
            }
        }
        return failed
    }

    func added(_ task: Task) throws(TaskServiceError) -> Task {
        try shown("on-add", task, before: nil)
    }

    func modified(_ before: Task, _ after: Task) throws(TaskServiceError) -> Task {
        try shown("on-modify", after, before: before)
    }

    /// `task` through each hook of `event` in turn, each given what the one before gave back.
    private func shown(_ event: String, _ task: Task, before: Task?) throws(TaskServiceError) -> Task {
        let sent = Taskwarrior.hookLine(task, zone: zone)
        var line = sent
        let old = before.map { Taskwarrior.hookLine($0, zone: zone) }
        var changer = ""
        for hook in hooks where hook.event == event {
            let process = HookProcess.run(hook.path, arguments: arguments, input: Array(((old.map { [$0] } ?? []) + [line]).map { $0 + "\n" }.joined().utf8),
                                          timeout: timeout)
            if let refused = refusal(hook, process) { throw refused }
            guard let json = process.lines.first, json.hasPrefix("{") else {
                show(process.lines)
                throw .hookRefused(hook: hook.name, reason: "it gave back no task (its first line must be the task's JSON)")
            }
            show(process.lines.dropFirst())
            if json != line { changer = hook.name }
            line = json
        }
        var result = task
        if task.isDeleted { return task }
        if line != sent { result = try merged(task, sentBack: line, sent: sent, by: changer) }
        touched.removeAll { $0.uuid == result.uuid }
        touched.append(result)
        return result
    }

    /// `task` with what the hooks changed in `sentBack`: each field whose value there differs
    /// from what `sent` (the task's own line) reads as. A field Taskwarrior's JSON cannot say
    /// (time spent, a repeat after completion) reads the same both ways and stays as it was.
    private func merged(_ task: Task, sentBack: String, sent: String, by hook: String) throws(TaskServiceError) -> Task {
        let theirs: Task?
        let ours: Task?
        do {
            theirs = try Taskwarrior.hookTask(sentBack, zone: zone, customFields: customFields)
            ours = try Taskwarrior.hookTask(sent, zone: zone, customFields: customFields)
        } catch {
            throw .hookRefused(hook: hook, reason: "what it gave back is not a task Taskwarrior's JSON can say: \(error)")
        }
        guard let theirs, let ours else { throw .hookRefused(hook: hook, reason: "what it gave back is not one task") }
        guard theirs.uuid == task.uuid else { throw .hookRefused(hook: hook, reason: "it changed the task's uuid") }
        var result = task
        for spec in TaskFields.all where spec.field != .position && spec.field != .modified {
            let value = spec.stored(theirs)
            if value != spec.stored(ours) { spec.set(value, on: &result) }
        }
        return result
    }
}

extension HookRunner {
    /// The commands that run no hooks: changes that arrive from elsewhere (as in Taskwarrior),
    /// the screen, and the commands about the setup itself.
    static func isHookless(_ command: String) -> Bool {
        switch command {
        case "sync", "import", "ui", "hooks", "config", "completions", "help", "version": return true
        default: return false
        }
    }

    /// Whether the store must show it each change (it has `on-add` or `on-modify` hooks).
    var showsChanges: Bool { hooks.contains { $0.event == "on-add" || $0.event == "on-modify" } }

    /// The hooks the command of `parsed` runs: none when it is `isHookless`, with
    /// `--no-hooks` or `hooks = off`, or when the folder holds none.
    static func forCommand(_ parsed: ParsedCommand, line: ParsedLine, databasePath: String) throws -> HookRunner? {
        let command = parsed.path.first ?? "list"
        guard !isHookless(command), !parsed.has(Option.noHooks) else { return nil }
        let configuration = try line.configuration()
        let environment = line.invocation.environment
        guard configuration.hooks, let folder = folder(configuration, environment) else { return nil }
        let runnable = found(in: folder).filter(\.runs).map(\.hook)
        guard !runnable.isEmpty else { return nil }
        let data = databasePath.lastIndex(of: "/").map { String(databasePath[..<$0]) } ?? "."
        return HookRunner(hooks: runnable, arguments: arguments(words: line.invocation.arguments, command: command, rc: configuration.path, data: data),
                          timeout: configuration.hooksTimeout, zone: line.invocation.localTime,
                          customFields: Set(configuration.customFields.keys), stderr: line.invocation.stderr)
    }
}
