import CommandLineKit
import TextFormats

/// A run's standard streams and how it speaks through them: the output settings, what the
/// terminal allows, messages and warnings on stderr, and a progress line on a terminal.
final class Console {
    let stdout: Output
    let stderr: Output
    let settings: OutputSettings
    let terminal: TerminalFacts
    private var progressShown = false

    init(stdout: Output, stderr: Output, settings: OutputSettings, terminal: TerminalFacts) {
        self.stdout = stdout
        self.stderr = stderr
        self.settings = settings
        self.terminal = terminal
    }

    /// `text` as it may be written to stdout: on a terminal with every control character,
    /// bidirectional override and invisible character shown visibly (`TerminalText.escapingControls`:
    /// what another client, a peer or a file wrote never reaches the terminal as a sequence);
    /// in a pipe the bytes as they are. Lines stay lines.
    func shown(_ text: String) -> String {
        guard terminal.stdoutIsTerminal else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escapingControls(String($0)) }.joined(separator: "\n")
    }

    /// Human sentences (not records) go to a terminal, or wherever `--format table` was asked.
    var speaksToPerson: Bool { settings.format == .table && !settings.quiet }

    /// A line for a person on stderr (a summary), after any progress line is cleared.
    func message(_ text: String) {
        clearProgress()
        stderr.write(TerminalText.escapingControls(text) + "\n")
    }

    /// `tasks: warning: …` on stderr. What a file held is shown with its controls escaped.
    func warn(_ text: String) {
        message("tasks: warning: " + text)
    }

    /// A progress line on stderr, on a terminal only; `nil` clears it.
    func progress(_ text: String?) {
        guard terminal.stderrIsTerminal else { return }
        clearProgress()
        if let text {
            stderr.write(text)
            stderr.flush()
            progressShown = true
        }
    }

    /// Clears the progress line, if one is shown.
    func clearProgress() {
        guard progressShown else { return }
        stderr.writeSequence("\r\u{1B}[K")
        stderr.flush()
        progressShown = false
    }
}
