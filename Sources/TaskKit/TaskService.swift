import ReactorCore

/// What the reactors ask of storage, in RxTodo's shape: each call returns an Observable that
/// does its work when subscribed, and every change is also announced on `event` — after it
/// was committed — so that every reactor showing a task can update itself.
public protocol TaskService: AnyObject {
    /// Every committed change, in commit order.
    var event: PublishSubject<TaskEvent> { get }

    /// The tasks `query` selects, filtered, sorted and grouped by the store.
    func fetch(_ query: TaskQuery) -> Observable<[Task]>

    /// One task by id; fails with `TaskServiceError.notFound` when there is none.
    func task(id: Int64) -> Observable<Task>

    /// Creates all of `drafts` in one transaction: all of them or none.
    func create(_ drafts: [TaskDraft]) -> Observable<[Task]>

    /// Changes the fields `changes` names and keeps the others.
    func update(id: Int64, _ changes: TaskChanges) -> Observable<Task>

    /// Deletes all of `ids` or, when one does not exist, none.
    func delete(ids: [Int64]) -> Observable<[Task]>

    /// Marks all of `ids` done (or pending); a task already so is left as it is.
    func setDone(ids: [Int64], _ isDone: Bool) -> Observable<[Task]>

    /// Flips each of `ids` between done and pending.
    func toggle(ids: [Int64]) -> Observable<[Task]>

    /// Moves a task within its list or to another list.
    func move(id: Int64, to placement: TaskPlacement) -> Observable<Task>

    /// The lists with their pending and done counts, by name.
    func lists() -> Observable<[TaskListSummary]>

    /// Writes `records` in one transaction: a record whose uuid exists updates that task
    /// (and changes nothing when every field is the same), any other creates one.
    func importTasks(_ records: [TaskRecord]) -> Observable<TaskImportResult>
}

/// A committed change, as `TaskService.event` announces it.
public enum TaskEvent: Equatable, Sendable {
    case create(Task)
    case update(Task)
    /// The task as it was when deleted.
    case delete(Task)
    case move(Task)
    case markAsDone(Task)
    case markAsUndone(Task)
    /// Several changes committed together, in order.
    case batch([TaskEvent])
}

/// Why a service call failed, in terms a user can act on; storage failures are the store's own.
public enum TaskServiceError: Error, Equatable, Sendable {
    /// These ids do not exist; nothing was changed.
    case notFound(ids: [Int64])
    /// A move relative to the task itself.
    case moveRelativeToItself(id: Int64)
}

/// The fields of a new task; the store fills in id, uuid, position and times.
public struct TaskDraft: Equatable, Sendable {
    public var title: String
    public var notes: String
    public var list: String
    public var due: CalendarDay?
    public var priority: Priority?
    public var tags: [String]
    /// Set by imports; `nil` makes a new one.
    public var uuid: String?

    /// A draft with the given fields.
    public init(title: String, notes: String = "", list: String = Task.defaultList, due: CalendarDay? = nil,
                priority: Priority? = nil, tags: [String] = [], uuid: String? = nil) {
        self.title = title
        self.notes = notes
        self.list = list
        self.due = due
        self.priority = priority
        self.tags = tags
        self.uuid = uuid
    }
}

/// The fields an update changes; `nil` leaves a field as it is.
public struct TaskChanges: Equatable, Sendable {
    public var title: String?
    public var notes: String?
    public var list: String?
    /// `.some(nil)` clears the due date.
    public var due: CalendarDay??
    /// `.some(nil)` clears the priority.
    public var priority: Priority??
    public var addTags: [String]
    public var removeTags: [String]

    /// Changes to the given fields.
    public init(title: String? = nil, notes: String? = nil, list: String? = nil, due: CalendarDay?? = nil,
                priority: Priority?? = nil, addTags: [String] = [], removeTags: [String] = []) {
        self.title = title
        self.notes = notes
        self.list = list
        self.due = due
        self.priority = priority
        self.addTags = addTags
        self.removeTags = removeTags
    }

    /// Whether nothing would change.
    public var isEmpty: Bool {
        title == nil && notes == nil && list == nil && due == nil && priority == nil && addTags.isEmpty && removeTags.isEmpty
    }
}

/// Where `move` puts a task.
public enum TaskPlacement: Equatable, Sendable {
    case before(Int64)
    case after(Int64)
    case top
    case bottom
    /// The bottom of another list.
    case list(String)
}

/// A list and how many tasks it holds.
public struct TaskListSummary: Equatable, Sendable {
    public var name: String
    public var pending: Int
    public var done: Int

    /// A summary of list `name`.
    public init(name: String, pending: Int, done: Int) {
        self.name = name
        self.pending = pending
        self.done = done
    }
}
