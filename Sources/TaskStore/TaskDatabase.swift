#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReactorCore
import SQLiteDB
import TaskModel

/// The tasks database of one run of the program: the SQLite service, opened when a reactor
/// first calls it — so that a command refused by validation never opens the file — and
/// created only by a call that writes a new task: a read, or a change to a task, on a file
/// that does not exist yet sees an empty store and leaves no file behind.
public final class TaskDatabase: TaskService, TaskSyncing {
    public var event: Observable<TaskEvent> { events }

    /// The file.
    public let path: String
    private let events = PublishSubject<TaskEvent>()
    private let now: () -> Timestamp
    private let makeUUID: (() -> String)?
    private let today: () -> CalendarDay
    private var opened: SQLiteTaskService?
    private let forwarding = SerialDisposable()
    /// The command the history records for this run's changes: `tasks done 3`.
    public var commandText = "tasks" {
        didSet { opened?.commandText = commandText }
    }
    /// How long a write waits for another process's lock: a command waits 10 s, a screen
    /// (which must stay usable) less.
    public var busyTimeoutMilliseconds: Int32? {
        didSet { if let busyTimeoutMilliseconds { opened?.busyTimeoutMilliseconds = busyTimeoutMilliseconds } }
    }
    /// This run made the file (so a failed run may take it away again).
    public private(set) var createdFile = false

    /// The database at `path`, not opened yet.
    public init(path: String, now: @escaping () -> Timestamp, makeUUID: (() -> String)?, today: @escaping () -> CalendarDay = SystemClock.today) {
        self.path = path
        self.now = now
        self.today = today
        self.makeUUID = makeUUID
    }

    deinit { forwarding.dispose() }

    private func service(creating: Bool) throws -> SQLiteTaskService {
        if let opened { return opened }
        let service: SQLiteTaskService
        if path == ":memory:" || PrivateFile.exists(path) {
            // ":memory:" is SQLite's name for a database in memory, gone when the run ends.
            service = try SQLiteTaskService(path: path, create: false, now: now, makeUUID: makeUUID)
        } else if creating {
            do {
                createdFile = try PrivateFile.createIfMissing(path)  // private (0600), in private folders
            } catch {
                throw StorageFailure.translate(error, path: path)
            }
            service = try SQLiteTaskService(path: path, create: false, now: now, makeUUID: makeUUID)
        } else {
            service = try SQLiteTaskService(path: ":memory:", create: false, now: now, makeUUID: makeUUID)
        }
        service.commandText = commandText
        service.today = today
        if let busyTimeoutMilliseconds { service.busyTimeoutMilliseconds = busyTimeoutMilliseconds }
        service.wantsEvents = { [events] in events.hasObservers }
        forwarding.setDisposable(service.event.subscribe(onNext: { [events] in events.onNext($0) }))
        opened = service
        return service
    }

    private func call<T>(creating: Bool = false, _ body: @escaping (SQLiteTaskService) -> Observable<T>) -> Observable<T> {
        .deferred { [unowned self] in body(try self.service(creating: creating)) }
    }

    public func fetch(_ query: TaskQuery) -> Observable<[Task]> { call { $0.fetch(query) } }
    public func totals(_ query: TaskQuery, measuringCells: Bool) -> Observable<TaskQueryTotals> {
        call { $0.totals(query, measuringCells: measuringCells) }
    }
    public func rows(_ query: TaskQuery, _ request: TaskRowRequest) -> Observable<[Task]> { call { $0.rows(query, request) } }
    public func stream(_ query: TaskQuery, batch: Int, fields: TaskFieldSet) -> Observable<TaskWindow> {
        call { $0.stream(query, batch: batch, fields: fields) }
    }
    public func task(id: Int64) -> Observable<Task> { call { $0.task(id: id) } }
    public func create(_ drafts: [TaskDraft]) -> Observable<[Task]> { call(creating: true) { $0.create(drafts) } }
    public func create(streaming source: @escaping TaskDraftSource) -> Observable<TaskCreationProgress> {
        call(creating: true) { $0.create(streaming: source) }
    }
    public func update(id: Int64, _ changes: TaskChanges) -> Observable<Task> { call { $0.update(id: id, changes) } }
    public func delete(ids: [Int64]) -> Observable<[Task]> { call { $0.delete(ids: ids) } }
    public func setDone(ids: [Int64], _ isDone: Bool) -> Observable<TaskEvent> { call { $0.setDone(ids: ids, isDone) } }
    public func toggle(ids: [Int64]) -> Observable<TaskEvent> { call { $0.toggle(ids: ids) } }
    public func move(id: Int64, to placement: TaskPlacement) -> Observable<Task> { call { $0.move(id: id, to: placement) } }
    public func lists() -> Observable<[TaskListSummary]> { call { $0.lists() } }
    public func importTasks(_ records: [TaskRecord]) -> Observable<TaskImportResult> {
        call(creating: true) { $0.importTasks(records) }
    }
    public func undo(entry: Int64?) -> Observable<HistoryEntry> { call { $0.undo(entry: entry) } }
    public func redo() -> Observable<HistoryEntry> { call { $0.redo() } }
    public func history(_ query: HistoryQuery) -> Observable<[HistoryEntry]> { call { $0.history(query) } }
    public func catchUp() -> Observable<Int> { call { $0.catchUp() } }
    /// A sync on a missing file makes it: a new machine starts empty and receives the tasks.
    public func sync(url: String?, remember: Bool, through maker: any SyncRemoteMaker) -> Observable<SyncReport> {
        call(creating: true) { $0.sync(url: url, remember: remember, through: maker) }
    }

    /// Opens the file now, creating it when `creating` (a screen that stays open must not
    /// start on the empty in-memory stand-in a missing file gives a one-shot read).
    public func open(creating: Bool) throws(TaskServiceError) {
        do {
            _ = try service(creating: creating)
        } catch {
            throw StorageFailure.translate(error, path: path)
        }
    }

    /// After a failed run: removes the file this run created, so that failing left nothing.
    public func removeCreatedFile() {
        guard createdFile else { return }
        opened = nil
        forwarding.dispose()
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
