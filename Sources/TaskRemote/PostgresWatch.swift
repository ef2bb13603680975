#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncWire
import TaskModel

/// Other machines' syncs, heard from PostgreSQL as they commit: the helper `tasks-postgres`
/// started with `watch URL NODE` LISTENs on the remote's channel and writes a `notice` line for
/// each burst of other nodes' commits. Nothing here blocks: the helper is started and asked,
/// and `descriptor` becomes readable when it answers (a connection that takes 10 s to fail
/// freezes nobody's screen).
public final class PostgresWatch: RemoteWatch {
    public let name: String
    private var process: pid_t = 0
    private var toHelper: Int32 = -1
    private var fromHelper: Int32 = -1
    private var buffer: [UInt8] = []
    private var ended = false

    /// Starts the helper watching `address` for nodes other than `node`.
    init(address: String, node: String, helper: String) throws(TaskServiceError) {
        name = RemoteAddress.withoutPassword(address)
        let started = try HelperProcess.start(helper, remote: name, quiet: true)
        process = started.pid
        toHelper = started.toHelper
        fromHelper = started.fromHelper
        _ = fcntl(fromHelper, F_SETFL, fcntl(fromHelper, F_GETFL) | O_NONBLOCK)
        let writer = WireWriter(descriptor: toHelper)
        guard writer.send(["watch", address, node]), writer.flush() else {
            close()
            throw .remote(.failed("the helper tasks-postgres ended unexpectedly"), remote: name)
        }
    }

    deinit { close() }

    public var descriptor: Int32 { fromHelper }

    public func read() -> [RemoteNews] {
        guard !ended, fromHelper >= 0 else { return [] }
        var news: [RemoteNews] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fromHelper, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[0..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            // The end: the helper exited. What it said last is why.
            ended = true
            break
        }
        while let newline = buffer.firstIndex(of: 0x0A) {
            let fields = WireLine.decode(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
            switch fields.first {
            case "ok": news.append(.listening)
            case "notice": news.append(.changed)
            case "error":
                news.append(.ended(PostgresRemote.failure(fields, remote: name)))
                ended = true
            default:
                news.append(.ended(.remote(.failed("the helper said: \(fields.joined(separator: " "))"), remote: name)))
                ended = true
            }
            if ended { break }
        }
        if ended {
            if !news.contains(where: { if case .ended = $0 { return true } else { return false } }) {
                news.append(.ended(.remote(.failed("the helper tasks-postgres ended unexpectedly"), remote: name)))
            }
            close()
        }
        return news
    }

    /// Ends the watch: the helper sees its stdin close and exits; it is waited for.
    public func close() {
        if toHelper >= 0 { Glibc.close(toHelper) }
        if fromHelper >= 0 { Glibc.close(fromHelper) }
        toHelper = -1
        fromHelper = -1
        if process > 0 {
            // Still connecting (up to 10 s to an unreachable host) or asking: nothing is held
            // on the server, so it is ended rather than waited for.
            var status: Int32 = 0
            if waitpid(process, &status, WNOHANG) == 0 { kill(process, SIGTERM) }
            while waitpid(process, &status, 0) == -1 && errno == EINTR {}
            process = 0
        }
    }
}
