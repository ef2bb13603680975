#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskModel

/// `tasks-postgres` started with a pipe to its stdin and one from its stdout: what a sync
/// (`PostgresRemote`) and a watch (`PostgresWatch`) both talk to.
struct HelperProcess {
    let pid: pid_t
    /// Our ends: we write to its stdin, read its stdout.
    let toHelper: Int32
    let fromHelper: Int32

    /// Starts `helper` (a path, else looked up on PATH). `quiet` sends its stderr to
    /// `/dev/null` (libpq's notices would land on a screen's cells).
    static func start(_ helper: String, remote name: String, quiet: Bool = false) throws(TaskServiceError) -> HelperProcess {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else {
            throw .remote(.failed("cannot make a pipe: \(String(cString: strerror(errno)))"), remote: name)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        for descriptor in input + output { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(helper), nil]
        defer { free(argv[0]) }
        var pid: pid_t = 0
        let status = helper.contains("/")
            ? posix_spawn(&pid, helper, &actions, nil, &argv, environ)
            : posix_spawnp(&pid, helper, &actions, nil, &argv, environ)
        close(input[0])
        close(output[1])
        guard status == 0 else {
            close(input[1])
            close(output[0])
            throw .remote(.helperMissing("cannot run \(helper): \(String(cString: strerror(status)))"), remote: name)
        }
        for descriptor in [input[1], output[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return HelperProcess(pid: pid, toHelper: input[1], fromHelper: output[0])
    }
}
