#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// One connection to an SQLite database file: prepared statements cached by SQL, transactions
/// as closures, typed errors. Not shared across threads; open one per thread or process.
public final class Connection {
    /// How to open the file.
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Create the file when it does not exist.
        public static let create = Options(rawValue: 1)
        /// Open for reading only.
        public static let readOnly = Options(rawValue: 2)
        /// With `readOnly`: the file cannot change while it is open (a read-only mount, a file
        /// nobody writes), so SQLite takes no locks and needs no `-shm` beside it — which is
        /// what lets a WAL file be read where its folder cannot be written. A `-wal` beside it
        /// is not read.
        public static let immutable = Options(rawValue: 4)
    }

    /// The file's path (or `:memory:`).
    public let path: String
    let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    /// The statement `prepare` returned last: a batch of 100-row `INSERT`s asks for the same
    /// 9 kB of SQL again and again, and comparing the same string with itself is one check,
    /// where hashing it for the dictionary was 2% of an `add -` of 100,000 lines.
    private var lastPrepared: Statement?
    private var transactionDepth = 0

    /// This connection's busy timeout.
    public var busyTimeoutMilliseconds: Int32 {
        didSet { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
    }

    /// How long a writer waits for another process's lock before failing with `busy`.
    public static let defaultBusyTimeoutMilliseconds: Int32 = 10_000

    /// Opens `path` (through the VFS named `vfs`, else SQLite's default). Opening reads
    /// nothing: a file that is not a database fails on first use.
    public init(path: String, options: Options = [.create], busyTimeoutMilliseconds: Int32 = Connection.defaultBusyTimeoutMilliseconds,
                vfs: String? = nil) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if options.contains(.readOnly) {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if options.contains(.create) { flags |= SQLITE_OPEN_CREATE }
        }
        var name = path
        if options.contains(.immutable) {
            flags |= SQLITE_OPEN_URI
            name = "file:" + Connection.uriEscaped(path) + "?mode=ro&immutable=1"
        }
        Connection.configureOnce
        var db: OpaquePointer?
        let code = sqlite3_open_v2(name, &db, flags, vfs)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError.last(on: db, fallback: code)
            sqlite3_close_v2(db)
            throw error
        }
        self.path = path
        self.handle = db
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        _ = csqlite_db_config_defensive(db, 1)
    }

    /// SQLite's process-wide settings, made before the first connection initializes it.
    private static let configureOnce: Void = { _ = csqlite_config_no_memstatus() }()

    /// `path` as the path of a `file:` URI: `%`, `?` and `#` percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    deinit {
        lastPrepared = nil
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    /// The prepared statement for `sql`, from the cache when it was prepared before; reset
    /// and with no bindings.
    public func prepare(_ sql: String) throws -> Statement {
        if let cached = cached(sql) {
            cached.reset()
            return cached
        }
        let statement = try Statement(db: handle, sql: sql)
        statements[sql] = statement
        lastPrepared = statement
        return statement
    }

    /// The prepared statement for `sql`, reset but keeping its bindings: for a caller that
    /// binds every parameter before each run. Clearing them frees each text's buffer for the
    /// next bind to allocate again (a bulk INSERT of 1,300 parameters: 2% of `add -`).
    public func prepareToBindAll(_ sql: String) throws -> Statement {
        if let cached = cached(sql) {
            cached.rewind()
            return cached
        }
        return try prepare(sql)
    }

    /// The statement prepared before for `sql`, now the last one handed out; nil if none.
    private func cached(_ sql: String) -> Statement? {
        if let last = lastPrepared, last.sql == sql { return last }
        guard let cached = statements[sql] else { return nil }
        lastPrepared = cached
        return cached
    }

    /// Runs one statement with `arguments`, ignoring any rows.
    public func run(_ sql: String, _ arguments: (any SQLiteBindable)?...) throws {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        try statement.run()
    }

    /// Runs one statement with an array of arguments, ignoring any rows.
    public func run(_ sql: String, arguments: [(any SQLiteBindable)?]) throws {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        try statement.run()
    }

    /// Runs one statement with `values` (a hundred rows' worth, say), ignoring any rows.
    public func run(_ sql: String, values: [SQLiteValue]) throws {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(values: values)
        try statement.run()
    }

    /// Runs a query and maps each row with `row`.
    /// `expectedCount`, when known, sizes the result once instead of growing it by doubling.
    public func query<Row>(
        _ sql: String, _ arguments: [(any SQLiteBindable)?] = [], expectedCount: Int = 0, row: (Statement) throws -> Row
    ) throws -> [Row] {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [Row] = []
        rows.reserveCapacity(expectedCount)
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// The first column of the first row as an integer, or `nil` when there is no row or it is NULL.
    public func scalar(_ sql: String, _ arguments: (any SQLiteBindable)?...) throws -> Int64? {
        try scalar(sql, arguments: arguments)
    }

    /// The first column of the first row as an integer, with an array of arguments.
    public func scalar(_ sql: String, arguments: [(any SQLiteBindable)?]) throws -> Int64? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// The first column of the first row as text.
    public func scalarString(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.optionalString(0)
    }

    /// Runs one or more statements separated by semicolons, without caching them.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// The rowid of the last inserted row.
    /// Runs `body` again while it fails with `busy`, for up to the busy timeout: for the few
    /// operations SQLite does not wait on itself (switching the journal mode while another
    /// process is opening the same new file returns SQLITE_BUSY at once).
    public func retryingWhileBusy<T>(_ body: () throws -> T) throws -> T {
        var waited: Int32 = 0
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.code == .busy && waited < busyTimeoutMilliseconds {
                usleep(2_000)
                waited += 2
            }
        }
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    // MARK: - Transactions

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`: the write lock is taken first,
    /// waiting out other writers for the busy timeout). Commits when `body` returns; rolls back
    /// when it throws, and rethrows. Nested calls become savepoints.
    public func write<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction(begin: "BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in a read transaction: one consistent snapshot for all its queries.
    public func read<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction(begin: "BEGIN DEFERRED", body)
    }

    /// Runs `body` as `write` does, then rolls back what it wrote, however it ends: what a change
    /// would do, read inside (`tasks mcp`'s plans), with nothing kept.
    public func rehearse<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction(begin: "BEGIN IMMEDIATE", keeping: false, body)
    }

    private func transaction<Result>(begin: String, keeping: Bool = true, _ body: () throws -> Result) throws -> Result {
        if transactionDepth > 0 {
            let name = "s\(transactionDepth)"
            try execute("SAVEPOINT \(name)")
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            do {
                let result = try body()
                try execute(keeping ? "RELEASE \(name)" : "ROLLBACK TO \(name); RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name); RELEASE \(name)")
                throw error
            }
        }
        try execute(begin)
        transactionDepth = 1
        defer { transactionDepth = 0 }
        do {
            let result = try body()
            try execute(keeping ? "COMMIT" : "ROLLBACK")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

// MARK: - Functions written in Swift

/// What a SQL function of one text argument computes: an integer from the bytes, or text.
final class TextFunction {
    enum Body {
        case integer((UnsafeBufferPointer<UInt8>) -> Int64)
        case text((String) -> String)
    }

    let body: Body
    init(_ body: Body) { self.body = body }
}

extension Connection {
    /// Makes `name(text)` callable in this connection's SQL, computed by `body` from the text's
    /// UTF-8 bytes (NULL gives NULL). Deterministic: SQLite may compute it once per value.
    public func defineTextFunction(_ name: String, _ body: @escaping (UnsafeBufferPointer<UInt8>) -> Int64) throws {
        try define(name, TextFunction(.integer(body)))
    }

    /// `name(text)` in SQL on this connection, text to text (`tasks_fold`): deterministic,
    /// NULL for NULL.
    public func defineTextMapping(_ name: String, _ body: @escaping (String) -> String) throws {
        try define(name, TextFunction(.text(body)))
    }

    private func define(_ name: String, _ function: TextFunction) throws {
        let box = Unmanaged.passRetained(function).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, _, arguments in
                guard let context, let argument = arguments?[0], sqlite3_value_type(argument) != SQLITE_NULL else {
                    sqlite3_result_null(context)
                    return
                }
                let function = Unmanaged<TextFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                let bytes = UnsafeBufferPointer(start: sqlite3_value_text(argument), count: Int(sqlite3_value_bytes(argument)))
                switch function.body {
                case .integer(let body):
                    sqlite3_result_int64(context, body(bytes))
                case .text(let body):
                    var result = body(String(decoding: bytes, as: UTF8.self))
                    result.withUTF8 { text in
                        sqlite3_result_text(context, UnsafeRawPointer(text.baseAddress)?.assumingMemoryBound(to: CChar.self),
                                            Int32(text.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    }
                }
            },
            nil, nil,
            { box in if let box { Unmanaged<TextFunction>.fromOpaque(box).release() } }
        )
        if code != SQLITE_OK { throw SQLiteError.last(on: handle, fallback: code) }
    }
}

/// What a SQL function of two text arguments computes (`tasks_custom`, `tasks_regexp`).
final class PairFunction {
    let body: (String?, String?) -> SQLiteValue
    init(_ body: @escaping (String?, String?) -> SQLiteValue) { self.body = body }
}

extension Connection {
    /// `name(a, b)` in SQL on this connection: each argument as text (NULL as nil), the result
    /// any value. Deterministic.
    public func definePairFunction(_ name: String, _ body: @escaping (String?, String?) -> SQLiteValue) throws {
        let box = Unmanaged.passRetained(PairFunction(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, arguments in
                guard let context, count == 2, let arguments else { return }
                func text(_ index: Int) -> String? {
                    guard let argument = arguments[index], sqlite3_value_type(argument) != SQLITE_NULL else { return nil }
                    return String(decoding: UnsafeBufferPointer(start: sqlite3_value_text(argument), count: Int(sqlite3_value_bytes(argument))), as: UTF8.self)
                }
                let function = Unmanaged<PairFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                switch function.body(text(0), text(1)) {
                case .null, .blob: sqlite3_result_null(context)
                case .integer(let value): sqlite3_result_int64(context, value)
                case .real(let value): sqlite3_result_double(context, value)
                case .text(var value):
                    value.withUTF8 { bytes in
                        sqlite3_result_text(context, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
                                            Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    }
                }
            },
            nil, nil,
            { box in if let box { Unmanaged<PairFunction>.fromOpaque(box).release() } }
        )
        if code != SQLITE_OK { throw SQLiteError.last(on: handle, fallback: code) }
    }
}

/// What a SQL function of three integer arguments does with each row it is called on
/// (`tasks_tally`): an aggregate kept in Swift, with no GROUP BY (and no sort) in SQL.
final class TallyFunction {
    let body: (Int64?, Int64?, Int64?) -> Void
    init(_ body: @escaping (Int64?, Int64?, Int64?) -> Void) { self.body = body }
}

extension Connection {
    /// `name(a, b, c)` in SQL on this connection: `body` is given each call's three integers
    /// (nil: NULL, or not an integer) and the call is NULL. Not deterministic: SQLite calls
    /// it once per row it is written on. Defining it again replaces it.
    public func defineTally(_ name: String, _ body: @escaping (Int64?, Int64?, Int64?) -> Void) throws {
        let box = Unmanaged.passRetained(TallyFunction(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, 3, SQLITE_UTF8, box,
            { context, count, arguments in
                guard let context else { return }
                sqlite3_result_null(context)
                guard count == 3, let arguments else { return }
                func integer(_ index: Int) -> Int64? {
                    guard let argument = arguments[index], sqlite3_value_type(argument) == SQLITE_INTEGER else { return nil }
                    return sqlite3_value_int64(argument)
                }
                Unmanaged<TallyFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue().body(integer(0), integer(1), integer(2))
            },
            nil, nil,
            { box in if let box { Unmanaged<TallyFunction>.fromOpaque(box).release() } }
        )
        if code != SQLITE_OK { throw SQLiteError.last(on: handle, fallback: code) }
    }
}
