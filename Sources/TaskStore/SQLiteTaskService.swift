import ReactorCore
import SQLiteDB
import TaskKit

/// `TaskService` on one SQLite file: every call is one transaction; every change is announced
/// on `event` after its transaction committed, never on rollback.
public final class SQLiteTaskService: TaskService {
    public let event = PublishSubject<TaskEvent>()

    /// The connection; one per service, not shared across threads.
    public let db: Connection
    private let now: () -> Timestamp
    private let makeUUID: () -> String

    /// The batch size from which `createNow` loads through a rollback journal.
    static let bulkLoadThreshold = 10_000

    /// The gap between neighbours' positions when a list is numbered afresh.
    static let positionGap: Int64 = 1 << 16

    /// Opens (and, with `create`, makes privately) the file at `path`, refuses a file from a
    /// newer version before writing anything, then sets WAL and migrates.
    public init(
        path: String,
        create: Bool = true,
        now: @escaping () -> Timestamp = SystemClock.now,
        makeUUID: (() -> String)? = nil
    ) throws {
        if create && path != ":memory:" { try PrivateFile.createIfMissing(path) }
        db = try Connection(path: path, options: create ? [.create] : [])
        self.now = now
        self.makeUUID = makeUUID ?? TimeOrderedUUID.generator(now: now)
        let migrator = Migrator(TaskSchema.migrations)
        try migrator.checkNotNewer(db)
        // WAL is a property of the file: set it once (and again after an interrupted bulk load).
        if path != ":memory:" {
            try db.retryingWhileBusy {
                if try db.scalarString("PRAGMA journal_mode") != "wal" { try db.execute("PRAGMA journal_mode = WAL") }
            }
        }
        try db.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000")
        try migrator.migrate(db)
    }

    // MARK: - Reading

    public func fetch(_ query: TaskQuery) -> Observable<[Task]> {
        .deferred { [unowned self] in .just(try self.fetchNow(query)) }
    }

    public func task(id: Int64) -> Observable<Task> {
        .deferred { [unowned self] in
            guard let task = try self.db.read({ try self.readTask(id: id) }) else {
                throw TaskServiceError.notFound(ids: [id])
            }
            return .just(task)
        }
    }

    public func lists() -> Observable<[TaskListSummary]> {
        .deferred { [unowned self] in
            .just(try self.db.query("""
                SELECT list, sum(done = 0), sum(done = 1) FROM task GROUP BY list ORDER BY list
                """) { row in
                TaskListSummary(name: row.string(0), pending: Int(row.int64(1)), done: Int(row.int64(2)))
            })
        }
    }

    /// The tasks `query` selects, now, in one read transaction.
    public func fetchNow(_ query: TaskQuery) throws -> [Task] {
        let (sql, arguments) = SQLiteTaskService.select(query)
        return try db.read {
            // Counting first (from an index, without the rows) sizes the array once: a
            // 100,000-task list then touches half the memory it would by doubling.
            let count = try db.scalar(SQLiteTaskService.count(query), arguments: arguments) ?? 0
            return try db.query(sql, arguments, expectedCount: Int(count)) { try SQLiteTaskService.readTask($0) }
        }
    }

    /// The SQL and arguments for `query`: filtering and ordering happen in SQLite.
    static func select(_ query: TaskQuery) -> (String, [(any SQLiteBindable)?]) {
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
        return ("SELECT \(TaskSchema.columns) FROM task" + filter + orderBy, arguments)
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

    static func readTask(_ row: Statement) throws -> Task {
        Task(
            id: row.int64(0),
            uuid: row.string(1),
            title: row.string(2),
            notes: row.string(3),
            list: row.string(4),
            isDone: row.int64(5) != 0,
            completed: row.optionalInt64(6).map(Timestamp.init(millisecondsSince1970:)),
            due: row.optionalString(7).flatMap { CalendarDay($0) },
            priority: row.optionalInt64(8).flatMap { rank in Priority.allCases.first { Int64($0.rank) == rank } },
            tags: row.string(9).split(separator: " ").map(String.init),
            position: row.int64(10),
            created: Timestamp(millisecondsSince1970: row.int64(11)),
            modified: Timestamp(millisecondsSince1970: row.int64(12))
        )
    }

    func readTask(id: Int64) throws -> Task? {
        try db.query("SELECT \(TaskSchema.columns) FROM task WHERE id = ?", [id]) { try SQLiteTaskService.readTask($0) }.first
    }

    /// Every one of `ids`, in the order given; throws `notFound` naming the missing ones.
    func readTasks(ids: [Int64]) throws -> [Task] {
        var found: [Task] = []
        var missing: [Int64] = []
        for id in ids {
            if let task = try readTask(id: id) { found.append(task) } else { missing.append(id) }
        }
        if !missing.isEmpty { throw TaskServiceError.notFound(ids: missing) }
        return found
    }

    // MARK: - Writing

    public func create(_ drafts: [TaskDraft]) -> Observable<[Task]> {
        .deferred { [unowned self] in
            let created = try self.createNow(drafts)
            self.announce(created.map(TaskEvent.create))
            return .just(created)
        }
    }

    /// Creates `drafts` in one transaction, a hundred rows per INSERT.
    public func createNow(_ drafts: [TaskDraft]) throws -> [Task] {
        return try bulkWrite(rows: drafts.count) {
            let time = now()
            var bottoms: [String: Int64] = [:]
            var created: [Task] = []
            created.reserveCapacity(drafts.count)
            var start = 0
            while start < drafts.count {
                // Up to `rowsPerInsert` rows per INSERT: one statement (and one statement
                // journal) per hundred rows instead of per row.
                let end = min(start + SQLiteTaskService.rowsPerInsert, drafts.count)
                let insert = try db.prepare(end - start == SQLiteTaskService.rowsPerInsert
                    ? SQLiteTaskService.fullInsertSQL : SQLiteTaskService.insertSQL(rows: end - start))
                var chunk: [Task] = []
                chunk.reserveCapacity(end - start)
                var parameter: Int32 = 1
                for draft in drafts[start..<end] {
                    let position: Int64
                    if let bottom = bottoms[draft.list] {
                        position = bottom + SQLiteTaskService.positionGap
                    } else {
                        let last = try db.scalar("SELECT max(position) FROM task WHERE list = ?", draft.list)
                        position = (last ?? 0) + SQLiteTaskService.positionGap
                    }
                    bottoms[draft.list] = position
                    let tags = SQLiteTaskService.normalizedTags(draft.tags)
                    let uuid = draft.uuid ?? makeUUID()
                    try insert.bind(text: uuid, at: parameter)
                    try insert.bind(text: draft.title, at: parameter + 1)
                    try insert.bind(text: draft.notes, at: parameter + 2)
                    try insert.bind(text: draft.list, at: parameter + 3)
                    try insert.bind(text: draft.due?.description, at: parameter + 4)
                    try insert.bind(integer: draft.priority.map { Int64($0.rank) }, at: parameter + 5)
                    try insert.bind(text: SQLiteTaskService.encodeTags(tags), at: parameter + 6)
                    try insert.bind(integer: position, at: parameter + 7)
                    try insert.bind(integer: time.millisecondsSince1970, at: parameter + 8)
                    try insert.bind(integer: time.millisecondsSince1970, at: parameter + 9)
                    parameter += 10
                    chunk.append(Task(
                        id: 0, uuid: uuid, title: draft.title, notes: draft.notes, list: draft.list,
                        due: draft.due, priority: draft.priority, tags: tags, position: position, created: time, modified: time
                    ))
                }
                try insert.run()
                insert.reset()
                // The rows of one INSERT get consecutive ids, the last of them the last insert rowid.
                let first = db.lastInsertRowID - Int64(chunk.count) + 1
                for index in chunk.indices { chunk[index].id = first + Int64(index) }
                created += chunk
                start = end
            }
            return created
        }
    }

    /// One write transaction of `rows` rows. A large batch keeps its index pages in memory (a
    /// ceiling, not an allocation) rather than spilling them mid-transaction; reads keep
    /// SQLite's small default. A bulk load writes its pages once through a rollback journal
    /// instead of twice (into the WAL, then into the file at checkpoint): half the time for
    /// 100,000 tasks. Still one atomic transaction; other processes wait for it (busy timeout)
    /// instead of reading beside it. When another connection holds the file open in WAL mode
    /// the switch is refused and the batch goes through the WAL as usual.
    private func bulkWrite<T>(rows: Int, _ body: () throws -> T) throws -> T {
        // Statement journals (each multi-row INSERT can be undone alone) go to memory, not to a
        // temporary file: with uuids in no order (todo.txt's are name-based) each INSERT touches
        // a hundred index pages, and 100,000 rows wrote 250,000 pages to that file.
        if rows >= 1000 { try db.execute("PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY") }
        defer { if rows >= 1000 { try? db.execute("PRAGMA cache_size = -2000; PRAGMA temp_store = DEFAULT") } }
        let bulk = rows >= SQLiteTaskService.bulkLoadThreshold && db.path != ":memory:"
            && (try? db.execute("PRAGMA journal_mode = DELETE")) != nil
            && (try? db.scalarString("PRAGMA journal_mode")) == "delete"
        defer {
            if bulk {
                try? db.execute("PRAGMA journal_mode = WAL")
                // Open and close one read in WAL mode: until then the connection refuses a
                // checkpoint with SQLITE_LOCKED.
                _ = try? db.scalar("SELECT count(*) FROM sqlite_schema")
            }
        }
        return try db.write(body)
    }

    // MARK: - Importing

    public func importTasks(_ records: [TaskRecord]) -> Observable<TaskImportResult> {
        .deferred { [unowned self] in
            let (result, events) = try self.importNow(records)
            self.announce(events)
            return .just(result)
        }
    }

    /// Imports `records` in one transaction; returns what it did and the events to announce.
    /// A record whose uuid is there updates that task (or, the same in every field, is left
    /// alone); any other is inserted, a hundred rows per INSERT, keeping its id when the file
    /// has never used it.
    public func importNow(_ records: [TaskRecord]) throws -> (TaskImportResult, [TaskEvent]) {
        try bulkWrite(rows: records.count) {
            let time = now()
            var result = TaskImportResult()
            var events: [TaskEvent] = []
            events.reserveCapacity(records.count)
            var bottoms: [String: Int64] = [:]
            func bottom(of list: String) throws -> Int64 {
                let last = try bottoms[list] ?? db.scalar("SELECT max(position) FROM task WHERE list = ?", list) ?? 0
                bottoms[list] = last + SQLiteTaskService.positionGap
                return last + SQLiteTaskService.positionGap
            }
            // An empty table needs no lookups: every record is new.
            let isEmpty = try db.scalar("SELECT count(*) FROM (SELECT 1 FROM task LIMIT 1)") == 0
            var lastID = try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'task'") ?? 0
            let lookup = try db.prepare("SELECT \(TaskSchema.columns) FROM task WHERE uuid = ?")
            var pending: [Task] = []
            pending.reserveCapacity(min(records.count, SQLiteTaskService.rowsPerInsert))
            for record in records {
                var existing: Task?
                if !isEmpty, let uuid = record.uuid {
                    lookup.reset()
                    try lookup.bind(text: uuid, at: 1)
                    if try lookup.step() { existing = try SQLiteTaskService.readTask(lookup) }
                }
                var id = Int64(0)
                if existing == nil {
                    // An id the file has never used is kept (a lossless round trip into an
                    // empty file); a used one is never given out again.
                    if let wanted = record.id, wanted > lastID { id = wanted } else { id = lastID + 1 }
                    lastID = id
                }
                let task = try record.task(over: existing, id: id, uuid: record.uuid ?? makeUUID(),
                                           bottom: try bottom(of: record.list), now: time)
                if let existing {
                    if task == existing {
                        result.unchanged += 1
                    } else {
                        try writeAll(task)
                        result.updated += 1
                        events.append(.update(task))
                    }
                } else {
                    pending.append(task)
                    result.created += 1
                    events.append(.create(task))
                    if pending.count == SQLiteTaskService.rowsPerInsert {
                        try insertAll(pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                }
            }
            try insertAll(pending)
            return (result, events)
        }
    }

    /// Inserts `tasks` with every column given, in one statement.
    private func insertAll(_ tasks: [Task]) throws {
        if tasks.isEmpty { return }
        let insert = try db.prepare("INSERT INTO task (\(TaskSchema.columns)) VALUES "
            + repeatElement("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: tasks.count).joined(separator: ", "))
        var parameter: Int32 = 1
        for task in tasks {
            try bindAll(task, to: insert, at: parameter)
            parameter += 13
        }
        try insert.run()
        insert.reset()
    }

    /// Writes every column of `task` over the row with its id.
    private func writeAll(_ task: Task) throws {
        let update = try db.prepare("""
            UPDATE task SET id = ?1, uuid = ?2, title = ?3, notes = ?4, list = ?5, done = ?6, completed = ?7, due = ?8,
            priority = ?9, tags = ?10, position = ?11, created = ?12, modified = ?13 WHERE id = ?1
            """)
        try bindAll(task, to: update, at: 1)
        try update.run()
        update.reset()
    }

    /// Binds the columns of `TaskSchema.columns`, in order, from `parameter` on.
    private func bindAll(_ task: Task, to statement: Statement, at parameter: Int32) throws {
        try statement.bind(integer: task.id, at: parameter)
        try statement.bind(text: task.uuid, at: parameter + 1)
        try statement.bind(text: task.title, at: parameter + 2)
        try statement.bind(text: task.notes, at: parameter + 3)
        try statement.bind(text: task.list, at: parameter + 4)
        try statement.bind(integer: task.isDone ? 1 : 0, at: parameter + 5)
        try statement.bind(integer: task.completed?.millisecondsSince1970, at: parameter + 6)
        try statement.bind(text: task.due?.description, at: parameter + 7)
        try statement.bind(integer: task.priority.map { Int64($0.rank) }, at: parameter + 8)
        try statement.bind(text: SQLiteTaskService.encodeTags(task.tags), at: parameter + 9)
        try statement.bind(integer: task.position, at: parameter + 10)
        try statement.bind(integer: task.created.millisecondsSince1970, at: parameter + 11)
        try statement.bind(integer: task.modified.millisecondsSince1970, at: parameter + 12)
    }

    /// Rows per INSERT statement in `createNow` (10 parameters each; SQLite allows 32,766).
    static let rowsPerInsert = 100

    static let fullInsertSQL = insertSQL(rows: rowsPerInsert)

    static func insertSQL(rows: Int) -> String {
        "INSERT INTO task (uuid, title, notes, list, due, priority, tags, position, created, modified) VALUES "
            + repeatElement("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    public func update(id: Int64, _ changes: TaskChanges) -> Observable<Task> {
        .deferred { [unowned self] in
            let task = try self.db.write { () -> Task in
                guard var task = try self.readTask(id: id) else { throw TaskServiceError.notFound(ids: [id]) }
                if changes.isEmpty { return task }
                if let title = changes.title { task.title = title }
                if let notes = changes.notes { task.notes = notes }
                if let list = changes.list, list != task.list {
                    task.list = list
                    task.position = try self.bottomPosition(of: list)
                }
                if let due = changes.due { task.due = due }
                if let priority = changes.priority { task.priority = priority }
                task.tags = SQLiteTaskService.normalizedTags(
                    task.tags.filter { !changes.removeTags.contains($0) } + changes.addTags
                )
                task.modified = self.now()
                try self.db.run("""
                    UPDATE task SET title = ?, notes = ?, list = ?, due = ?, priority = ?, tags = ?, position = ?,
                    modified = ? WHERE id = ?
                    """, task.title, task.notes, task.list, task.due?.description, task.priority?.rank,
                    SQLiteTaskService.encodeTags(task.tags), task.position, task.modified.millisecondsSince1970, task.id)
                return task
            }
            self.announce([.update(task)])
            return .just(task)
        }
    }

    public func delete(ids: [Int64]) -> Observable<[Task]> {
        .deferred { [unowned self] in
            let deleted = try self.db.write { () -> [Task] in
                let tasks = try self.readTasks(ids: SQLiteTaskService.unique(ids))
                let statement = try self.db.prepare("DELETE FROM task WHERE id = ?")
                for task in tasks {
                    statement.reset()
                    try statement.bind([task.id])
                    try statement.run()
                }
                return tasks
            }
            self.announce(deleted.map { .delete($0) })
            return .just(deleted)
        }
    }

    public func setDone(ids: [Int64], _ isDone: Bool) -> Observable<[Task]> {
        .deferred { [unowned self] in
            let changed = try self.db.write { () -> [Task] in
                try self.readTasks(ids: SQLiteTaskService.unique(ids)).compactMap { task in
                    task.isDone == isDone ? nil : try self.writeDone(task, isDone)
                }
            }
            self.announce(changed.map { $0.isDone ? .markAsDone($0) : .markAsUndone($0) })
            return .just(changed)
        }
    }

    public func toggle(ids: [Int64]) -> Observable<[Task]> {
        .deferred { [unowned self] in
            let changed = try self.db.write { () -> [Task] in
                try self.readTasks(ids: SQLiteTaskService.unique(ids)).map { try self.writeDone($0, !$0.isDone) }
            }
            self.announce(changed.map { $0.isDone ? .markAsDone($0) : .markAsUndone($0) })
            return .just(changed)
        }
    }

    /// Flips one task now, in one transaction, without an event: for benchmarks and tools.
    public func toggleNow(id: Int64) throws -> Task {
        try db.write {
            guard let task = try readTask(id: id) else { throw TaskServiceError.notFound(ids: [id]) }
            return try writeDone(task, !task.isDone)
        }
    }

    private func writeDone(_ task: Task, _ isDone: Bool) throws -> Task {
        var task = task
        let time = now()
        task.isDone = isDone
        task.completed = isDone ? time : nil
        task.modified = time
        try db.run("UPDATE task SET done = ?, completed = ?, modified = ? WHERE id = ?",
                   isDone, task.completed?.millisecondsSince1970, time.millisecondsSince1970, task.id)
        return task
    }

    public func move(id: Int64, to placement: TaskPlacement) -> Observable<Task> {
        .deferred { [unowned self] in
            let moved = try self.moveNow(id: id, to: placement)
            self.announce([.move(moved)])
            return .just(moved)
        }
    }

    /// Moves one task now, in one transaction, without an event: for benchmarks and tools.
    public func moveNow(id: Int64, to placement: TaskPlacement) throws -> Task {
        try db.write { try moveInTransaction(id: id, to: placement) }
    }

    private func moveInTransaction(id: Int64, to placement: TaskPlacement) throws -> Task {
        guard var task = try readTask(id: id) else { throw TaskServiceError.notFound(ids: [id]) }
        switch placement {
        case .top:
            let first = try db.scalar("SELECT min(position) FROM task WHERE list = ? AND id != ?", task.list, id)
            task.position = (first ?? 0) - SQLiteTaskService.positionGap
        case .bottom:
            let last = try db.scalar("SELECT max(position) FROM task WHERE list = ? AND id != ?", task.list, id)
            task.position = (last ?? 0) + SQLiteTaskService.positionGap
        case .list(let list):
            if list != task.list {
                task.list = list
                task.position = try bottomPosition(of: list)
            }
        case .before(let otherID), .after(let otherID):
            if otherID == id { throw TaskServiceError.moveRelativeToItself(id: id) }
            guard let other = try readTask(id: otherID) else { throw TaskServiceError.notFound(ids: [otherID]) }
            task.list = other.list
            let before: Bool
            if case .before = placement { before = true } else { before = false }
            task.position = try position(besides: other, before: before, excluding: id)
        }
        task.modified = now()
        try db.run("UPDATE task SET list = ?, position = ?, modified = ? WHERE id = ?",
                   task.list, task.position, task.modified.millisecondsSince1970, task.id)
        return task
    }

    /// A free position next to `other`: the midpoint of the gap. When the gap is used up, the
    /// list is numbered afresh (rare: each halving of a 65,536 gap survives 16 moves into it).
    private func position(besides other: Task, before: Bool, excluding id: Int64) throws -> Int64 {
        for _ in 0..<2 {
            let anchor = try db.scalar("SELECT position FROM task WHERE id = ?", other.id) ?? other.position
            let neighbour = before
                ? try db.scalar("SELECT max(position) FROM task WHERE list = ? AND position < ? AND id != ?", other.list, anchor, id)
                : try db.scalar("SELECT min(position) FROM task WHERE list = ? AND position > ? AND id != ?", other.list, anchor, id)
            guard let neighbour else {
                return before ? anchor - SQLiteTaskService.positionGap : anchor + SQLiteTaskService.positionGap
            }
            let (low, high) = before ? (neighbour, anchor) : (anchor, neighbour)
            if high - low >= 2 { return low + (high - low) / 2 }
            try renumber(list: other.list)
        }
        throw SQLiteError(extendedCode: 1, message: "no free position in list \(other.list) after renumbering")
    }

    /// Spreads a list's positions out again, keeping their order.
    private func renumber(list: String) throws {
        try db.run("""
            UPDATE task SET position = (
                SELECT ranked.rank * ?1 FROM (
                    SELECT id AS rid, row_number() OVER (ORDER BY position, id) AS rank FROM task WHERE list = ?2
                ) AS ranked WHERE ranked.rid = task.id)
            WHERE list = ?2
            """, SQLiteTaskService.positionGap, list)
    }

    private func bottomPosition(of list: String) throws -> Int64 {
        (try db.scalar("SELECT max(position) FROM task WHERE list = ?", list) ?? 0) + SQLiteTaskService.positionGap
    }

    // MARK: - Events

    private func announce(_ events: [TaskEvent]) {
        switch events.count {
        case 0: return
        case 1: event.onNext(events[0])
        default: event.onNext(.batch(events))
        }
    }

    // MARK: - Tags

    static func normalizedTags(_ tags: [String]) -> [String] {
        Array(Set(tags.filter { !$0.isEmpty })).sorted()
    }

    static func encodeTags(_ tags: [String]) -> String {
        tags.isEmpty ? "" : " " + tags.joined(separator: " ") + " "
    }

    static func unique(_ ids: [Int64]) -> [Int64] {
        var seen = Set<Int64>()
        return ids.filter { seen.insert($0).inserted }
    }
}
