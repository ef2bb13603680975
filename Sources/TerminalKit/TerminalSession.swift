#if canImport(Glibc)
import Glibc
#endif
import CTerminalSupport
import MainLoop
import ReactorCore

/// A terminal taken over for the life of a full-screen program, its input and signals turned
/// into events on an `EventLoop`: keys (decoded, a lone ESC after a 25 ms pause), resizes
/// (`SIGWINCH`), a return from `Ctrl-Z` (the terminal given back while stopped, taken again
/// on `fg`), and the end (`SIGTERM`, `SIGHUP`, `SIGINT`, or standard input closed).
public final class TerminalSession {
    public enum Event: Equatable {
        case key(Key)
        /// The window's new size.
        case resized(rows: Int, columns: Int)
        /// Back from a stop: the screen must be drawn whole again.
        case resumed
        /// A signal (or standard input closing, as `SIGHUP`) ends the program.
        case ended(signal: Int32)
    }

    public let terminal: Terminal
    private let loop: EventLoop
    private let onEvent: (Event) -> Void
    private var decoder = KeyDecoder()
    private var signalRead: Int32 = -1
    private var signalWrite: Int32 = -1
    private let watches = CompositeDisposable()
    private var escapeTimer: (any Disposable)?
    /// How long a lone ESC waits for the rest of a sequence.
    public static let escapeDelay: Duration = .milliseconds(25)

    public init(terminal: Terminal, loop: EventLoop, onEvent: @escaping (Event) -> Void) {
        self.terminal = terminal
        self.loop = loop
        self.onEvent = onEvent
    }

    deinit {
        stop()
        if signalRead >= 0 { close(signalRead) }
        if signalWrite >= 0 { close(signalWrite) }
    }

    /// Takes the terminal over and starts delivering events.
    public func start() throws(TerminalError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TerminalError("cannot make a pipe for signals", errno) }
        (signalRead, signalWrite) = (ends[0], ends[1])
        for descriptor in ends {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        guard cterminal_install_signal_pipe(signalWrite) == 0 else { throw TerminalError("cannot catch signals", errno) }
        try terminal.start()
        watches.insert(loop.watch(descriptor: terminal.input) { [weak self] in self?.readKeys() })
        watches.insert(loop.watch(descriptor: signalRead) { [weak self] in self?.readSignals() })
    }

    /// Gives the terminal back; no more events.
    public func stop() {
        watches.dispose()
        escapeTimer?.dispose()
        terminal.stop()
    }

    private func readKeys() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(terminal.input, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
        if count <= 0 {
            onEvent(.ended(signal: SIGHUP))
            return
        }
        escapeTimer?.dispose()
        for key in decoder.feed(chunk[0..<count]) { onEvent(.key(key)) }
        if decoder.isWaiting {
            escapeTimer = loop.schedule(after: Self.escapeDelay) { [weak self] in
                guard let self else { return }
                for key in decoder.flush() { onEvent(.key(key)) }
            }
        }
    }

    private func readSignals() {
        var chunk = [UInt8](repeating: 0, count: 64)
        let count = chunk.withUnsafeMutableBytes { read(signalRead, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        var resized = false
        for signal in chunk[0..<count].map(Int32.init) {
            switch signal {
            case SIGWINCH:
                resized = true
            case SIGTSTP:
                suspend()
            case SIGCONT:
                // Stopped by another hand (kill -STOP): whoever ran meanwhile may have reset it.
                try? terminal.start()
                onEvent(.resumed)
            default:
                onEvent(.ended(signal: signal))
                return
            }
        }
        if resized {
            let size = terminal.size
            onEvent(.resized(rows: size.rows, columns: size.columns))
        }
    }

    /// `Ctrl-Z` (in raw mode a key, not a signal; or `SIGTSTP` from elsewhere): the terminal
    /// given back, the process stopped; on `fg`, taken again and `.resumed` sent.
    public func suspend() {
        terminal.stop()
        cterminal_default_signal(SIGTSTP)
        raise(SIGTSTP)
        // Continued.
        _ = cterminal_install_signal_pipe(signalWrite)
        try? terminal.start()
        onEvent(.resumed)
    }
}
