#if canImport(Glibc)
import Glibc
#endif
import MainLoop
import ReactorCore

/// `tasks sync` as a child process, for the screen: the network is waited on there, never on
/// the screen's loop, and what the sync changed reaches the screen as any other process's
/// commit does (the change feed), so the cursor stays on its task. A `kill -9` of either side
/// leaves the file as it was or synced: that is `tasks sync`'s own promise.
public final class ChildSync: SyncRunner {
    private let loop: EventLoop
    private let arguments: [String]
    private var subscription: (any Disposable)?

    /// `arguments[0]` is the program; the child's stdout and stderr come back here, its stdin
    /// is `/dev/null`.
    public init(loop: EventLoop, arguments: [String]) {
        self.loop = loop
        self.arguments = arguments
    }

    public func start(done: @escaping (String?) -> Void) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return done("cannot make a pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments.first ?? "", &actions, nil, argv, environ)
        close(ends[1])
        guard status == 0 else {
            close(ends[0])
            return done("cannot run \(arguments.first ?? ""): \(String(cString: strerror(status)))")
        }
        let output = ends[0]
        _ = fcntl(output, F_SETFD, FD_CLOEXEC)
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        var said: [UInt8] = []
        subscription = loop.watch(descriptor: output) { [unowned self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count > 0 {
                    if said.count < 65_536 { said += chunk[0..<count] }
                    continue
                }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
                break
            }
            // The end of its output: it has exited, or is about to.
            subscription?.dispose()
            subscription = nil
            close(output)
            var exit: Int32 = 0
            while waitpid(pid, &exit, 0) == -1 && errno == EINTR {}
            let succeeded = (exit & 0x7F) == 0 && ((exit >> 8) & 0xFF) == 0
            done(succeeded ? nil : ChildSync.reason(String(decoding: said, as: UTF8.self)))
        }
    }

    /// The first line the sync wrote, without `tasks: ` and `error: `: why it failed.
    static func reason(_ output: String) -> String {
        let line = output.split(separator: "\n").first.map(String.init) ?? "the sync failed"
        var text = Substring(line)
        for prefix in ["tasks: ", "error: "] where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
        return String(text)
    }
}
