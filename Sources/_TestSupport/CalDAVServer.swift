#if canImport(Glibc)
import Glibc
#endif

/// A throwaway CalDAV server for the tests that need a real one: Radicale (authentication on:
/// a plain htpasswd file) or Xandikos (which has none of its own), from Debian, on 127.0.0.1 at
/// a free port, serving a temporary folder. It stops with `stop()`, and in any case with the
/// test process: its shell reads a pipe only this process holds.
public final class CalDAVServer: @unchecked Sendable {
    public enum Kind: String, Sendable, CaseIterable { case radicale, xandikos }

    public let kind: Kind
    public let port: Int
    /// `http://127.0.0.1:PORT/` (`https://` with TLS), without credentials.
    public let url: String
    /// With TLS (Radicale only): the self-signed certificate it serves, made for 127.0.0.1.
    public let certificate: String?
    /// The user and password Radicale accepts (Xandikos accepts anyone).
    public let user = "alice"
    public let password = "correct-horse-battery-staple"
    public let folder = TemporaryFolder()
    private var keepAlive: Int32 = -1
    private var pid: pid_t = 0

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// `http://USER:PASSWORD@127.0.0.1:PORT/`: the address with the password in it.
    public var urlWithPassword: String {
        (certificate == nil ? "http" : "https") + "://\(user):\(password)@127.0.0.1:\(port)/"
    }

    /// A server of `kind`; with `tls`, Radicale serving HTTPS with a certificate of its own
    /// (made with openssl) that no system CA signed.
    public init(_ kind: Kind, tls: Bool = false) throws(Unavailable) {
        self.kind = kind
        let program = "/usr/bin/" + kind.rawValue
        guard access(program, X_OK) == 0 else {
            throw Unavailable(description: "\(kind.rawValue) is needed (apt-get install \(kind.rawValue)): scripts/install-deps installs it")
        }
        port = try Self.freePort()
        certificate = tls ? folder.file("cert.pem") : nil
        url = (tls ? "https" : "http") + "://127.0.0.1:\(port)/"
        try start()
    }

    deinit { stop() }

    /// Starts the server (again, after `stop`), and waits until it answers.
    public func start() throws(Unavailable) {
        let data = folder.file("data")
        let log = folder.file("log")
        let command: String
        var prepare = ""
        switch kind {
        case .radicale:
            let ssl = certificate.map { "\nssl = True\ncertificate = \($0)\nkey = \(folder.file("key.pem"))" } ?? ""
            writeBytes(folder.file("users"), Array("\(user):\(password)\n".utf8))
            writeBytes(folder.file("config"), Array("""
                [server]
                hosts = 127.0.0.1:\(port)\(ssl)
                [auth]
                type = htpasswd
                htpasswd_filename = \(folder.file("users"))
                htpasswd_encryption = plain
                delay = 0
                [storage]
                filesystem_folder = \(data)
                [logging]
                level = warning
                """.utf8))
            command = "radicale --config '\(folder.file("config"))'"
            if let certificate, access(certificate, R_OK) != 0 {
                prepare = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=127.0.0.1 "
                    + "-addext subjectAltName=IP:127.0.0.1 -keyout '\(folder.file("key.pem"))' -out '\(certificate)'; "
            }
        case .xandikos:
            command = "xandikos -d '\(data)' -l 127.0.0.1 -p \(port) --current-user-principal /\(user)/ --defaults"
        }
        // When the test process ends, or `stop` closes the pipe, `read` returns and the server
        // is killed.
        // Radicale can outlive a SIGTERM (seen: a server with open connections): after a
        // second it gets SIGKILL.
        let script = """
            exec >> '\(log)' 2>&1; \(prepare)\(command) & server=$!; echo $server > '\(folder.file("pid"))'; read -r _; kill $server
            for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 $server 2>/dev/null || break; sleep 0.1; done
            kill -9 $server 2>/dev/null; wait $server
            """
        guard let (started, tie) = spawnTiedToThisProcess(script) else {
            throw Unavailable(description: "could not start /bin/sh for \(kind.rawValue)")
        }
        pid = started
        keepAlive = tie
        // Up to a minute: a loaded CI machine starts Python slowly.
        for _ in 0..<600 {
            if Self.answers(port) { return }
            usleep(100_000)
        }
        let tail = String(decoding: readBytes(log).suffix(2000), as: UTF8.self)
        stop()
        throw Unavailable(description: "\(kind.rawValue) did not start within a minute: \(tail)")
    }

    /// Stops the server and waits for it to be gone.
    public func stop() {
        guard keepAlive >= 0 else { return }
        close(keepAlive)
        keepAlive = -1
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        for _ in 0..<100 where Self.answers(port) { usleep(50_000) }
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func answers(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws(Unavailable) -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Unavailable(description: "socket failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw Unavailable(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
