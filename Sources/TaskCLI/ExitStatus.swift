import TaskModel

/// A run's outcome: the worst exit status so far (0, then 1 or 2); each failure is one
/// message on stderr, in `ErrorPresenter`'s words.
final class ExitStatus {
    private(set) var code: Int32 = 0
    private let console: Console
    /// Whether the run's command changes tasks: only then may a failure say "nothing was changed".
    private let changesTasks: Bool

    init(console: Console, changesTasks: Bool = true) {
        self.console = console
        self.changesTasks = changesTasks
    }

    /// Whether something failed.
    var failed: Bool { code != 0 }
    /// Each failure, as it was said (what `tasks mcp` answers a change it ran with).
    private(set) var failures: [CLIError] = []

    func fail(_ error: CLIError) {
        failures.append(error)
        console.clearProgress()
        console.stderr.write(error.text)
        code = max(code, error.status)
    }

    func fail(_ error: TaskServiceError) { fail(ErrorPresenter.present(error, changes: changesTasks)) }

    /// Ends with `code` without a message (`tasks ui` ended by a signal: 128 + its number).
    func end(with code: Int32) { self.code = max(self.code, code) }

    func fail(_ error: TaskFieldError) { fail(ErrorPresenter.present(error)) }
}
