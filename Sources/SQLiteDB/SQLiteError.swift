import CSQLite

/// A failure reported by SQLite, or by this wrapper around it.
///
/// Keeps SQLite's extended result code, its message and the SQL that failed; match on
/// `code` (the primary code) to tell a busy database from a corrupt one.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The primary result codes a caller may want to tell apart.
    public enum Code: Int32, Sendable {
        case error = 1, `internal` = 2, permission = 3, abort = 4, busy = 5, locked = 6
        case noMemory = 7, readOnly = 8, interrupt = 9, ioError = 10, corrupt = 11, notFound = 12
        case full = 13, cantOpen = 14, `protocol` = 15, empty = 16, schema = 17, tooBig = 18
        case constraint = 19, mismatch = 20, misuse = 21, noLFS = 22, auth = 23, format = 24
        case range = 25, notADatabase = 26, notice = 27, warning = 28
    }

    /// SQLite's extended result code (e.g. `SQLITE_CONSTRAINT_UNIQUE`).
    public let extendedCode: Int32
    /// SQLite's message, e.g. "UNIQUE constraint failed: task.uuid".
    public let message: String
    /// The SQL being run, when there was one.
    public let sql: String?

    /// Makes an error from a result code and a message.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`extendedCode & 0xff`); `.error` for codes not listed.
    public var code: Code { Code(rawValue: extendedCode & 0xff) ?? .error }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }

    /// The error for the latest failure on `db`.
    static func last(on db: OpaquePointer?, sql: String? = nil, fallback: Int32) -> SQLiteError {
        guard let db else {
            return SQLiteError(extendedCode: fallback, message: String(cString: sqlite3_errstr(fallback)), sql: sql)
        }
        let code = sqlite3_extended_errcode(db)
        return SQLiteError(
            extendedCode: code == SQLITE_OK ? fallback : code,
            message: String(cString: sqlite3_errmsg(db)),
            sql: sql
        )
    }
}
