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
    /// The longest the sync may take, in seconds: the helper is ended then (its transaction
    /// with it), and the sync fails saying so.
    private let timeout: Int
    private var startedAt = timespec()

    public init(address: String, helper: String, timeout: Int = RemoteSettings.defaultTimeout) {
        self.address = address
        self.helper = helper
        self.timeout = timeout
        name = RemoteAddress.withoutPassword(address)
    }

    deinit { close() }

    public func begin(node: String) throws(TaskServiceError) {
        try start()
        _ = clock_gettime(CLOCK_MONOTONIC, &startedAt)
        try send(["deadline", String(timeout)])
        try send(["open", address, node])
        _ = try expectOK()
    }

    public func pull(after seq: Int64) throws(TaskServiceError) -> [SyncChange] {
        var changes: [SyncChange] = []
        do {
            try receiveChanges(after: seq) { line in changes.append(try Self.change(from: line, remote: name)) }
        } catch let error as TaskServiceError {
            throw error
        } catch {
            throw failed(String(describing: error))
        }
        return changes
    }

    public var streamsPulls: Bool { true }

    public func pull(after seq: Int64, each body: (ReceivedChange) throws -> Void) throws -> Int {
        enum Line { case change(ReceivedChange), fields([String]) }
        try send(["pull", String(seq)])
        var count = 0
        while true {
            // A change line is read in the reader's buffer; any other line, or one with an
            // escape, as fields.
            let line = try reader?.readLine { bytes throws(TaskServiceError) -> Line in
                if let change = try Self.receivedChange(bytes: bytes, remote: name) { return .change(change) }
                return .fields(WireLine.decode(String(decoding: bytes, as: UTF8.self)))
            }
            switch line {
            case .change(let change)?:
                try body(change)
            case .fields(let fields)? where fields.first == "change" && fields.count == 8:
                try body(try Self.receivedChange(from: fields, remote: name))
            case .fields(let fields)? where fields.first == "end":
                return count
            case .fields(let fields)?:
                throw failure(fields)
            case nil:
                throw helperGone()
            }
            count += 1
        }
    }

    /// The change a `change SEQ ID NODE ORIGIN CLOCK TASK FIELDS` line carries, read from its
    /// bytes in place; nil for any other line, or one with a backslash (an escape), which is
    /// read as fields.
    public static func receivedChange(bytes line: ArraySlice<UInt8>, remote: String) throws(TaskServiceError) -> ReceivedChange? {
        guard line.starts(with: "change\t".utf8) else { return nil }
        // The tabs' offsets, found by memchr; none when there is a backslash.
        let found = line.withUnsafeBufferPointer { buffer -> [Int]? in
            guard let base = buffer.baseAddress, memchr(base, 0x5C, buffer.count) == nil else { return nil }
            var tabs: [Int] = []
            tabs.reserveCapacity(8)
            var offset = 0
            while tabs.count < 8, let hit = memchr(base + offset, 0x09, buffer.count - offset) {
                let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                tabs.append(line.startIndex + at)
                offset = at + 1
            }
            return tabs
        }
        guard let tabs = found, tabs.count == 7 else { return nil }
        func field(_ number: Int) -> ArraySlice<UInt8> {
            line[(tabs[number - 1] + 1)..<(number < 7 ? tabs[number] : line.endIndex)]
        }
        guard let seq = Int64(String(decoding: field(1), as: UTF8.self)), let clock = Int64(String(decoding: field(5), as: UTF8.self)) else {
            throw .remote(.failed("the remote sent an unreadable change"), remote: remote)
        }
        let task = String(decoding: field(6), as: UTF8.self)
        do {
            let (values, deleted) = try SyncFieldsJSON.decodeIndexed(Array(field(7)))
            return ReceivedChange(seq: seq, clock: clock, task: task, values: values, deleted: deleted,
                                  id: String(decoding: field(2), as: UTF8.self), node: String(decoding: field(3), as: UTF8.self),
                                  origin: String(decoding: field(4), as: UTF8.self))
        } catch {
            // Kept aside, not applied: one peer's unreadable row does not stop every sync.
            return ReceivedChange(seq: seq, clock: clock, task: task, values: [SyncValue?](repeating: nil, count: SyncField.all.count),
                                  id: String(decoding: field(2), as: UTF8.self), node: String(decoding: field(3), as: UTF8.self),
                                  origin: String(decoding: field(4), as: UTF8.self), rejection: "its fields are unreadable (\(error))")
        }
    }

    /// Sends `pull AFTER` and hands each `change` line's fields to `body`, to the `end`.
    private func receiveChanges(after seq: Int64, _ body: ([String]) throws -> Void) throws {
        try send(["pull", String(seq)])
        while true {
            let line = try receive()
            switch line.first {
            case "end":
                return
            case "change" where line.count == 8:
                try body(line)
            default:
                throw failure(line)
            }
        }
    }

    /// The change a `change` line carries, its fields by position (`ReceivedChange`).
    public static func receivedChange(from line: [String], remote: String = "") throws(TaskServiceError) -> ReceivedChange {
        guard line.count == 8, line[0] == "change", let seq = Int64(line[1]), let clock = Int64(line[5]) else {
            throw .remote(.failed("the remote sent an unreadable change"), remote: remote)
        }
        do {
            let (values, deleted) = try SyncFieldsJSON.decodeIndexed(Array(line[7].utf8))
            return ReceivedChange(seq: seq, clock: clock, task: line[6], values: values, deleted: deleted, id: line[2], node: line[3], origin: line[4])
        } catch {
            return ReceivedChange(seq: seq, clock: clock, task: line[6], values: [SyncValue?](repeating: nil, count: SyncField.all.count),
                                  id: line[2], node: line[3], origin: line[4], rejection: "its fields are unreadable (\(error))")
        }
    }

    /// The change a `change SEQ ID NODE ORIGIN CLOCK TASK FIELDS` line carries.
    public static func change(from line: [String], remote: String = "") throws(TaskServiceError) -> SyncChange {
        guard line.count == 8, line[0] == "change", let seq = Int64(line[1]), let clock = Int64(line[5]) else {
            throw .remote(.failed("the remote sent an unreadable change"), remote: remote)
        }
        do {
            let fields = try SyncFieldsJSON.decode(line[7])
            return SyncChange(id: line[2], node: line[3], origin: line[4], clock: clock, task: line[6], fields: fields, seq: seq)
        } catch {
            return SyncChange(id: line[2], node: line[3], origin: line[4], clock: clock, task: line[6], fields: [:], seq: seq,
                              rejection: "its fields are unreadable (\(error))")
        }
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
        case "unsafe": return .remote(.unsafeSchema(message), remote: name)
        case "newer":
            let numbers = message.split(separator: " ").compactMap { Int($0) }
            return .remote(.newerSchema(found: numbers.first ?? 0, supported: numbers.last ?? 0), remote: name)
        default: return failed(message)
        }
    }

    private func failed(_ reason: String) -> TaskServiceError { .remote(.failed(reason), remote: name) }

    /// The helper ended without a word: it was killed, or could not start (a missing library).
    private func helperGone() -> TaskServiceError {
        var now = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &now)
        if startedAt.tv_sec > 0 && Int(now.tv_sec - startedAt.tv_sec) >= timeout {
            return failed("the sync took longer than its \(timeout) s (the remote's timeout setting)")
        }
        return failed("the helper tasks-postgres ended unexpectedly")
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
        try remote(url: url, timeout: RemoteSettings.defaultTimeout)
    }

    /// A remote whose syncs end within `timeout` seconds.
    public func remote(url: String, timeout: Int) throws(TaskServiceError) -> any SyncRemote {
        guard RemoteAddress.looksValid(url) else {
            throw TaskServiceError.remote(.badAddress("expected postgresql://… or key=value words"), remote: RemoteAddress.withoutPassword(url))
        }
        return PostgresRemote(address: url, helper: helper ?? Self.helperBesideProgram() ?? "tasks-postgres", timeout: timeout)
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
