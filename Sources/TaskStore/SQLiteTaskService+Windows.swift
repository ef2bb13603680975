import QueryLanguage
import ReactorCore
import SQLiteDB
import TaskModel
import TextFormats

// MARK: - Reading a result a part at a time

extension SQLiteTaskService {
    public func totals(_ query: TaskQuery, measuringCells: Bool) -> Observable<TaskQueryTotals> {
        call { try $0.totalsNow(query, measuringCells: measuringCells) }
    }

    public func rows(_ query: TaskQuery, _ request: TaskRowRequest) -> Observable<[Task]> {
        call { try $0.rowsNow(query, request) }
    }

    public func ids(_ query: TaskQuery, in range: Range<Int>) -> Observable<[Int64]> {
        call { service in
            let lower = max(0, range.lowerBound), count = max(0, range.upperBound - lower)
            guard count > 0 else { return [] }
            let statement = TaskQuerySQL.select(query, columns: "id")
            let db = try service.db
            return try db.read {
                try db.query(statement.sql + " LIMIT \(count) OFFSET \(lower)", statement.arguments, expectedCount: min(count, 4096)) { $0.int64(0) }
            }
        }
    }

    public func position(of id: Int64, in query: TaskQuery) -> Observable<Int?> {
        call { service in
            let db = try service.db
            return try db.read { () throws -> Int? in
                guard let task = try service.readTask(id: id) else { return nil }
                let (filter, arguments) = TaskQuerySQL.whereClause(query)
                let chosen = try db.scalar("SELECT count(*) FROM \(TaskQuerySQL.source(query))" + filter + (filter.isEmpty ? " WHERE " : " AND ") + "id = ?",
                                           arguments: arguments + [id]) ?? 0
                guard chosen > 0 else { return nil }
                // The rows before it in the query's order: the seek a window move uses, counted.
                let before = TaskQuerySQL.select(query, reversed: true, after: task, columns: "1")
                return Int(try db.scalar("SELECT count(*) FROM (" + before.sql + ")", arguments: before.arguments) ?? 0)
            }
        }
    }

    public func stream(_ query: TaskQuery, batch: Int, fields: TaskFieldSet) -> Observable<TaskWindow> {
        .create { [unowned self] observer in
            do {
                try streamNow(query, batch: max(1, batch), fields: fields) { observer.onNext($0) }
                observer.onCompleted()
            } catch {
                observer.onError(StorageFailure.translate(error, path: path))
            }
            return Disposables.create()
        }
    }

    func totalsNow(_ query: TaskQuery, measuringCells: Bool) throws -> TaskQueryTotals {
        if measuringCells { try defineCellFunctions() }
        let (filter, arguments) = TaskQuerySQL.whereClause(query)
        let header = TaskQuerySQL.header(query)
        // Without cells, the counts alone: for a filter on the status only, read from the
        // index (done, list, position) without touching the table — a tenth of the time.
        let columns = measuringCells
            ? "count(*), max(tasks_cells(title) + 2 * (parent IS NOT NULL)), max(tasks_tag_cells(tags)), count(due), count(priority), max(id), "
                + "coalesce(max(length(due) > 10), 0)"
            : "count(*), 0, 0, 0, 0, 0, 0"
        // One section: no GROUP BY, which SQLite would sort every row for by a constant (a
        // temporary B-tree: `tasks count` at 100,000 tasks 37 ms, 10 without). Its one row of
        // an empty result (count 0) is no section, as GROUP BY gives none.
        let grouped = query.grouping != .none
        let sql = "SELECT \(header), \(columns) FROM \(TaskQuerySQL.source(query))\(filter)" + (grouped ? " GROUP BY 1 ORDER BY 1" : "")
        var totals = TaskQueryTotals()
        try db.read {
            let rows = try db.query(sql, arguments) { row in
                (row.string(0), Int(row.int64(1)), Int(row.int64(2)), Int(row.int64(3)), row.int64(4) > 0, row.int64(5) > 0, row.int64(6),
                 row.int64(7) > 0)
            }
            for (header, count, title, tags, due, priority, id, dueTime) in rows where grouped || count > 0 {
                totals.anyDueTime = totals.anyDueTime || dueTime
                totals.count += count
                totals.sections.append(.init(header: header, count: count))
                totals.titleCells = max(totals.titleCells, title)
                totals.tagsCells = max(totals.tagsCells, tags)
                totals.anyDue = totals.anyDue || due
                totals.anyPriority = totals.anyPriority || priority
                totals.largestID = max(totals.largestID, id)
            }
            if !measuringCells {
                // The largest id the table ever gave (AUTOINCREMENT's mark): it only grows.
                totals.largestID = try db.scalar("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'task'), (SELECT max(id) FROM task), 0)") ?? 0
            }
        }
        // Done sorts before pending by the column; the sections go pending first.
        if query.grouping == .byStatus { totals.sections.sort { $0.header == "Pending" && $1.header != "Pending" } }
        return totals
    }

    func rowsNow(_ query: TaskQuery, _ request: TaskRowRequest) throws -> [Task] {
        let statement: (sql: String, arguments: [(any SQLiteBindable)?])
        var (limit, offset, reversed) = (0, 0, false)
        switch request {
        case .first(let count):
            statement = TaskQuerySQL.select(query)
            limit = count
        case .last(let count):
            statement = TaskQuerySQL.select(query, reversed: true)
            (limit, reversed) = (count, true)
        case .at(let start, let count):
            statement = TaskQuerySQL.select(query)
            (limit, offset) = (count, start)
        case .after(let task, let count):
            statement = TaskQuerySQL.select(query, after: task)
            limit = count
        case .before(let task, let count):
            statement = TaskQuerySQL.select(query, reversed: true, after: task)
            (limit, reversed) = (count, true)
        }
        let sql = statement.sql + " LIMIT \(max(0, limit)) OFFSET \(max(0, offset))"
        let rows = try db.read { try db.query(sql, statement.arguments, expectedCount: min(limit, 4096)) { TaskColumn.decode($0) } }
        return reversed ? rows.reversed() : rows
    }

    /// Every row `query` selects, `batch` at a time, from one statement in one read transaction.
    func streamNow(_ query: TaskQuery, batch: Int, fields: TaskFieldSet, _ send: (TaskWindow) -> Void) throws {
        var (sql, arguments) = TaskQuerySQL.select(query, fields: fields)
        if let limit = query.limit { sql += " LIMIT \(max(0, limit))" }
        try db.read {
            let statement = try db.prepare(sql)
            defer { statement.reset() }
            try statement.bind(arguments)
            let offsets = TaskColumn.offsets(fields)
            var window = TaskWindow(start: 0, rows: [])
            // A batch is what the caller asks for: never reserve more than a few pages' worth up front.
            window.rows.reserveCapacity(min(max(0, batch), 4096))
            while try statement.step() {
                window.rows.append(TaskColumn.decode(statement, offsets: offsets))
                if window.rows.count == batch {
                    send(window)
                    window.start += batch
                    window.rows.removeAll(keepingCapacity: true)
                }
            }
            if !window.rows.isEmpty || window.start == 0 { send(window) }
        }
    }

    /// `tasks_cells(text)`: the cells text takes on a terminal, controls escaped;
    /// `tasks_tag_cells(tags)`: those of the tags column shown as `+a +b`.
    private func defineCellFunctions() throws {
        if hasCellFunctions { return }
        try db.defineTextFunction("tasks_cells") { Int64(TerminalText.shownWidth(utf8: $0)) }
        try db.defineTextFunction("tasks_tag_cells") { bytes in
            var cells = 0, tags = 0
            for tag in bytes.split(separator: 0x20) {
                cells += TerminalText.shownWidth(utf8: UnsafeBufferPointer(rebasing: tag)) + 1
                tags += 1
            }
            return Int64(cells + max(0, tags - 1))
        }
        hasCellFunctions = true
    }
}

extension SQLiteTaskService {
    /// The first `limit` tasks `query` selects, in its order, and how many it selects counted
    /// up to `most` (a count of `most` means at least that many): one read, which stops once it
    /// has counted `most` — a page without counting every match of a large file (`tasks mcp`'s
    /// `query`).
    public func page(_ query: TaskQuery, limit: Int, countingUpTo most: Int) throws -> (count: Int, tasks: [Task]) {
        do {
            let statement = TaskQuerySQL.select(query)
            let db = try self.db
            return try db.read {
                // Unordered: the count stops at `most` rows, whichever they are.
                let (conditions, arguments) = TaskQuerySQL.whereClause(query)
                let count = try db.scalar("SELECT count(*) FROM (SELECT 1 FROM \(TaskQuerySQL.source(query))\(conditions) LIMIT \(max(0, most)))",
                                          arguments: arguments) ?? 0
                let rows = try db.query(statement.sql + " LIMIT \(max(0, limit))", statement.arguments, expectedCount: min(max(0, limit), 4096)) {
                    TaskColumn.decode($0)
                }
                return (Int(count), rows)
            }
        } catch {
            throw StorageFailure.translate(error, path: path)
        }
    }
}
