#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReactorCore
import SQLiteDB
import TaskKit
import TaskStore

/// Where the database is: `--db`, `$TASKS_DB`, `$XDG_DATA_HOME/tasks/tasks.db`,
/// `~/.local/share/tasks/tasks.db`, first to last.
enum DatabaseLocation {
    static func path(option: String?, environment: [String: String]) throws -> String {
        if let option {
            guard !option.isEmpty else { throw CLIError.usage("--db needs a path") }
            return option
        }
        if let path = environment["TASKS_DB"], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/tasks/tasks.db" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/tasks/tasks.db" }
        throw CLIError.failure("cannot tell where the database is: HOME is not set",
                               hint: "give --db PATH, or set TASKS_DB or XDG_DATA_HOME")
    }
}

/// The SQLite service, opened when a reactor first calls it — so that a command refused by
/// validation never opens the file — and created only by a call that writes a new task: a
/// read, or a change to a task of a file that does not exist yet, sees an empty store and
/// leaves no file behind.
final class DatabaseService: TaskService {
    let event = PublishSubject<TaskEvent>()
    let path: String
    private let now: @Sendable () -> Timestamp
    private let makeUUID: (() -> String)?
    private var opened: (any TaskService)?
    private let forwarding = SingleAssignmentDisposable()
    /// This run made the file (so a failed run may take it away again).
    private(set) var createdFile = false

    init(path: String, now: @escaping @Sendable () -> Timestamp, makeUUID: (() -> String)?) {
        self.path = path
        self.now = now
        self.makeUUID = makeUUID
    }

    deinit { forwarding.dispose() }

    private func service(creating: Bool) throws -> any TaskService {
        if let opened { return opened }
        let service: SQLiteTaskService
        if path == ":memory:" {
            // SQLite's name for a database in memory, gone when the command ends.
            service = try SQLiteTaskService(path: path, create: false, now: now, makeUUID: makeUUID)
        } else if PrivateFile.exists(path) {
            service = try SQLiteTaskService(path: path, create: false, now: now, makeUUID: makeUUID)
        } else if creating {
            createdFile = try PrivateFile.createIfMissing(path)  // private (0600), in private folders
            service = try SQLiteTaskService(path: path, create: false, now: now, makeUUID: makeUUID)
        } else {
            service = try SQLiteTaskService(path: ":memory:", create: false, now: now, makeUUID: makeUUID)
        }
        forwarding.setDisposable(service.event.subscribe { [event] in
            if case .next(let change) = $0 { event.onNext(change) }
        })
        opened = service
        return service
    }

    private func call<T>(creating: Bool = false, _ body: @escaping (any TaskService) -> Observable<T>) -> Observable<T> {
        .deferred { [unowned self] in body(try self.service(creating: creating)) }
    }

    func fetch(_ query: TaskQuery) -> Observable<[Task]> { call { $0.fetch(query) } }
    func task(id: Int64) -> Observable<Task> { call { $0.task(id: id) } }
    func create(_ drafts: [TaskDraft]) -> Observable<[Task]> { call(creating: true) { $0.create(drafts) } }
    func update(id: Int64, _ changes: TaskChanges) -> Observable<Task> { call { $0.update(id: id, changes) } }
    func delete(ids: [Int64]) -> Observable<[Task]> { call { $0.delete(ids: ids) } }
    func setDone(ids: [Int64], _ isDone: Bool) -> Observable<[Task]> { call { $0.setDone(ids: ids, isDone) } }
    func toggle(ids: [Int64]) -> Observable<[Task]> { call { $0.toggle(ids: ids) } }
    func move(id: Int64, to placement: TaskPlacement) -> Observable<Task> { call { $0.move(id: id, to: placement) } }
    func lists() -> Observable<[TaskListSummary]> { call { $0.lists() } }
    func importTasks(_ records: [TaskRecord]) -> Observable<TaskImportResult> { call(creating: true) { $0.importTasks(records) } }

    /// After a failed run: removes the file this run created, so that failing left nothing.
    func removeCreatedFile() {
        guard createdFile else { return }
        opened = nil
        forwarding.dispose()
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
