#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncWire
import TaskInterchange
import TaskModel

/// A PostgreSQL remote, reached through the helper `tasks-postgres` (which alone links libpq):
/// started on `begin`, spoken to in `SyncWire` lines over two pipes, ended on `close` — which,
/// without a `commit`, leaves the remote as it was (the helper's transaction dies with it).
public final class PostgresRemote: SyncRemote {
    public let name: String
    private let address: String
    private let helper: String
    private var process: pid_t = 0
    private var writer: WireWriter?
    private var reader: WireReader?
    private var descriptors: [Int32] = []

    public init(address: String, helper: String) {
        self.address = address
        self.helper = helper
        name = RemoteAddress.withoutPassword(address)
    }

    deinit { close() }

    public func begin(node: String) throws(TaskServiceError) {
        try start()
        try send(["open", address, node])
        _ = try expectOK()
    }

    public func pull(after seq: Int64) throws(TaskServiceError) -> [SyncChange] {
        try send(["pull", String(seq)])
        var changes: [SyncChange] = []
        while true {
            let line = try receive()
            switch line.first {
            case "end":
                return changes
            case "change" where line.count == 8:
                changes.append(try Self.change(from: line, remote: name))
            default:
                throw failure(line)
            }
        }
    }

    /// The change a `change SEQ ID NODE ORIGIN CLOCK TASK FIELDS` line carries.
    public static func change(from line: [String], remote: String = "") throws(TaskServiceError) -> SyncChange {
        guard line.count == 8, line[0] == "change", let seq = Int64(line[1]), let clock = Int64(line[5]) else {
            throw .remote(.failed("the remote sent an unreadable change"), remote: remote)
        }
        let fields: [String: SyncValue]
        do {
            fields = try SyncFieldsJSON.decode(line[7])
        } catch {
            throw .remote(.failed("the remote sent a change whose fields are unreadable (\(error))"), remote: remote)
        }
        return SyncChange(id: line[2], node: line[3], origin: line[4], clock: clock, task: line[6], fields: fields, seq: seq)
    }

    public func push(_ changes: [SyncChange]) throws(TaskServiceError) {
        guard let writer else { throw failed("not connected") }
        for change in changes {
            let line = ["push", change.id, change.node, change.origin, String(change.clock), change.task, SyncFieldsJSON.encode(change.fields)]
            guard writer.send(line) else { throw helperGone() }
        }
        try send(["flush"])
        _ = try expectOK()
    }

    public func commit() throws(TaskServiceError) -> Int64 {
        try send(["commit"])
        guard let last = Int64(try expectOK()) else { throw failed("the remote sent an unreadable sequence number") }
        return last
    }

    public func close() {
        for descriptor in descriptors { Glibc.close(descriptor) }
        descriptors = []
        writer = nil
        reader = nil
        if process > 0 {
            var status: Int32 = 0
            while waitpid(process, &status, 0) == -1 && errno == EINTR {}
            process = 0
        }
    }

    // MARK: - The helper

    private func start() throws(TaskServiceError) {
        let started = try HelperProcess.start(helper, remote: name)
        process = started.pid
        descriptors = [started.toHelper, started.fromHelper]
        writer = WireWriter(descriptor: started.toHelper)
        reader = WireReader(descriptor: started.fromHelper)
    }

    private func send(_ fields: [String]) throws(TaskServiceError) {
        guard let writer, writer.send(fields), writer.flush() else { throw helperGone() }
    }

    private func receive() throws(TaskServiceError) -> [String] {
        guard let line = reader?.readLine() else { throw helperGone() }
        return WireLine.decode(line)
    }

    /// The text after `ok`, or the failure the helper reported.
    private func expectOK() throws(TaskServiceError) -> String {
        let line = try receive()
        if line.first == "ok" { return line.count > 1 ? line[1] : "" }
        throw failure(line)
    }

    private func failure(_ line: [String]) -> TaskServiceError { Self.failure(line, remote: name) }

    /// The failure an `error KIND MESSAGE` line from the helper reports.
    static func failure(_ line: [String], remote name: String) -> TaskServiceError {
        func failed(_ reason: String) -> TaskServiceError { .remote(.failed(reason), remote: name) }
        guard line.first == "error", line.count >= 3 else { return failed("the helper said: \(line.joined(separator: " "))") }
        // libpq's messages span lines ("…failed: Connection refused\n\tIs the server running…").
        let message = line[2].split(whereSeparator: { $0 == "\n" || $0 == "\t" || $0 == " " }).joined(separator: " ")
        switch line[1] {
        case "address": return .remote(.badAddress(message), remote: name)
        case "unreachable": return .remote(.unreachable(message), remote: name)
        case "login": return .remote(.loginRefused(message), remote: name)
        case "missing": return .remote(.noSuchDatabase(message), remote: name)
        case "denied": return .remote(.permissionDenied(message), remote: name)
        case "newer":
            let numbers = message.split(separator: " ").compactMap { Int($0) }
            return .remote(.newerSchema(found: numbers.first ?? 0, supported: numbers.last ?? 0), remote: name)
        default: return failed(message)
        }
    }

    private func failed(_ reason: String) -> TaskServiceError { .remote(.failed(reason), remote: name) }

    /// The helper ended without a word: it was killed, or could not start (a missing library).
    private func helperGone() -> TaskServiceError {
        failed("the helper tasks-postgres ended unexpectedly")
    }
}

/// Makes `PostgresRemote`s, finding the helper beside the running program, else on PATH.
public struct PostgresRemoteMaker: SyncRemoteMaker {
    /// The helper named by the caller; otherwise found when a remote is made, so that the
    /// commands that never sync pay no look-up at start-up.
    private let helper: String?

    public init(helper: String? = nil) {
        self.helper = helper
    }

    public func remote(url: String) throws(TaskServiceError) -> any SyncRemote {
        guard RemoteAddress.looksValid(url) else {
            throw TaskServiceError.remote(.badAddress("expected postgresql://… or key=value words"), remote: RemoteAddress.withoutPassword(url))
        }
        return PostgresRemote(address: url, helper: helper ?? Self.helperBesideProgram() ?? "tasks-postgres")
    }

    public func watch(url: String, node: String) throws(TaskServiceError) -> any RemoteWatch {
        guard RemoteAddress.looksValid(url) else {
            throw TaskServiceError.remote(.badAddress("expected postgresql://… or key=value words"), remote: RemoteAddress.withoutPassword(url))
        }
        return try PostgresWatch(address: url, node: node, helper: helper ?? Self.helperBesideProgram() ?? "tasks-postgres")
    }

    /// The helper `name` in the running program's folder, when it is there.
    static func helperBesideProgram(named name: String = "tasks-postgres") -> String? {
        guard let executable = RunningProgram.path, let slash = executable.lastIndex(of: "/") else { return nil }
        let path = String(executable[..<slash]) + "/" + name
        return access(path, X_OK) == 0 ? path : nil
    }
}
