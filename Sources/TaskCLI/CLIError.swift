import TextFormats

/// Why a command did not do what was asked, as the user reads it: one or two lines on stderr
/// starting `tasks: `, and the exit status of the contract.
struct CLIError: Error, Equatable {
    /// 1: it could not; 2: the command line or its input is wrong.
    let status: Int32
    let message: String
    /// A second line: what to do, or the usage.
    let hint: String?

    static func usage(_ message: String, hint: String? = nil) -> CLIError { CLIError(status: 2, message: message, hint: hint) }
    static func failure(_ message: String, hint: String? = nil) -> CLIError { CLIError(status: 1, message: message, hint: hint) }

    /// The text for stderr.
    var text: String {
        "tasks: " + TerminalText.escapingControls(message) + "\n" + (hint.map { "tasks: " + TerminalText.escapingControls($0) + "\n" } ?? "")
    }
}
