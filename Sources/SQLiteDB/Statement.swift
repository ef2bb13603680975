import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns. The C macro is a
/// cast of -1 to a function pointer, which Swift cannot import, so it is rebuilt here.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared SQL statement. Made and cached by `Connection.prepare`; reused across calls.
/// Not shared across threads (neither is its connection).
public final class Statement {
    let handle: OpaquePointer
    /// The SQL it was prepared from.
    public let sql: String
    private let db: OpaquePointer

    init(db: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError.last(on: db, sql: sql, fallback: code)
        }
        self.db = db
        self.sql = sql
        self.handle = statement
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement for another run and clears its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement for another run and keeps its bindings: for a caller that binds
    /// every parameter before each run, where clearing them first is work thrown away (a
    /// bulk INSERT of 2,400 parameters: 3% of `add -`).
    public func rewind() {
        sqlite3_reset(handle)
    }

    // MARK: - Binding

    /// Binds `values` to the parameters 1, 2, … in order.
    public func bind(_ values: [(any SQLiteBindable)?]) throws {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds `values` to the parameters 1, 2, … in order, without boxing each value.
    public func bind(values: [SQLiteValue]) throws {
        var index: Int32 = 1
        for value in values {
            let code = value.bind(to: handle, at: index)
            if code != SQLITE_OK { throw SQLiteError.last(on: db, sql: sql, fallback: code) }
            index += 1
        }
    }

    /// Binds one value (or NULL) to the 1-based parameter `index`.
    public func bind(_ value: (any SQLiteBindable)?, at index: Int32) throws {
        let code = value?.bind(to: handle, at: index) ?? sqlite3_bind_null(handle, index)
        if code != SQLITE_OK { throw SQLiteError.last(on: db, sql: sql, fallback: code) }
    }

    /// Binds text (or NULL) to the 1-based parameter `index`, without boxing the value.
    public func bind(text value: String?, at index: Int32) throws {
        let code = value?.bind(to: handle, at: index) ?? sqlite3_bind_null(handle, index)
        if code != SQLITE_OK { throw SQLiteError.last(on: db, sql: sql, fallback: code) }
    }

    /// Binds an integer (or NULL) to the 1-based parameter `index`, without boxing the value.
    public func bind(integer value: Int64?, at index: Int32) throws {
        let code = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        if code != SQLITE_OK { throw SQLiteError.last(on: db, sql: sql, fallback: code) }
    }

    // MARK: - Running

    /// Runs one step: `true` when a row is ready to read, `false` when done.
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError.last(on: db, sql: sql, fallback: code)
        }
    }

    /// Runs the statement to the end, ignoring rows.
    public func run() throws {
        while try step() {}
    }

    // MARK: - Reading the current row

    /// How many columns each row has.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// Whether column `index` (0-based) is NULL.
    @inline(__always) public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` as an integer (0 for NULL).
    @inline(__always) public func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` as a double (0 for NULL).
    @inline(__always) public func double(_ index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// Column `index` as text (empty for NULL). Invalid UTF-8 is repaired, never trapped on.
    public func string(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as text, or `nil` for NULL.
    public func optionalString(_ index: Int32) -> String? {
        isNull(index) ? nil : string(index)
    }

    /// Column `index` as an integer, or `nil` for NULL.
    public func optionalInt64(_ index: Int32) -> Int64? {
        isNull(index) ? nil : int64(index)
    }

    /// Column `index` as bytes (empty for NULL).
    public func blob(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

/// A Swift value SQLite can take as a parameter.
public protocol SQLiteBindable {
    /// Binds the value to parameter `index` of `statement`; returns SQLite's result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension Int64: SQLiteBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }
}

extension Int: SQLiteBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Bool: SQLiteBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self ? 1 : 0)
    }
}

extension Double: SQLiteBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, self)
    }
}

extension String: SQLiteBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { bytes in
            // An empty buffer may have no address; SQLite would take a null pointer as NULL.
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return csqlite_bind_empty_text(statement, index) }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(statement, index, $0, sqlite3_uint64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
            }
        }
    }
}

extension Array: SQLiteBindable where Element == UInt8 {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withUnsafeBytes { bytes in
            // A null pointer would bind NULL; an empty blob is a zero-length blob.
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return sqlite3_bind_blob64(statement, index, base, sqlite3_uint64(bytes.count), sqliteTransient)
        }
    }
}
