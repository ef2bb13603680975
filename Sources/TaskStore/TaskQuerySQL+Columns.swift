import QueryLanguage
import SQLiteDB
import TaskModel

extension TaskQuerySQL {
    /// The SELECT of the table's columns for `fields` (every column by default), in the
    /// query's order or its reverse, from after `anchor` when one is given.
    static func select(_ query: TaskQuery, reversed: Bool = false, after anchor: Task? = nil, fields: TaskFieldSet = .all)
        -> (sql: String, arguments: [(any SQLiteBindable)?]) {
        select(query, reversed: reversed, after: anchor, columns: TaskColumn.names(fields))
    }
}
