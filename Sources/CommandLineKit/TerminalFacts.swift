#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the process's standard streams are connected to, and what that implies.
public struct TerminalFacts: Equatable, Sendable {
    /// Whether standard output is a terminal.
    public var stdoutIsTerminal: Bool
    /// Whether standard error is a terminal.
    public var stderrIsTerminal: Bool
    /// The terminal's width in cells, when standard output is one.
    public var width: Int?

    public init(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, width: Int?) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.width = width
    }

    /// The facts of this process, read from its file descriptors 1 and 2.
    public static func current() -> TerminalFacts {
        let stdoutIsTerminal = isatty(1) == 1
        var size = winsize()
        let width: Int? = stdoutIsTerminal && ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        return TerminalFacts(stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: isatty(2) == 1, width: width)
    }

    /// `--color` as given.
    public enum ColorChoice: String, CaseIterable, Sendable { case auto, always, never }

    /// Whether to colour standard output: never with `NO_COLOR` set (to anything) or `never`;
    /// with `auto`, only on a terminal.
    public func usesColor(_ choice: ColorChoice, environment: [String: String]) -> Bool {
        if environment["NO_COLOR"] != nil { return false }
        switch choice {
        case .always: return true
        case .never: return false
        case .auto: return stdoutIsTerminal && environment["TERM"] != "dumb"
        }
    }
}
