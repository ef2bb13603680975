#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibPQ
import SyncWire
import TextFormats

// `tasks-postgres`: the remote helper `tasks sync` runs to talk to PostgreSQL, as git runs its
// remote helpers. It alone links libpq (and, through it, TLS, Kerberos and LDAP libraries), so
// `tasks` itself stays one static executable that starts in a millisecond. It speaks the
// lines of `SyncWire` on stdin and stdout, holds one transaction from `open` to `commit`, and
// sends every value as a parameter: nothing a user wrote is ever spliced into SQL. Started with
// `watch` instead, it listens for other machines' syncs (LISTEN/NOTIFY) for `tasks ui` and
// `tasks sync --watch`.

signal(SIGPIPE, SIG_IGN)
_ = tasks_refuse_core_dumps()
Helper().run()

/// `strings` as C strings for the length of `body`.
func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { copy in copy.map { UnsafePointer($0) } })
}

final class Helper {
    let input = WireReader(descriptor: 0)
    let output = WireWriter(descriptor: 1)
    /// The remote schema this helper makes and understands.
    let schemaVersion = 1
    /// The key of the advisory lock that makes syncs take turns (so the sequence is the commit order).
    let lockKey = "7166488390537921"
    var connection: OpaquePointer?
    /// Where the open `COPY` writes (the changes pushed since the last store), if one is open:
    /// `tasks_change` itself, or `tasks_incoming` when a pushed change may be there already.
    var copying: String?
    /// The `pull`'s sequence number: what this node has seen of the log.
    var pulledAfter: String?
    /// The changes pushed so far (stored, or in the open `COPY`).
    var stored = 0
    var node = ""
    /// The remote's schema version, when a newer `tasks` made it: its rows are still read (they
    /// are checked one by one as every received change is), but nothing is written there.
    var newerSchema: Int?
    /// The channel a sync that stored changes notifies, and `watch` listens on.
    let channel = "tasks_change"

    func run() {
        while let line = input.readLine() {
            let fields = WireLine.decode(line)
            switch (fields.first, fields.count) {
            case ("deadline", 2):
                // The sync's time: when it is up, SIGALRM ends this helper, and with it the
                // connection and its transaction (the remote keeps nothing of the sync).
                alarm(UInt32(clamping: Int(fields[1]) ?? 0))
            case ("open", 3):
                node = fields[2]
                open(fields[1])
            case ("pull", 2):
                pull(after: fields[1])
            case ("push", 7):
                if let newerSchema { fail("newer", "\(newerSchema) \(schemaVersion)") }
                guard Int64(fields[4]) != nil else { fail("failed", "a change's clock is not a number: \(fields[4])") }
                copy(line.utf8.dropFirst(5))
            case ("flush", 1):
                store()
                reply(["ok", String(stored)])
            case ("commit", 1):
                store()
                let last = execute("SELECT coalesce(max(seq), 0) FROM tasks_change").first?.first.flatMap { $0 } ?? "0"
                // Delivered with the commit, to every machine watching (`watch`), ours included.
                if stored > 0 { execute("SELECT pg_notify($1, $2)", [channel, node]) }
                execute("COMMIT")
                reply(["ok", last])
            case ("watch", 3):
                node = fields[2]
                watch(fields[1])
            default:
                fail("failed", "the helper does not understand: \(fields.first ?? "")")
            }
        }
        if let connection { PQfinish(connection) }
    }

    func reply(_ fields: [String]) {
        _ = output.send(fields)
        output.flush()
    }

    func fail(_ kind: String, _ message: String) -> Never {
        reply(["error", kind, message.trimmingWhitespace])
        if let connection { PQfinish(connection) }
        exit(1)
    }

    /// The kind of a failed statement: a missing right is `denied`, anything else `failed`.
    func failStatement(_ result: OpaquePointer?) -> Never {
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        var message = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
        if message.isEmpty { message = connection.map { String(cString: PQerrorMessage($0)) } ?? "no connection" }
        fail(state == "42501" ? "denied" : "failed", message)
    }

    /// Runs `sql` with text parameters; fails the exchange unless it succeeded.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String] = []) -> [[String?]] {
        withCStrings(parameters) { values in
            let result = PQexecParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { failStatement(result) }
            return rows(of: result)
        }
    }

    func rows(of result: OpaquePointer?) -> [[String?]] {
        var rows: [[String?]] = []
        for row in 0..<PQntuples(result) {
            rows.append((0..<PQnfields(result)).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            })
        }
        return rows
    }

    /// Connects to `url` (a URI or `key=value` words; libpq reads passwords from ~/.pgpass and
    /// PGPASSWORD as psql does), begins the transaction, takes the lock, and makes or checks
    /// the schema.
    func open(_ url: String) {
        connect(url)
        execute("BEGIN")
        execute("SET LOCAL lock_timeout = '60s'")
        execute("SELECT pg_advisory_xact_lock($1::bigint)", [lockKey])
        let exists = execute("SELECT to_regclass('tasks_schema') IS NOT NULL")
        if exists.first?.first == "f" {
            execute("CREATE TABLE tasks_schema (version integer NOT NULL)")
            execute("INSERT INTO tasks_schema (version) VALUES ($1::integer)", [String(schemaVersion)])
            execute("""
                CREATE TABLE tasks_change (
                    seq    bigserial   PRIMARY KEY,
                    id     text        NOT NULL UNIQUE,
                    node   text        NOT NULL,
                    origin text        NOT NULL,
                    hlc    bigint      NOT NULL,
                    task   text        NOT NULL,
                    fields jsonb       NOT NULL,
                    pushed timestamptz NOT NULL DEFAULT now()
                )
                """)
            execute("CREATE INDEX tasks_change_by_task ON tasks_change (task)")
        }
        // The version is believed only from a table no one but its owner can write: a teammate
        // with INSERT there could stop every machine's sync with a version from the future.
        let writers = execute("""
            SELECT coalesce(string_agg(DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE a.grantee::regrole::text END, ', '), '')
            FROM pg_class c CROSS JOIN LATERAL aclexplode(coalesce(c.relacl, acldefault('r', c.relowner))) a
            WHERE c.oid = 'tasks_schema'::regclass AND a.privilege_type IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE') AND a.grantee <> c.relowner
            """).first?.first.flatMap { $0 } ?? ""
        if !writers.isEmpty {
            fail("unsafe", "tasks_schema can be written by \(writers), not only by its owner; its owner should run: "
                 + "REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON tasks_schema FROM \(writers)")
        }
        let found = Int(execute("SELECT max(version) FROM tasks_schema").first?.first.flatMap { $0 } ?? "") ?? 0
        if found > schemaVersion { newerSchema = found }
        reply(["ok", String(found)])
    }

    /// Connects to `url`, or fails the exchange saying why. TCP keepalives find a server that
    /// went away without a word within about 20 s (a `watch` waits on the socket for minutes).
    func connect(_ url: String) {
        connection = withCStrings(["dbname", "application_name", "connect_timeout", "keepalives_idle", "keepalives_interval", "keepalives_count"]) { keywords in
            withCStrings([url, "tasks", "10", "10", "5", "2"]) { values in
                PQconnectdbParams(keywords + [nil], values + [nil], 1)
            }
        }
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            fail(kindOfConnectionFailure(message), message)
        }
    }

    /// `watch URL NODE`: listens for other machines' syncs. Answers `ok` once listening, then
    /// `notice` each time a sync of another node stored changes, until standard input closes
    /// (the watcher is gone: exit quietly) or the server does (`error unreachable …`). Every
    /// 30 s of silence a `SELECT 1` asks whether the server is still there.
    func watch(_ url: String) -> Never {
        connect(url)
        execute("LISTEN " + channel)
        reply(["ok", "listening"])
        guard let connection else { exit(1) }
        let socket = PQsocket(connection)
        while true {
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, 30_000)
            if ready < 0 {
                if errno == EINTR { continue }
                fail("failed", "poll: \(String(cString: strerror(errno)))")
            }
            if ready == 0 {
                execute("SELECT 1")
                continue
            }
            if descriptors[1].revents != 0 {
                var byte: UInt8 = 0
                // Anything on stdin but its end is ignored; its end is the watcher going away.
                if read(0, &byte, 1) <= 0 {
                    PQfinish(connection)
                    exit(0)
                }
            }
            if descriptors[0].revents != 0 {
                guard PQconsumeInput(connection) == 1 else {
                    fail("unreachable", String(cString: PQerrorMessage(connection)))
                }
                var others = 0
                while let notice = PQnotifies(connection) {
                    let from = notice.pointee.extra.map { String(cString: $0) } ?? ""
                    if from != node { others += 1 }
                    PQfreemem(notice)
                }
                if others > 0 { reply(["notice", String(others)]) }
                if PQstatus(connection) != CONNECTION_OK { fail("unreachable", String(cString: PQerrorMessage(connection))) }
            }
        }
    }

    /// `missing` when the server has no database of that name; `login` when it answered and
    /// refused who we are; `address` when libpq could
    /// not read the address; else `unreachable`.
    func kindOfConnectionFailure(_ message: String) -> String {
        let lower = message.lowercased()
        // `FATAL: database "x" does not exist`: the login was fine, the database is missing.
        if lower.contains("database \"") && lower.contains("does not exist") { return "missing" }
        if lower.contains("authentication failed") || lower.contains("no password supplied") || lower.contains("does not exist")
            || lower.contains("no pg_hba.conf entry") || lower.contains("permission denied for database") {
            return "login"
        }
        if lower.contains("invalid uri") || lower.contains("invalid connection option") || lower.contains("missing \"=\"")
            || lower.contains("invalid percent-encoded") || lower.contains("unterminated quoted string") || lower.contains("invalid integer value") {
            return "address"
        }
        return "unreachable"
    }

    /// Sends every change after `after` from other nodes, a row at a time (constant memory).
    func pull(after: String) {
        store()
        pulledAfter = after
        // The pull reads a range of the primary key in its order. Planned without statistics
        // (a log just filled and not yet analyzed), PostgreSQL scanned the whole table in
        // parallel and sorted it: 28 ms for a pull of nothing at 100,000 changes, against
        // 0.1 ms by the index, and 445 ms against 298 ms for a pull of everything.
        execute("SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true), "
            + "set_config('max_parallel_workers_per_gather', '0', true)")
        let sql = "SELECT seq, id, node, origin, hlc, task, fields::text FROM tasks_change WHERE seq > $1::bigint AND node <> $2 ORDER BY seq"
        let sent = withCStrings([after, node]) { values in PQsendQueryParams(connection, sql, 2, nil, values, nil, nil, 0) }
        guard sent == 1 else { failStatement(nil) }
        PQsetSingleRowMode(connection)
        while let result = PQgetResult(connection) {
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_SINGLE_TUPLE:
                let row = rows(of: result).first?.map { $0 ?? "" } ?? []
                guard output.send(["change"] + row) else { exit(1) }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                break
            default:
                failStatement(result)
            }
        }
        reply(["end"])
    }

    /// Adds one change to the open `COPY`, opening it first: `row` is the `push` line after its
    /// first tab, which is already a row of COPY's text format (SyncWire escapes a tab, newline,
    /// carriage return and backslash as COPY does, and writes every other byte as it is).
    func copy(_ row: Substring.UTF8View) {
        if copying == nil {
            // A change this node pushed before is there again only when a sync stored its
            // changes and then failed here (the next sync sends them again, with the same
            // ids): then it is after the last pull, from this node. Without one, the changes
            // are copied straight into the log; with one, into a table of this transaction
            // and moved on by one INSERT that skips what is there (`store`).
            let again = pulledAfter.map { execute("SELECT 1 FROM tasks_change WHERE seq > $1::bigint AND node = $2 LIMIT 1", [$0, node]).count > 0 } ?? true
            let target = again ? "tasks_incoming" : "tasks_change"
            if again {
                execute("""
                    CREATE TEMPORARY TABLE IF NOT EXISTS tasks_incoming (
                        n bigserial, id text NOT NULL, node text NOT NULL, origin text NOT NULL,
                        hlc bigint NOT NULL, task text NOT NULL, fields jsonb NOT NULL
                    ) ON COMMIT DROP
                    """)
            }
            let result = PQexec(connection, "COPY \(target) (id, node, origin, hlc, task, fields) FROM STDIN")
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COPY_IN else { failStatement(result) }
            copying = target
        }
        var bytes = Array(row)
        // COPY reads more escapes than SyncWire writes (`\N`, `\b`, octal): a line with one of
        // those was not written by SyncWire.
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x5C {
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                guard next == UInt8(ascii: "t") || next == UInt8(ascii: "n") || next == UInt8(ascii: "r") || next == 0x5C else {
                    fail("failed", "a pushed change has an escape SyncWire does not write")
                }
                index += 2
            } else {
                index += 1
            }
        }
        bytes.append(0x0A)
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) }
        }
        guard sent == 1 else { failStatement(nil) }
        stored += 1
    }

    /// Ends the open `COPY` and stores what it received in one statement, in the order pushed;
    /// a change whose id is there already (a sync run again after a failure) is skipped.
    func store() {
        guard let target = copying else { return }
        copying = nil
        guard PQputCopyEnd(connection, nil) == 1 else { failStatement(nil) }
        while let result = PQgetResult(connection) {
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else { failStatement(result) }
        }
        guard target == "tasks_incoming" else { return }
        execute("""
            INSERT INTO tasks_change (id, node, origin, hlc, task, fields)
            SELECT id, node, origin, hlc, task, fields FROM tasks_incoming ORDER BY n
            ON CONFLICT (id) DO NOTHING
            """)
        execute("TRUNCATE tasks_incoming")
    }
}
