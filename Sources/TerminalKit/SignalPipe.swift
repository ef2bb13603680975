#if canImport(Glibc)
import Glibc
#endif
import CTerminalSupport

/// Signals as bytes on a pipe an event loop watches, for a program with no screen that runs
/// until it is told to stop (`tasks sync --watch`): the handler only writes the signal's
/// number, so nothing but `write(2)` runs inside it. `Ctrl-Z` still stops the program.
public final class SignalPipe {
    public let descriptor: Int32
    private let writeEnd: Int32

    public init() throws(TerminalError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TerminalError("cannot make a pipe for signals", errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
        guard cterminal_install_signal_pipe(writeEnd) == 0 else { throw TerminalError("cannot catch signals", errno) }
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// The signals that ask the program to end (`SIGTERM`, `SIGINT`, `SIGHUP`) that arrived;
    /// a `SIGTSTP` stops the program here as it would without the pipe.
    public func drain() -> [Int32] {
        var chunk = [UInt8](repeating: 0, count: 64)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        var ending: [Int32] = []
        for signal in chunk[0..<count].map(Int32.init) {
            switch signal {
            case SIGTSTP:
                cterminal_default_signal(SIGTSTP)
                raise(SIGTSTP)
                // Continued: catch it again.
                _ = cterminal_install_signal_pipe(writeEnd)
            case SIGTERM, SIGINT, SIGHUP:
                ending.append(signal)
            default:
                break
            }
        }
        return ending
    }
}
