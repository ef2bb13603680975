#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL cluster for the tests that need a real server, made by Debian's
/// `pg_virtualenv` (postgresql-common) through `scripts/with-postgres` — which, as root, makes it
/// in a folder of its own rather than the machine's one `regress` cluster a killed run leaves
/// behind — and dropped when the test process ends: the script lives as long as the test
/// process does.
public final class PostgresCluster: @unchecked Sendable {
    /// `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`: libpq's defaults for the cluster.
    public let environment: [String: String]
    /// `export PGHOST=… …;`: the same for a shell script.
    public var exports: String {
        environment.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)';" }.joined(separator: " ")
    }
    private let folder: TemporaryFolder
    /// The write end of the pipe the cluster's script reads: open while this process lives.
    private let keepAlive: Int32

    /// The cluster, started by the first caller, or why there is none: `pg_virtualenv` is not
    /// installed, or the cluster did not start within ten minutes (a loaded 2-core CI machine
    /// running the tmux suites beside it has taken more than one), with the end of its log.
    public static let shared: Result<PostgresCluster, Unavailable> = Result { () throws(Unavailable) in try PostgresCluster() }

    /// Why there is no cluster, in words a test failure can print.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    private init() throws(Unavailable) {
        guard access("/usr/bin/pg_virtualenv", X_OK) == 0 else {
            throw Unavailable(description: "pg_virtualenv (postgresql-common, postgresql) is needed: scripts/install-deps installs it")
        }
        folder = TemporaryFolder()
        let info = folder.file("environment")
        let log = folder.file("log")
        // The script's stdin is a pipe whose other end only this process holds (close-on-exec,
        // never written): when the test process ends, however it ends, `cat` sees the end of
        // its input and pg_virtualenv drops the cluster.
        var root = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        root.removeLast(3)
        let withPostgres = root.joined(separator: "/") + "/scripts/with-postgres"
        let script = """
            exec > '\(log)' 2>&1
            exec '\(withPostgres)' sh -c 'env | grep "^PG" > "\(info).part" && mv "\(info).part" "\(info)"; exec cat > /dev/null'
            """
        guard let (pid, keepAlive) = spawnTiedToThisProcess(script) else {
            throw Unavailable(description: "could not start /bin/sh for pg_virtualenv")
        }
        self.keepAlive = keepAlive
        var exited = false
        for _ in 0..<6000 {
            if access(info, R_OK) == 0 { break }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
            usleep(100_000)
        }
        guard access(info, R_OK) == 0 else {
            let text = String(decoding: readBytes(log), as: UTF8.self)
            let tail = text.split(separator: "\n").suffix(15).joined(separator: "\n")
            throw Unavailable(description: "pg_virtualenv \(exited ? "exited" : "did not start a cluster in 10 minutes"); the end of its log:\n\(tail)")
        }
        var environment: [String: String] = [:]
        for line in String(decoding: readBytes(info), as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        self.environment = environment
    }

    /// Runs SQL as the cluster's superuser with `psql`; its output, or `nil` on failure.
    @discardableResult
    public func psql(_ sql: String, database: String? = nil) -> String? {
        let scratch = TemporaryFolder()
        let target = database.map { "-d '\($0)'" } ?? ""
        let result = runShell("\(exports) psql -X -q -At -v ON_ERROR_STOP=1 \(target) <<'SQL'\n\(sql)\nSQL", in: scratch)
        return result.status == 0 ? result.stdout : nil
    }

    /// A new, empty database on the cluster, and its URL (`postgresql://…`), with the password
    /// left to `PGPASSWORD` unless `withPassword`.
    public func makeDatabase(_ name: String, withPassword: Bool = false) -> String? {
        guard psql("DROP DATABASE IF EXISTS \(name); CREATE DATABASE \(name);") != nil else { return nil }
        let user = environment["PGUSER"] ?? "postgres"
        let password = withPassword ? ":" + (environment["PGPASSWORD"] ?? "") : ""
        return "postgresql://\(user)\(password)@\(environment["PGHOST"] ?? "localhost"):\(environment["PGPORT"] ?? "5432")/\(name)"
    }
}
