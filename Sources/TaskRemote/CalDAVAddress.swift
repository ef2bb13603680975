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
        var rest = trimmed[schemeEnd.upperBound...]
        var user: String?
        var password: String?
        if let at = userEnd(rest) {
            let parts = rest[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            user = parts.first.map { String($0).removingPercentEscapes }
            if parts.count == 2 { password = String(parts[1]).removingPercentEscapes }
            rest = rest[rest.index(after: at)...]
        }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        if let mark = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<mark]) }
        guard !authority.isEmpty, !authority.contains(" ") else { return nil }
        return (scheme + "://" + authority, path.isEmpty ? "/" : path, user.flatMap { $0.isEmpty ? nil : $0 }, password)
    }

    /// The host of a plain `http://` address to another machine — one a password would cross
    /// the network to unencrypted; nil for https, and for the loopback (127.0.0.0/8, ::1,
    /// localhost).
    public static func inTheClear(_ address: String) -> String? {
        guard let parts = split(address), parts.origin.hasPrefix("http://") else { return nil }
        var host = parts.origin.dropFirst("http://".count)
        if host.hasPrefix("[") { host = host.dropFirst().prefix { $0 != "]" } } else { host = host.prefix { $0 != ":" } }
        let lower = host.lowercased()
        if lower == "localhost" || lower.hasSuffix(".localhost") || lower == "::1" { return nil }
        let octets = lower.split(separator: ".", omittingEmptySubsequences: false)
        if octets.count == 4, octets.first == "127", octets.allSatisfy({ UInt8($0) != nil }) { return nil }
        return String(host)
    }

    /// `address` without the password written in it.
    public static func withoutPassword(_ address: String) -> String {
        let trimmed = address.trimmingWhitespace
        guard let schemeEnd = trimmed.firstRange(of: "://") else { return trimmed }
        let rest = trimmed[schemeEnd.upperBound...]
        guard let at = userEnd(rest) else { return trimmed }
        let user = rest[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(trimmed[..<schemeEnd.upperBound]) + user + "@" + rest[rest.index(after: at)...]
    }

    /// Where the user part of `rest` (the address after `://`) ends, if it has one: at the
    /// last `@` of the authority as RFC 3986 bounds it (by `/`, `?` or `#`); or, for a password
    /// written with `/`, `?` or `#` in it unescaped (`me:pa#ss@host`), at the first `@` when what
    /// comes before the first of those is `USER:PASSWORD` and not `HOST:PORT`. Such an address
    /// is read as its writer meant, and its password is neither sent in the URL nor printed.
    static func userEnd(_ rest: Substring) -> Substring.Index? {
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") { return at }
        guard let at = rest.firstIndex(of: "@"), let colon = rest[..<authorityEnd].firstIndex(of: ":") else { return nil }
        let port = rest[rest.index(after: colon)..<authorityEnd]
        return !port.isEmpty && port.allSatisfy({ $0 >= "0" && $0 <= "9" }) ? nil : at
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
        // This process holds the password from here on (in the address, or a command's
        // answer): it makes no core dump, as its helpers make none.
        if settings.passwordCommand != nil || url != (CalDAVAddress.isCalDAV(url) ? CalDAVAddress.withoutPassword(url) : RemoteAddress.withoutPassword(url)) {
            var none = rlimit(rlim_cur: 0, rlim_max: 0)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        }
        guard CalDAVAddress.isCalDAV(url) else { return try postgres.remote(url: url, timeout: settings.timeout) }
        let name = CalDAVAddress.withoutPassword(url)
        if let host = CalDAVAddress.inTheClear(url), !settings.insecure { throw .remote(.inTheClear(host: host), remote: name) }
        let password = try settings.passwordCommand.map { command throws(TaskServiceError) in try CalDAVAddress.password(from: command, remote: name) }
        let helper = caldavHelper ?? PostgresRemoteMaker.helperBesideProgram(named: "tasks-caldav") ?? "tasks-caldav"
        return try CalDAVRemote(address: url, helper: helper, user: settings.user, password: password, ca: settings.ca,
                                timeout: settings.timeout)
    }

    public func watch(url: String, node: String) throws(TaskServiceError) -> any RemoteWatch {
        guard CalDAVAddress.isCalDAV(url) else { return try postgres.watch(url: url, node: node) }
        throw TaskServiceError.remote(.failed("a CalDAV server cannot be watched; tasks sync --watch and tasks ui sync with PostgreSQL only"),
                                      remote: CalDAVAddress.withoutPassword(url))
    }
}

/// An href a server sent, as a path on the server the user named — or nothing, when it would
/// leave it. A server's answer names items and collections by href; each is used only after
/// this: an absolute URL must have the remote's own scheme, host and port and no user in it;
/// a path must start with `/`; `.` and `..` segments (written plainly or percent-encoded) are
/// resolved as libcurl would resolve them, and one that climbs above `/` is refused; control
/// characters and backslashes are refused. What comes back starts with `/`, so `origin + path`
/// can never name another host (`@otherhost/…`, `//otherhost/…`).
public enum CalDAVHref {
    /// `href` as a path on `origin` (`https://host:port`), or nil when it leaves it.
    public static func path(_ href: String, origin: String) -> String? {
        let trimmed = href.trimmingWhitespace
        guard !trimmed.isEmpty, !trimmed.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) else { return nil }
        var path = Substring(trimmed)
        if let scheme = trimmed.firstRange(of: "://"), !trimmed[..<scheme.lowerBound].contains("/") {
            let rest = trimmed[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            guard !authority.contains("@"),
                  Self.origin(String(trimmed[..<scheme.lowerBound]), String(authority)) == Self.origin(of: origin) else { return nil }
            path = rest[authorityEnd...]
            if path.isEmpty { path = "/" }
        }
        // A fragment is the client's own; a path that does not start with one `/` is relative
        // or names another host (`//host/…`).
        if let hash = path.firstIndex(of: "#") { path = path[..<hash] }
        guard path.hasPrefix("/"), !path.hasPrefix("//") else { return nil }
        var query = Substring("")
        if let mark = path.firstIndex(of: "?") {
            query = path[mark...]
            path = path[..<mark]
        }
        var kept: [Substring] = []
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            switch segment.lowercased() {
            case ".", "%2e":
                if index == segments.count - 1 { kept.append("") }
            case "..", ".%2e", "%2e.", "%2e%2e":
                guard !kept.isEmpty else { return nil }
                kept.removeLast()
                if index == segments.count - 1 { kept.append("") }
            default:
                kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/") + query
    }

    /// `scheme://host:port` in lower case with the scheme's default port written out.
    static func origin(of address: String) -> String? {
        guard let scheme = address.firstRange(of: "://") else { return nil }
        return origin(String(address[..<scheme.lowerBound]), String(address[scheme.upperBound...]))
    }

    private static func origin(_ scheme: String, _ authority: String) -> String? {
        let scheme = scheme.lowercased()
        var host = Substring(authority.lowercased())
        var port = scheme == "https" ? "443" : scheme == "http" ? "80" : ""
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") {
            let written = host[host.index(after: colon)...]
            guard written.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
            if !written.isEmpty { port = String(written.drop { $0 == "0" }) }
            host = host[..<colon]
        }
        guard !host.isEmpty, !port.isEmpty else { return nil }
        return scheme + "://" + host + ":" + port
    }
}
