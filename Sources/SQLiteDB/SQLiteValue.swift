import CSQLite

/// One value as SQLite stores it: what a column of any type held, kept to be compared or
/// written back exactly (the history's before and after values).
public enum SQLiteValue: Equatable, Hashable, Sendable, SQLiteBindable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .null: return sqlite3_bind_null(statement, index)
        case .integer(let value): return value.bind(to: statement, at: index)
        case .real(let value): return value.bind(to: statement, at: index)
        case .text(let value): return value.bind(to: statement, at: index)
        case .blob(let value): return value.bind(to: statement, at: index)
        }
    }
}

extension Statement {
    /// Column `index` as the value SQLite holds, of whatever type.
    public func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_BLOB: return .blob(blob(index))
        default: return .text(string(index))
        }
    }
}
