import SQLiteDB
import TaskModel

/// A `TaskQuery` as SQL: filtering, sorting and grouping happen in SQLite.
/// (`TaskQuery.matches` and `orders` state the same rules in Swift; a test keeps them equal.)
public enum TaskQuerySQL {
    /// One key of a query's order: its SQL, and the value it has for a task (to seek past one).
    public struct OrderKey {
        public let sql: String
        public var descending = false
        public let value: (Task) -> SQLiteValue

        public init(sql: String, descending: Bool = false, value: @escaping (Task) -> SQLiteValue) {
            self.sql = sql
            self.descending = descending
            self.value = value
        }
    }

    /// The keys `query` orders by, in order; every one is NOT NULL, and the last is the id, so
    /// that together they order every row one way and a row can be sought by them.
    public static func orderKeys(_ query: TaskQuery) -> [OrderKey] {
        let list = OrderKey(sql: "list") { .text($0.list) }
        let position = OrderKey(sql: "position") { .integer($0.position) }
        let id = OrderKey(sql: "id") { .integer($0.id) }
        var keys: [OrderKey] = []
        switch query.grouping {
        case .byList: keys.append(list)
        case .byStatus: keys.append(OrderKey(sql: "done") { .integer($0.isDone ? 1 : 0) })
        case .none: break
        }
        switch query.sort {
        case .manual: keys += [list, position, id]
        case .due:
            keys += [OrderKey(sql: "(due IS NULL)") { .integer($0.due == nil ? 1 : 0) },
                     OrderKey(sql: "coalesce(due, '')") { .text($0.due?.description ?? "") }, list, position, id]
        case .priority: keys += [OrderKey(sql: "coalesce(priority, 3)") { .integer(Int64($0.priority?.rank ?? 3)) }, list, position, id]
        case .created: keys += [OrderKey(sql: "created") { .integer($0.created.millisecondsSince1970) }, id]
        case .id: keys += [id]
        case .started: keys += [OrderKey(sql: "coalesce(start, 0)") { .integer($0.start?.millisecondsSince1970 ?? 0) }, id]
        case .rank:
            let today = query.today ?? .unixEpoch
            let weights = query.rankWeights
            keys += [OrderKey(sql: "-\(TaskRank.sql(today: today, weights: weights))") { .integer(Int64(-TaskRank($0, today: today, weights: weights).score)) }, id]
        case .keys(let sortKeys):
            for key in sortKeys { keys += orderKeys(key, today: query.today ?? .unixEpoch, weights: query.rankWeights) }
            keys += [list, position, id]
        }
        // A repeated key never changes the order, but it keeps SQLite from reading the order
        // off an index (it would sort again): each key once.
        var seen = Set<String>()
        return keys.filter { seen.insert($0.sql).inserted }
    }

    /// The SQL keys of one report key: its field's order parts (a field a task may lack first
    /// by whether it is missing, always last, then by its value, never NULL, in the key's direction).
    public static func orderKeys(_ key: SortKey, today: CalendarDay, weights: TaskRank.Weights = .standard) -> [OrderKey] {
        key.field.order(descending: key.descending, in: QueryContext(today: today, weights: weights)).map { part in
            OrderKey(sql: part.sql, descending: part.descending) { part.value($0).sqliteValue }
        }
    }

    /// The SELECT of every column (or of `columns`) for `query`, in its order (or the reverse),
    /// and its arguments; `seek` adds a condition that starts after (or, reversed, before) the row with those keys.
    public static func select(_ query: TaskQuery, reversed: Bool = false, after anchor: Task? = nil, columns: String)
        -> (sql: String, arguments: [(any SQLiteBindable)?]) {
        var (filter, arguments) = whereClause(query)
        let keys = orderKeys(query)
        if let anchor {
            let condition: String
            if keys.allSatisfy({ !$0.descending }) {
                condition = "(" + keys.map(\.sql).joined(separator: ", ") + ") " + (reversed ? "<" : ">")
                    + " (" + keys.map { _ in "?" }.joined(separator: ", ") + ")"
                arguments += keys.map { $0.value(anchor) }
            } else {
                // Keys running both ways: a row value cannot compare them, so the same test
                // spelled out — after the anchor on the first key that differs.
                var alternatives: [String] = []
                for (index, key) in keys.enumerated() {
                    let equal = keys[..<index].map { "\($0.sql) = ?" }
                    arguments += keys[..<index].map { $0.value(anchor) }
                    let after = key.descending != reversed ? "<" : ">"
                    alternatives.append("(" + (equal + ["\(key.sql) \(after) ?"]).joined(separator: " AND ") + ")")
                    arguments.append(key.value(anchor))
                }
                condition = "(" + alternatives.joined(separator: " OR ") + ")"
            }
            filter += (filter.isEmpty ? " WHERE " : " AND ") + condition
        }
        let orderBy = " ORDER BY " + keys.map { $0.sql + ($0.descending != reversed ? " DESC" : "") }.joined(separator: ", ")
        // With the tombstones, each row says last whether it is one (`TaskColumn.decode`).
        let selected = query.includesDeleted ? columns + ", deleted" : columns
        return ("SELECT \(selected) FROM \(source(query))" + filter + orderBy, arguments)
    }

    /// `SELECT count(*)` of what `select(query)` selects, with the same arguments.
    public static func count(_ query: TaskQuery) -> String {
        "SELECT count(*) FROM \(source(query))" + whereClause(query).sql
    }

    /// What `query` reads from: the task table or, when it includes the deleted tasks, the
    /// table and the tombstones as one, named `task` (a subquery's own `FROM task` is still
    /// the table), with a `deleted` column.
    public static func source(_ query: TaskQuery) -> String {
        query.includesDeleted ? withTombstones : "task"
    }

    /// The task table's rows and each deleted task's tombstone (its latest row a command
    /// deleted, not purged, its uuid not in the table again), the moment it was deleted as
    /// its `modified`. Every column, in the table's order.
    static let withTombstones: String = {
        let columns = ["id", "uuid"] + TaskFields.all.map(\.column)
        let kept = columns.map { $0 == "modified" ? "coalesce(d.removed, d.modified)" : "d." + $0 }
        return """
            (SELECT \(columns.joined(separator: ", ")), 0 AS deleted FROM task UNION ALL \
            SELECT \(kept.joined(separator: ", ")), 1 FROM deleted_task AS d WHERE \(tombstone("d"))) AS task
            """
    }()

    /// The condition that row `d` of `deleted_task` is its task's tombstone.
    public static func tombstone(_ d: String) -> String {
        "\(d).tombstone = 1 AND \(d).purged IS NULL AND NOT EXISTS (SELECT 1 FROM task AS t WHERE t.uuid = \(d).uuid) "
            + "AND \(d).entry = (SELECT max(e.entry) FROM deleted_task AS e WHERE e.uuid = \(d).uuid AND e.tombstone = 1 AND e.purged IS NULL)"
    }

    /// The section a row falls in, as SQL: what `TaskQuery.header(for:)` says.
    public static func header(_ query: TaskQuery) -> String {
        switch query.grouping {
        case .byList: return "list"
        case .byStatus: return "CASE done WHEN 1 THEN 'Done' ELSE 'Pending' END"
        case .none: return "''"
        }
    }

    /// ` WHERE …` (or nothing) for `query`'s filter, and its arguments: each value bound where
    /// it is written (`TaskFilterSQL.bind`), so the arguments are in the order of their `?`s.
    public static func whereClause(_ query: TaskQuery) -> (sql: String, arguments: [(any SQLiteBindable)?]) {
        var sql = TaskFilterSQL(clock: query.filterClock, tombstones: query.includesDeleted)
        var conditions: [String] = []
        // With a search the trigram index finds the few rows first: `+` keeps SQLite from
        // walking the (done, list) index over every row instead (167 ms against 4 ms at a
        // million), and the rows found are sorted.
        let needle = query.search.map(TaskQuery.foldCase) ?? ""  // folded as the index folds
        let indexed = needle.count >= 3 ? "+" : ""
        switch query.status {
        case .pending: conditions.append("\(indexed)done = 0")
        case .done: conditions.append("\(indexed)done = 1")
        case .all: break
        }
        if query.includesDeleted && query.status != .all { conditions.append("deleted = 0") }
        if query.active { conditions.append("start IS NOT NULL") }
        if let uuids = query.uuids {
            conditions.append(uuids.isEmpty ? "0" : "uuid IN (" + uuids.map { sql.bind($0) }.joined(separator: ", ") + ")")
        }
        if let uuid = query.waitingOn {
            // `depends <> ''` lets SQLite read the partial index of the tasks that wait on any.
            conditions.append("depends <> '' AND instr(depends, \(sql.bind(" \(uuid) "))) > 0")
        }
        if let dueBefore = query.dueBefore { conditions.append("due IS NOT NULL AND due < \(sql.bind(dueBefore.description))") }
        if let dueFrom = query.dueFrom { conditions.append("due IS NOT NULL AND due >= \(sql.bind(dueFrom.description))") }
        if query.today != nil, query.clockReading != nil {
            // A date is past when it is a day before today, or a moment before now: by text, a
            // moment of today sorts after today's day and compares with the clock's reading
            // (TaskDate). One range or two on the column, so its index serves.
            if query.overdue { conditions.append("due IS NOT NULL AND " + sql.past("due")) }
            // Each kind of hidden task: the condition that leaves it out, and the one that keeps
            // only it. A wait is ahead while it is after the clock's reading (a day after
            // today is after every reading of today).
            if query.waiting != .shown {
                conditions.append(query.waiting == .hidden ? "(wait IS NULL OR wait <= \(sql.bind(sql.clock.now)))" : "wait > \(sql.bind(sql.clock.now))")
            }
            if query.expired != .shown {
                conditions.append(query.expired == .hidden ? "(until IS NULL OR done = 1 OR NOT \(sql.past("until")))" : "(done = 0 AND \(sql.past("until")))")
            }
        }
        if let filter = query.filter { conditions.append(sql.condition(filter)) }
        if !needle.isEmpty { conditions.append(sql.condition(.term(.text(needle)))) }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), sql.arguments)
    }
}
