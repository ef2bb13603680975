#if canImport(Glibc)
import Glibc
#endif

/// The path of the executable `name` built beside the test bundle (`.build/debug/name`),
/// when it is there.
public func executableBesideTests(_ name: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var folder = Substring(executable)
    // The test runner is `.build/debug/tasksPackageTests.xctest` (a file or a bundle folder).
    while let slash = folder.lastIndex(of: "/") {
        folder = folder[..<slash]
        let path = folder + "/" + name
        if access(path, X_OK) == 0 { return String(path) }
        if folder.hasSuffix(".build") { break }
    }
    return nil
}

/// Starts `arguments` as a process; returns its pid.
public func spawn(_ arguments: [String]) -> pid_t? {
    var pid: pid_t = 0
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    // A test runner's threads may block or ignore signals, and a child inherits both: start it
    // with none blocked and SIGCHLD, SIGPIPE and SIGINT at their defaults, as a shell would
    // (else a shell's `wait` never hears its children end).
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGCHLD, SIGPIPE, SIGINT, SIGTERM] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let status = posix_spawn(&pid, arguments[0], nil, &attributes, &argv, environ)
    return status == 0 ? pid : nil
}

/// Waits for `pid`; its exit status, or 128 + the signal that ended it.
public func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS, spelled out: the macros are not imported.
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// What a shell script printed and how it ended.
public struct ShellResult: Equatable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs `script` with `/bin/sh` in `folder`, capturing its standard output and error in files there.
public func runShell(_ script: String, in folder: TemporaryFolder) -> ShellResult {
    let out = folder.file(".stdout"), err = folder.file(".stderr")
    let wrapped = "cd '\(folder.path)' && { \(script)\n} > '\(out)' 2> '\(err)' < /dev/null"
    let status = spawn(["/bin/sh", "-c", wrapped]).map(waitForExit) ?? 127
    return ShellResult(status: status, stdout: String(decoding: readBytes(out), as: UTF8.self),
                       stderr: String(decoding: readBytes(err), as: UTF8.self))
}

/// Starts `/bin/sh -c script` with its stdin a pipe whose write end only this process holds
/// (close-on-exec, never written): the script's `read` or `cat` sees the end of its input when
/// the write end is closed, or when this process ends however it ends — what ties a test's
/// server to the test process. The shell's pid and the write end, or nil.
public func spawnTiedToThisProcess(_ script: String) -> (pid: pid_t, keepAlive: Int32)? {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    posix_spawn_file_actions_addclose(&actions, ends[0])
    var pid: pid_t = 0
    let words: [String] = ["/bin/sh", "-c", script]
    var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let started = posix_spawn(&pid, "/bin/sh", &actions, nil, &argv, environ)
    close(ends[0])
    guard started == 0 else {
        close(ends[1])
        return nil
    }
    return (pid, ends[1])
}
