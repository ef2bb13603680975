#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskModel

/// One run of a hook: the executable started with its arguments, `input` written to its stdin,
/// its stdout read whole, within `timeout` seconds. Its stderr is the user's. A hook that is
/// not done in time is killed with everything it started (its own process group).
struct HookProcess {
    /// How it ended: its exit status, or the signal that ended it, or that it took too long.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        case notStarted(String)
    }

    var ending: Ending
    /// Its stdout, line by line (at most `outputLimit` bytes kept).
    var lines: [String]

    /// More than this of a hook's output is not kept (a task's JSON is a few kilobytes).
    static let outputLimit = 16 << 20

    private static func milliseconds() -> Int64 {
        var now = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    static func run(_ path: String, arguments: [String], input: [UInt8], timeout seconds: Int) -> HookProcess {
        var toHook: [Int32] = [0, 0], fromHook: [Int32] = [0, 0]
        guard pipe(&toHook) == 0 else { return HookProcess(ending: .notStarted(String(cString: strerror(errno))), lines: []) }
        guard pipe(&fromHook) == 0 else {
            close(toHook[0]); close(toHook[1])
            return HookProcess(ending: .notStarted(String(cString: strerror(errno))), lines: [])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toHook[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromHook[1], 1)
        for descriptor in toHook + fromHook { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so that a hook stopped for taking too long takes what it started with it.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, &attributes, &argv, environ)
        close(toHook[0])
        close(fromHook[1])
        guard started == 0 else {
            close(toHook[1]); close(fromHook[0])
            return HookProcess(ending: .notStarted(String(cString: strerror(started))), lines: [])
        }
        let writer = toHook[1], reader = fromHook[0]
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        var output: [UInt8] = []
        var written = 0
        var writing = true
        if input.isEmpty { close(writer); writing = false }
        let deadline = Self.milliseconds() + Int64(seconds) * 1000
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline - Self.milliseconds()
            if left <= 0 { timedOut = true; break }
            var polled = [pollfd(fd: reader, events: Int16(POLLIN), revents: 0)]
            if writing { polled.append(pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&polled, nfds_t(polled.count), Int32(clamping: left))
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { break }
            if writing && polled.count > 1 && polled[1].revents != 0 {
                let count = input.withUnsafeBytes { bytes -> Int in
                    guard let base = bytes.baseAddress else { return 0 }
                    return write(writer, base + written, input.count - written)
                }
                if count > 0 { written += count }
                // Done, or the hook closed its stdin (EPIPE: it reads no more, which is its right).
                if written >= input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    close(writer)
                    writing = false
                }
            }
            if polled[0].revents != 0 {
                let count = read(reader, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                if output.count < outputLimit { output.append(contentsOf: buffer[0..<min(count, outputLimit - output.count)]) }
            }
        }
        if writing { close(writer) }
        close(reader)
        if timedOut { kill(-pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = String(decoding: output, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if timedOut { return HookProcess(ending: .timedOut, lines: lines) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot import (macros).
        let signal = status & 0x7F
        return HookProcess(ending: signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal), lines: lines)
    }
}
