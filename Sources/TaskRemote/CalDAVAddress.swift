#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskModel

/// A CalDAV address: `https://[USER[:PASSWORD]@]HOST[:PORT]/PATH`. The password, when one is
/// written in it, is used for the run and never stored or printed.
public enum CalDAVAddress {
    /// Whether `address` is an http(s) address (a CalDAV remote, not PostgreSQL).
    public static func isCalDAV(_ address: String) -> Bool {
        let lower = address.trimmingWhitespace.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The origin (`https://host:port`), the path (`/` at least), and the user and password
    /// written in it; nil when it is no http(s) address with a host.
    static func split(_ address: String) -> (origin: String, path: String, user: String?, password: String?)? {
        let trimmed = address.trimmingWhitespace
        guard isCalDAV(trimmed), let schemeEnd = trimmed.firstRange(of: "://") else { return nil }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        let rest = trimmed[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        if let mark = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<mark]) }
        var user: String?
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let info = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let parts = info.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            user = parts.first.map { String($0).removingPercentEscapes }
            if parts.count == 2 { password = String(parts[1]).removingPercentEscapes }
        }
        guard !authority.isEmpty, !authority.contains(" ") else { return nil }
        return (scheme + "://" + authority, path.isEmpty ? "/" : path, user.flatMap { $0.isEmpty ? nil : $0 }, password)
    }

    /// `address` without the password written in it.
    public static func withoutPassword(_ address: String) -> String {
        let trimmed = address.trimmingWhitespace
        guard let schemeEnd = trimmed.firstRange(of: "://") else { return trimmed }
        let rest = trimmed[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return trimmed }
        let user = authority[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(trimmed[..<schemeEnd.upperBound]) + user + "@" + authority[authority.index(after: at)...] + rest[authorityEnd...]
    }

    /// The first line `command` prints (run by /bin/sh: `pass show dav`), for a password; it
    /// goes to the helper on its pipe and nowhere else.
    static func password(from command: String, remote: String) throws(TaskServiceError) -> String {
        var output: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { throw .remote(.failed("cannot make a pipe for the password command"), remote: remote) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addclose(&actions, output[0])
        posix_spawn_file_actions_addclose(&actions, output[1])
        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/bin/sh", &actions, nil, &argv, environ)
        close(output[1])
        guard started == 0 else {
            close(output[0])
            throw .remote(.failed("cannot run the password command: \(String(cString: strerror(started)))"), remote: remote)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = chunk.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        close(output[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exited == 0 else {
            throw .remote(.loginRefused("the password command failed (status \(exited))"), remote: remote)
        }
        let line = bytes.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        var text = String(decoding: line, as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}

/// Makes the remote an address names: CalDAV for http(s), PostgreSQL for the rest; with the
/// settings of the remote it was configured as (a password command, a CA file).
public struct RemoteMaker: SyncRemoteMaker {
    private let postgres: PostgresRemoteMaker
    private let settings: RemoteSettings
    private let caldavHelper: String?

    public init(postgres: PostgresRemoteMaker = PostgresRemoteMaker(), caldavHelper: String? = nil, settings: RemoteSettings = RemoteSettings()) {
        self.postgres = postgres
        self.caldavHelper = caldavHelper
        self.settings = settings
    }

    public func configured(_ settings: RemoteSettings) -> any SyncRemoteMaker {
        RemoteMaker(postgres: postgres, caldavHelper: caldavHelper, settings: settings)
    }

    public func remote(url: String) throws(TaskServiceError) -> any SyncRemote {
        guard CalDAVAddress.isCalDAV(url) else { return try postgres.remote(url: url) }
        let name = CalDAVAddress.withoutPassword(url)
        let password = try settings.passwordCommand.map { command throws(TaskServiceError) in try CalDAVAddress.password(from: command, remote: name) }
        let helper = caldavHelper ?? PostgresRemoteMaker.helperBesideProgram(named: "tasks-caldav") ?? "tasks-caldav"
        return try CalDAVRemote(address: url, helper: helper, user: settings.user, password: password, ca: settings.ca)
    }

    public func watch(url: String, node: String) throws(TaskServiceError) -> any RemoteWatch {
        guard CalDAVAddress.isCalDAV(url) else { return try postgres.watch(url: url, node: node) }
        throw TaskServiceError.remote(.failed("a CalDAV server cannot be watched; tasks sync --watch and tasks ui sync with PostgreSQL only"),
                                      remote: CalDAVAddress.withoutPassword(url))
    }
}
