#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QueryLanguage
import ReactorCore
import SQLiteDB
import TaskModel

/// `TaskService` on one SQLite file: every call is one transaction; every change is announced
/// on `event` after its transaction committed, never on rollback. Every failure is a
/// `TaskServiceError`: nothing above this module sees SQLite.
///
/// A service made `lazilyAt` a path opens its file when a reactor first calls it — so that a
/// command refused by validation never opens the file — and creates it only for a call that
/// writes a new task (`create`, `importTasks`, `sync`): a read, or a change to a task, on a
/// file that does not exist yet sees an empty store and leaves no file behind.
public final class SQLiteTaskService: TaskService {
    public var event: Observable<TaskEvent> { events }

    private let events: PublishSubject<TaskEvent>
    /// The connection once opened; one per service, not shared across threads.
    private var connection: Connection?
    /// The connection, opened (without creating the file) on first use.
    var db: Connection {
        get throws {
            if let connection { return connection }
            return try open(creatingFile: false)
        }
    }
    /// The file, for error messages.
    public let path: String
    let now: () -> Timestamp
    /// The local day: what a repeating task's next due date counts from.
    public var today: () -> CalendarDay = SystemClock.today
    /// The local zone: the clock a repeating task's next moment is read on.
    public var localTime: LocalTime = .system
    /// What a command's changes are shown to before they commit (`on-add`, `on-modify` hooks).
    public var hooks: (any TaskHooks)?
    let makeUUID: () -> String
    private let vfs: String?
    /// The command the history records for this service's changes: `tasks done 3`.
    public var commandText = "tasks"
    /// Whether anyone would hear an event: when nobody listens, a change builds none.
    public var wantsEvents: () -> Bool
    /// The newest history entry this service has seen, its own or announced by `catchUp`.
    var lastSeenEntry: Int64 = 0
    /// Entries this service wrote after `lastSeenEntry` (so `catchUp` does not announce them).
    var ownEntries: Set<Int64> = []
    /// Whether this connection knows `tasks_cells` and `tasks_tag_cells`.
    var hasCellFunctions = false
    /// `PRAGMA data_version` when this service last looked: another connection's commit changes it.
    var lastDataVersion: Int64 = 0
    /// This run made the file (so a failed run may take it away again).
    public private(set) var createdFile = false
    /// The entry every change joins while `asOneEntry` runs, and their summaries.
    var shared: (entry: EntryRecorder, summaries: [String])?

    /// The batch size from which a write goes through a rollback journal (see `bulkWrite`).
    static let bulkLoadThreshold = 10_000
    /// The gap between neighbours' positions when a list is numbered afresh.
    static let positionGap: Int64 = 1 << 16

    /// `position` moved `steps` gaps down the list (up, for a negative count), stopping at the
    /// ends of the integers instead of trapping: a peer, an import or the sqlite3 shell may have
    /// put a task at 2^63 - 1. Tasks that meet there keep their order by id.
    static func position(_ position: Int64, steppedBy steps: Int64) -> Int64 {
        let (offset, overflowed) = steps.multipliedReportingOverflow(by: positionGap)
        let (sum, passed) = position.addingReportingOverflow(offset)
        if overflowed || passed { return steps < 0 ? .min : .max }
        return sum
    }
    /// Rows per INSERT statement (13 parameters each; SQLite allows 32,766).
    static let rowsPerInsert = 100

    /// How long a write waits for another process's lock before it fails as `locked`: a
    /// command waits 10 s, a screen (which must stay usable) less.
    public var busyTimeoutMilliseconds: Int32? {
        didSet { if let busyTimeoutMilliseconds { connection?.busyTimeoutMilliseconds = busyTimeoutMilliseconds } }
    }

    /// Opens (and, with `create`, makes privately) the file at `path` now, refuses a file from
    /// a newer version before writing anything, then sets WAL and migrates.
    public convenience init(
        path: String,
        create: Bool = true,
        now: @escaping () -> Timestamp = SystemClock.now,
        makeUUID: (() -> String)? = nil,
        vfs: String? = nil
    ) throws(TaskServiceError) {
        self.init(lazilyAt: path, now: now, makeUUID: makeUUID, vfs: vfs)
        do {
            if create && path != ":memory:" { try PrivateFile.createIfMissing(path) }
            _ = try connect(path: path, create: create)
        } catch {
            throw StorageFailure.translate(error, path: path)
        }
    }

    /// The service of the file at `path`, not opened yet: see the type's comment.
    public init(lazilyAt path: String, now: @escaping () -> Timestamp = SystemClock.now, makeUUID: (() -> String)? = nil,
                today: @escaping () -> CalendarDay = SystemClock.today, vfs: String? = nil) {
        self.path = path
        self.now = now
        self.today = today
        self.vfs = vfs
        wantsEvents = { true }
        self.makeUUID = makeUUID ?? TimeOrderedUUID.generator(now: now)
        events = PublishSubject<TaskEvent>()
    }

    /// Opens the file now, creating it when `creating` (a screen that stays open must not
    /// start on the empty in-memory stand-in a missing file gives a one-shot read).
    public func open(creating: Bool) throws(TaskServiceError) {
        do {
            _ = try open(creatingFile: creating)
        } catch {
            throw StorageFailure.translate(error, path: path)
        }
    }

    /// After a failed run: closes the file and removes it if this run created it, so that
    /// failing left nothing.
    public func removeCreatedFile() {
        guard createdFile else { return }
        connection = nil
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// The connection, opened if it is not: a missing file is made when `creatingFile`, and is
    /// otherwise an empty database in memory (":memory:" is SQLite's name for one, gone when
    /// the run ends).
    func open(creatingFile: Bool) throws -> Connection {
        if let connection { return connection }
        if path != ":memory:" && PrivateFile.linksToAnEmptyFile(path) {
            throw TaskServiceError.notADatabase(path: path, reason: "it links to an empty file that tasks did not make, and tasks writes into no file it did not make")
        }
        if path == ":memory:" || PrivateFile.exists(path) { return try connect(path: path, create: false) }
        guard creatingFile else { return try connect(path: ":memory:", create: false) }
        do {
            createdFile = try PrivateFile.createIfMissing(path)  // private (0600), in private folders
        } catch {
            throw StorageFailure.translate(error, path: path)
        }
        return try connect(path: path, create: false)
    }

    /// Opens `file` as this service's connection.
    private func connect(path file: String, create: Bool) throws -> Connection {
        let db = try Self.connect(path: file, create: create, vfs: vfs)
        try db.defineTextMapping("tasks_fold", TaskQuery.foldCase)
        try Self.defineFilterFunctions(on: db)
        lastSeenEntry = try db.scalar("SELECT max(id) FROM history") ?? 0
        lastDataVersion = try db.scalar("PRAGMA data_version") ?? 0
        if let busyTimeoutMilliseconds { db.busyTimeoutMilliseconds = busyTimeoutMilliseconds }
        connection = db
        return db
    }

    /// The file opened, checked, in WAL and migrated. A file that can be read but not
    /// written — a read-only mount, a backup, someone else's folder — is opened for reading
    /// (and, when SQLite cannot make the WAL's `-shm` beside it, as immutable): every read
    /// works, and a write fails as `readOnly`, changing nothing.
    private static func connect(path: String, create: Bool, vfs: String?) throws -> Connection {
        let migrator = Migrator(TaskSchema.migrations)
        do {
            let db = try Connection(path: path, options: create ? [.create] : [], vfs: vfs)
            try migrator.checkNotNewer(db)
            // WAL is a property of the file: set it once (and again after an interrupted bulk load).
            if path != ":memory:" {
                try db.retryingWhileBusy {
                    if try db.scalarString("PRAGMA journal_mode") != "wal" { try db.execute("PRAGMA journal_mode = WAL") }
                }
            }
            // FULL: a commit syncs the WAL before it returns, so what a command says it did
            // survives a power cut even when another connection (a screen, a reader) keeps the
            // file open and no closing checkpoint syncs it. One fdatasync per command (see
            // docs/reliability.md for the cost); the bulk load's rollback journal is synced too.
            try db.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000")
            try migrator.migrate(db)
            return db
        } catch let error as SQLiteError where path != ":memory:" && [.readOnly, .cantOpen, .permission].contains(error.code) && access(path, R_OK) == 0 {
            for options: Connection.Options in [[.readOnly], [.readOnly, .immutable]] {
                guard let db = try? Connection(path: path, options: options, vfs: vfs),
                      let version = try? Migrator.version(of: db) else { continue }
                try migrator.checkNotNewer(db)
                // An older schema needs a write to upgrade: this file cannot be read as it is.
                if version < migrator.migrations.count { throw error }
                try db.execute("PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000")
                return db
            }
            throw error
        }
    }

    // MARK: - Reading

    public func fetch(_ query: TaskQuery) -> Observable<[Task]> {
        call { try $0.fetchNow(query) }
    }

    public func task(id: Int64) -> Observable<Task> {
        call { service in
            guard let task = try service.db.read({ try service.readTask(id: id) }) else { throw TaskServiceError.notFound(ids: [id]) }
            return task
        }
    }

    public func lists() -> Observable<[TaskListSummary]> {
        call { service in
            try service.db.query("SELECT list, sum(done = 0), sum(done = 1) FROM task GROUP BY list ORDER BY list") { row in
                TaskListSummary(name: row.string(0), pending: Int(row.int64(1)), done: Int(row.int64(2)))
            }
        }
    }

    public func tags() -> Observable<[TaskListSummary]> {
        call { service in
            // The column holds ` a b ` (a space on each side of each tag): split in SQL, one
            // tag per step, counted by the group.
            try service.db.query("""
                WITH RECURSIVE split(done, tag, rest) AS (
                    SELECT done, '', ltrim(tags) FROM task WHERE tags != ''
                    UNION ALL
                    SELECT done, substr(rest, 1, instr(rest || ' ', ' ') - 1), ltrim(substr(rest || ' ', instr(rest || ' ', ' '))) FROM split WHERE rest != ''
                )
                SELECT tag, sum(done = 0), sum(done = 1) FROM split WHERE tag != '' GROUP BY tag ORDER BY tag
                """) { row in
                TaskListSummary(name: row.string(0), pending: Int(row.int64(1)), done: Int(row.int64(2)))
            }
        }
    }

    /// The tasks `query` selects, now, in one read transaction.
    func fetchNow(_ query: TaskQuery) throws -> [Task] {
        let (sql, arguments) = TaskQuerySQL.select(query)
        return try db.read {
            // Counting first (from an index, without the rows) sizes the array once: a
            // 100,000-task list then touches half the memory it would by doubling.
            let count = try db.scalar(TaskQuerySQL.count(query), arguments: arguments) ?? 0
            return try db.query(sql, arguments, expectedCount: Int(count)) { TaskColumn.decode($0) }
        }
    }

    func readTask(id: Int64) throws -> Task? {
        try db.query("SELECT \(TaskColumn.names) FROM task WHERE id = ?", [id]) { TaskColumn.decode($0) }.first
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
        change(creatingFile: true) { service in
            let created = try service.createNow(drafts)
            return (created, created.map(TaskEvent.create))
        }
    }

    public func update(id: Int64, _ changes: TaskChanges) -> Observable<Task> {
        change { service in
            let task = try service.updateNow(id: id, changes)
            return (task, [.update(task)])
        }
    }

    public func update(ids: [Int64], _ changes: TaskChanges) -> Observable<TaskEvent> {
        change { service in
            let changed = try service.updateNow(ids: ids, changes)
            let events = changed.map(TaskEvent.update)
            return (TaskEvent.of(events), events)
        }
    }

    public func delete(ids: [Int64]) -> Observable<[Task]> {
        change { service in
            let deleted = try service.deleteNow(ids: ids)
            return (deleted, deleted.map(TaskEvent.delete))
        }
    }

    public func setDone(ids: [Int64], _ isDone: Bool, changing changes: TaskChanges) -> Observable<TaskEvent> {
        change { service in
            let events = try service.setDoneNow(ids: ids, changing: changes) { _ in isDone }.events
            return (TaskEvent.of(events), events)
        }
    }

    public func setActive(ids: [Int64], _ active: Bool, alone: Bool, changing changes: TaskChanges) -> Observable<TaskEvent> {
        change { service in
            let events = try service.setActiveNow(ids: ids, active, alone: alone, changing: changes)
            return (TaskEvent.of(events), events)
        }
    }

    public func toggle(ids: [Int64]) -> Observable<TaskEvent> {
        change { service in
            let events = try service.setDoneNow(ids: ids) { !$0.isDone }.events
            return (TaskEvent.of(events), events)
        }
    }

    public func move(id: Int64, to placement: TaskPlacement) -> Observable<Task> {
        change { service in
            let moved = try service.moveNow(id: id, to: placement)
            return (moved, [.move(moved)])
        }
    }

    public func importTasks(_ records: [TaskRecord], keeping kept: [KeptRecord]) -> Observable<TaskImportResult> {
        change(creatingFile: true) { try $0.importNow(from: TaskBatchSource(TaskImportBatch(records: records, kept: kept)), streamed: false) }
    }

    public func importTasks(from source: any TaskRecordSource) -> Observable<TaskImportResult> {
        change(creatingFile: true) { try $0.importNow(from: source) }
    }

    // MARK: - Calls

    /// A read, run when subscribed, its failure a `TaskServiceError`; `creatingFile` makes a
    /// missing file (a call that writes new tasks).
    func call<T>(creatingFile: Bool = false, _ body: @escaping (SQLiteTaskService) throws -> T) -> Observable<T> {
        .deferred { [unowned self] in
            do {
                _ = try open(creatingFile: creatingFile)
                return .just(try body(self))
            } catch {
                throw StorageFailure.translate(error, path: path)
            }
        }
    }

    /// A change, run when subscribed; its events are announced once it has committed.
    /// `creatingFile` makes a missing file (a call that writes new tasks).
    func change<T>(creatingFile: Bool = false, _ body: @escaping (SQLiteTaskService) throws -> (T, [TaskEvent])) -> Observable<T> {
        .deferred { [unowned self] in
            let result: T
            let committed: [TaskEvent]
            do {
                _ = try open(creatingFile: creatingFile)
                (result, committed) = try body(self)
            } catch let error as TaskFieldError {
                throw error  // a record of an import (read while it writes) broke a rule
            } catch let error as TaskImportInputError {
                throw error  // an import's input could not be read
            } catch {
                throw StorageFailure.translate(error, path: path)
            }
            announce(committed)
            return .just(result)
        }
    }
}

extension SQLiteTaskService {
    /// Sends committed changes to whoever listens, as one event or one batch.
    func announce(_ committed: [TaskEvent]) {
        if !committed.isEmpty { events.onNext(.of(committed)) }
    }

    /// Whether the events of a change should be built at all.
    var isHeard: Bool { events.hasObservers && wantsEvents() }
}

extension TaskEvent {
    /// `markAsDone` or `markAsUndone`, as the task now is.
    static func doneChanged(_ task: Task) -> TaskEvent {
        task.isDone ? .markAsDone(task) : .markAsUndone(task)
    }
}
