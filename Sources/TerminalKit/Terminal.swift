#if canImport(Glibc)
import Glibc
#endif
import CTerminalSupport

/// The terminal on standard input and output, taken over for a full-screen program and always
/// given back: raw mode through termios, the alternate screen, the cursor hidden, bracketed
/// paste on — and on `stop()` (idempotent) every one of them undone, the saved termios put
/// back as they were.
public final class Terminal {
    public let input: Int32
    public let output: Int32
    private var saved = termios()
    private var hasSaved = false
    /// Taken over now.
    public private(set) var isActive = false

    public init(input: Int32 = 0, output: Int32 = 1) {
        self.input = input
        self.output = output
    }

    /// Why a full-screen program cannot run here (standard input or output not a terminal,
    /// `TERM` unset or `dumb`), or nil.
    public static func unusableReason(inputIsTerminal: Bool, outputIsTerminal: Bool, term: String?) -> String? {
        if !inputIsTerminal { return "standard input is not a terminal" }
        if !outputIsTerminal { return "standard output is not a terminal" }
        guard let term, !term.isEmpty else { return "TERM is not set, so the terminal's kind is unknown" }
        if term == "dumb" { return "TERM=dumb: this terminal cannot move its cursor" }
        return nil
    }

    /// The window's size; 24 × 80 when it cannot be told.
    public var size: (rows: Int, columns: Int) {
        var rows: UInt16 = 0, columns: UInt16 = 0
        if cterminal_window_size(output, &rows, &columns) == 0 { return (24, 80) }
        return (Int(rows), Int(columns))
    }

    /// Raw mode, the alternate screen, the cursor hidden, bracketed paste on.
    public func start() throws(TerminalError) {
        if !hasSaved {
            guard tcgetattr(input, &saved) == 0 else { throw TerminalError("cannot read the terminal's settings", errno) }
            hasSaved = true
        }
        var raw = saved
        cterminal_make_raw(&raw)
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { throw TerminalError("cannot put the terminal in raw mode", errno) }
        isActive = true
        write(Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h\u{1B}[0m\u{1B}[2J".utf8))
    }

    /// Everything `start` did, undone: the main screen back, the cursor shown, cooked mode.
    public func stop() {
        guard isActive else { return }
        isActive = false
        write(Array("\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l".utf8))
        if hasSaved { _ = tcsetattr(input, TCSAFLUSH, &saved) }
    }

    /// Writes all of `bytes`, across partial writes and interruptions.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(output, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// A terminal call that failed, with the system's reason.
public struct TerminalError: Error, CustomStringConvertible {
    public let description: String

    init(_ what: String, _ code: Int32) {
        description = "\(what): \(String(cString: strerror(code)))"
    }
}
