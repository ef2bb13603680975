import SQLiteDB
import TaskModel

/// A `TaskQuery` as SQL: filtering, sorting and grouping happen in SQLite.
/// (`TaskQuery.matches` and `orders` state the same rules in Swift; a test keeps them equal.)
enum TaskQuerySQL {
    /// The SELECT of every column for `query`, in its order, and its arguments.
    static func select(_ query: TaskQuery) -> (sql: String, arguments: [(any SQLiteBindable)?]) {
        let (filter, arguments) = whereClause(query)
        var order: [String] = []
        switch query.grouping {
        case .byList: order.append("list")
        case .byStatus: order.append("done")
        case .none: break
        }
        switch query.sort {
        case .manual: order += ["list", "position", "id"]
        case .due: order += ["due IS NULL", "due", "list", "position", "id"]
        case .priority: order += ["coalesce(priority, 3)", "list", "position", "id"]
        case .created: order += ["created", "id"]
        case .id: order += ["id"]
        }
        // A repeated key never changes the order, but it keeps SQLite from reading the order
        // off an index (it would sort again): each key once.
        var seen = Set<String>()
        let orderBy = " ORDER BY " + order.filter { seen.insert($0).inserted }.joined(separator: ", ")
        return ("SELECT \(TaskColumn.names) FROM task" + filter + orderBy, arguments)
    }

    /// `SELECT count(*)` of what `select(query)` selects, with the same arguments.
    static func count(_ query: TaskQuery) -> String {
        "SELECT count(*) FROM task" + whereClause(query).sql
    }

    /// ` WHERE …` (or nothing) for `query`'s filter, and its arguments.
    static func whereClause(_ query: TaskQuery) -> (sql: String, arguments: [(any SQLiteBindable)?]) {
        var conditions: [String] = []
        var arguments: [(any SQLiteBindable)?] = []
        switch query.status {
        case .pending: conditions.append("done = 0")
        case .done: conditions.append("done = 1")
        case .all: break
        }
        if let list = query.list {
            conditions.append("list = ?")
            arguments.append(list)
        }
        if let tag = query.tag {
            conditions.append("instr(tags, ?) > 0")
            arguments.append(" \(tag) ")
        }
        if let priority = query.priority {
            conditions.append("priority = ?")
            arguments.append(priority.rank)
        }
        if let dueBefore = query.dueBefore {
            conditions.append("due IS NOT NULL AND due < ?")
            arguments.append(dueBefore.description)
        }
        if let search = query.search, !search.isEmpty {
            conditions.append("(title LIKE ? ESCAPE '\\' OR notes LIKE ? ESCAPE '\\')")
            let pattern = "%" + escapeLike(search) + "%"
            arguments.append(pattern)
            arguments.append(pattern)
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
