import TaskModel
import ReactorCore

/// What the reactors ask of storage, in RxTodo's shape, by role: each call returns an
/// Observable that does its work when subscribed, and every change is also announced on
/// `event` — after it was committed — so that every reactor showing a task can update itself.
/// A reactor takes the roles it calls (`TaskEditReactor` reads and writes, `TaskImportReactor`
/// only writes, `TaskHistoryReactor` keeps the history); the list, which does all of it, takes
/// the whole `TaskService`. Sync is a role of its own, `TaskSyncing` (Sync.swift).
public typealias TaskService = TaskReading & TaskWriting & TaskHistoryKeeping & TaskEventFeed

/// Every committed change as it happens, and the changes of other processes caught up with.
public protocol TaskEventFeed: AnyObject {
    /// Every committed change, in commit order, once committed: this service's own and,
    /// where the service follows its store, other processes' too.
    var event: Observable<TaskEvent> { get }

    /// Announces on `event` what other processes committed since this service last looked;
    /// returns how many of their entries it read. Cheap when nothing changed.
    func catchUp() -> Observable<Int>
}

/// Reading tasks: queries, their totals and rows, one task, the lists.
public protocol TaskReading: AnyObject {
    /// The tasks `query` selects, filtered, sorted and grouped by the store.
    func fetch(_ query: TaskQuery) -> Observable<[Task]>

    /// How many tasks `query` selects, per section too, and the largest id the store ever gave
    /// (an upper bound: an id column keeps its width). With `measuringCells`, a pass over the
    /// rows: also the widest title and tags in terminal cells, whether any row has a due date
    /// or a priority, and the largest id among them — what a table lays out its columns by.
    func totals(_ query: TaskQuery, measuringCells: Bool) -> Observable<TaskQueryTotals>

    /// Some of the rows `query` selects, in its order.
    func rows(_ query: TaskQuery, _ request: TaskRowRequest) -> Observable<[Task]>

    /// Every row `query` selects, read from one statement in one snapshot and sent on as they
    /// are read, `batch` at a time: a million rows in the memory of a batch. `fields` says
    /// which fields the rows carry.
    func stream(_ query: TaskQuery, batch: Int, fields: TaskFieldSet) -> Observable<TaskWindow>

    /// The ids of the rows at positions `range` of what `query` selects, in its order (the
    /// ui's `V` and `*` mark them): eight bytes a row, not a task.
    func ids(_ query: TaskQuery, in range: Range<Int>) -> Observable<[Int64]>

    /// Where task `id` falls in `query`'s order (the ui's `:42` puts the cursor there), or
    /// nil when `query` does not select it.
    func position(of id: Int64, in query: TaskQuery) -> Observable<Int?>

    /// One task by id; fails with `TaskServiceError.notFound` when there is none.
    func task(id: Int64) -> Observable<Task>

    /// The lists with their pending and done counts, by name.
    func lists() -> Observable<[TaskListSummary]>

    /// The tags with how many pending and done tasks carry each, by name.
    func tags() -> Observable<[TaskListSummary]>
    /// Counts, rates and averages of the whole file (`tasks stats`).
    func stats() -> Observable<TaskStats>
    /// When the tasks `query` chooses (every status, deleted ones too) were added, started,
    /// completed and deleted, by local day (`tasks burndown`, `tasks history --graph`).
    func activity(_ query: TaskQuery) -> Observable<TaskActivity>
    /// How many tasks `query` chooses are due on each day (`tasks calendar`).
    func dueCounts(_ query: TaskQuery) -> Observable<[CalendarDay: Int]>

    /// The records imports kept for `format` as another tool wrote them (`TaskImportBatch.kept`).
    func keptRecords(format: String) -> Observable<[KeptRecord]>
}

/// Changing tasks: each call one transaction, announced on the feed once committed.
public protocol TaskWriting: AnyObject {
    /// Creates a task of each title `stream` yields, in one transaction, reading and inserting
    /// them as it goes: memory stays that of a few rows however many there are. Progress comes
    /// as rows are written, then the committed ids. A title the stream cannot read ends the
    /// call with its error and rolls everything back. Listeners hear of the new tasks only when
    /// the batch is small enough to announce (see the store).
    func create(streaming stream: TaskTitleStream) -> Observable<TaskCreationProgress>

    /// Creates all of `drafts` in one transaction: all of them or none.
    func create(_ drafts: [TaskDraft]) -> Observable<[Task]>

    /// Changes the fields `changes` names and keeps the others.
    func update(id: Int64, _ changes: TaskChanges) -> Observable<Task>

    /// The same changes to every one of `ids`, in one transaction and one history entry (`tasks
    /// modify`): all of them or, when one is missing or refused, none. The event holds the tasks
    /// that changed.
    func update(ids: [Int64], _ changes: TaskChanges) -> Observable<TaskEvent>

    /// Deletes all of `ids` or, when one does not exist, none.
    func delete(ids: [Int64]) -> Observable<[Task]>

    /// Marks all of `ids` done (or pending); a task already so is left as it is. The result
    /// is the change as committed — each task changed, and a repeating task's next occurrence
    /// made (or, reopened, taken back) — the same event `event` announces. `changes` are made
    /// to each task marked, first, in the same transaction and history entry (`tasks 12 done
    /// called them +phone`, as Taskwarrior's `done` modifies).
    func setDone(ids: [Int64], _ isDone: Bool, changing changes: TaskChanges) -> Observable<TaskEvent>

    /// Flips each of `ids` between done and pending; the result as `setDone`'s.
    func toggle(ids: [Int64]) -> Observable<TaskEvent>

    /// Starts (or stops) each of `ids`: started, a task is active from now; stopped, the time
    /// since its start is added to its time spent. A task already so is left as it is; a done
    /// one cannot be started. `alone`: starting stops every other active task, in the same
    /// change. `changes` are made first to each task started (or stopped), as `setDone`'s.
    /// The result: the tasks changed, as one event.
    func setActive(ids: [Int64], _ active: Bool, alone: Bool, changing changes: TaskChanges) -> Observable<TaskEvent>

    /// Moves a task within its list or to another list.
    func move(id: Int64, to placement: TaskPlacement) -> Observable<Task>

    /// Writes `records` in one transaction: a record whose uuid exists updates that task
    /// (and changes nothing when every field is the same), any other creates one.
    /// `kept`: another tool's records that are no task here (Taskwarrior's recurring
    /// templates), kept as written in the same transaction for the way back.
    func importTasks(_ records: [TaskRecord], keeping kept: [KeptRecord]) -> Observable<TaskImportResult>

    /// The same, the records taken from `source` one at a time as they are written (a file of
    /// any size in the memory of one record). A record whose uuid came earlier in the same
    /// source is refused (`TaskFieldError.inRecord(…, .duplicateUUID)`), as is input the source
    /// cannot read (`TaskImportInputError`); either leaves the file as it was.
    func importTasks(from source: any TaskRecordSource) -> Observable<TaskImportResult>
}

extension TaskWriting {
    public func importTasks(_ records: [TaskRecord]) -> Observable<TaskImportResult> { importTasks(records, keeping: []) }
}

/// The history: every command's changes, reverted or applied again whole.
public protocol TaskHistoryKeeping: AnyObject {
    /// Reverts `entry` — the newest command entry in effect when `nil` — in one transaction,
    /// as a new entry of its own; returns the entry reverted. Refused, changing nothing, when a
    /// later entry in effect changed the same tasks.
    func undo(entry: Int64?) -> Observable<HistoryEntry>

    /// Applies again the entry undone last, when no command came after; returns it.
    func redo() -> Observable<HistoryEntry>

    /// The entries `query` selects, newest first.
    func history(_ query: HistoryQuery) -> Observable<[HistoryEntry]>

    /// Brings the deleted tasks `ids` back from their tombstones (`status:deleted`) as one
    /// entry; returns them. None when one of them has no tombstone (`notDeleted`).
    func undelete(ids: [Int64]) -> Observable<[Task]>

    /// Purges the tombstones of the deleted tasks `ids` as one entry (its undo keeps them
    /// while the history keeps it); returns them as they were kept. None when one has none.
    func purge(ids: [Int64]) -> Observable<[Task]>
}

extension TaskWriting {
    /// Marks `ids` done (or pending), changing nothing else.
    public func setDone(ids: [Int64], _ isDone: Bool) -> Observable<TaskEvent> { setDone(ids: ids, isDone, changing: TaskChanges()) }

    /// Starts (or stops) `ids`, changing nothing else.
    public func setActive(ids: [Int64], _ active: Bool, alone: Bool) -> Observable<TaskEvent> {
        setActive(ids: ids, active, alone: alone, changing: TaskChanges())
    }
}
