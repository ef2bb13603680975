import QueryLanguage
import ReactorCore
import TaskModel

/// The list screen of RxTodo, for a terminal, over a result of any size: the State holds what
/// the query selects summed up (`totals`) and a `window` of its rows — the rows a screen shows,
/// or the batch `tasks list` is printing — which the view asks to move as a table view asks its
/// data source. The service's events place changes into the window as they happen, so a task
/// created or changed by any reactor appears, moves or leaves here where the query puts it.
public final class TaskListReactor: Reactor {
    public enum Action {
        /// Read again with this query: its totals and its first rows (as many as `windowSize`).
        case refresh(TaskQuery)
        /// The first rows of `query` alone, before its totals (a screen opening on a million
        /// tasks draws them at once): when they are not the whole result the counts are not
        /// known yet (`isCounted` false) until `count`.
        case open(TaskQuery)
        /// The totals of the query shown, read (after `open`).
        case count
        /// Read every row of `query` from one snapshot, `batch` rows at a time, each batch
        /// becoming the window in turn (what `tasks list` prints as it arrives); `totals` says
        /// what to sum up first, `fields` which fields the rows carry.
        case stream(TaskQuery, batch: Int, totals: TotalsNeeded, fields: TaskFieldSet)
        /// Move the window to these rows of the result (clamped to it): what a screen scrolled
        /// to. Rows next to the window are read from its edge, at any depth as cheaply as at
        /// the top.
        case showRows(Range<Int>)
        /// The changes by id. Each one's result — what the service committed — becomes the
        /// mutation `setChange` directly (the state's `change`); the rows in the window move
        /// through `service.event`, as for a change made anywhere else.
        /// Flip tasks in one transaction: all of them or, when one is missing, none.
        case toggleTasksDone([Int64])
        case setDone([Int64], Bool, changing: TaskChanges = TaskChanges())
        /// Start (or stop) the tasks; `alone` stops every other active one.
        case setActive([Int64], Bool, alone: Bool, changing: TaskChanges = TaskChanges())
        /// Change one task as `changes` say, with no form in between (`tasks annotate`: the
        /// store reads the row once, in the change's transaction).
        case update(Int64, TaskChanges)
        /// The same changes to every one of the ids, as one command (`tasks modify`).
        case updateTasks([Int64], TaskChanges)
        /// Every task `query` selects, read into `chosen`: the tasks a filtered change acts on.
        case choose(TaskQuery)
        case deleteTasks([Int64])
        /// Bring deleted tasks back from their tombstones; let their tombstones go.
        case undeleteTasks([Int64])
        case purgeTasks([Int64])
        case moveTask(Int64, to: TaskPlacement)
        /// Load the lists with their counts.
        case loadLists
        /// The tags with their counts (`tasks tags`).
        case loadTags
        /// The records another tool wrote that are no task here, kept for `format` (Taskwarrior's
        /// recurring templates, which its export writes back): into `kept`.
        case loadKept(format: String)
        /// Revert the newest change, or entry `entry`; its changes arrive as events.
        case undo(entry: Int64?)
        /// The ui's `u`: the newest change is reverted when `own` says this screen made it;
        /// one made elsewhere (another process, a sync) is put in `undoQuestion` first.
        case proposeUndo(own: @Sendable (HistoryEntry) -> Bool)
        /// The question of `proposeUndo` answered no.
        case cancelUndo
        /// Apply again the change undone last.
        case redo
        /// Take in what other processes committed (the change feed), as events.
        case catchUp
        /// Put the cursor on row `index` of the result (clamped); it then stays on that task,
        /// by id, as rows above it come, go or move.
        case moveCursor(to: Int)
        /// Search as you type: the query's search becomes `text` (none when empty), read again.
        case search(String)
        /// Pending, done or all, read again.
        case showStatus(TaskQuery.Status)
        /// Ask before deleting: `pendingDelete` holds the task until confirmed or cancelled.
        case askToDelete(Int64)
        case confirmDelete
        case cancelDelete
        /// Move a task one place down (or up) in its list, past its neighbour in the window
        /// (manual order only: in another order the neighbour is not the list's).
        case nudge(Int64, down: Bool)
        /// Mark tasks, or clear the marks (`TaskListReactor+Marks.swift`).
        case mark(MarkRequest)
        /// The cursor on task `id` wherever it falls in the result, or a notice that the
        /// query does not select it (the ui's `:42`).
        case jump(toID: Int64)
    }

    /// What a stream sums up before its first row: nothing (`tsv` needs nothing), the counts
    /// (section headers), or the counts and the widths of titles and tags (a table's columns).
    public enum TotalsNeeded: Equatable, Sendable { case none, counts, cells }

    public enum Mutation {
        case setQuery(TaskQuery)
        case setLoading(Bool)
        case setTotals(TaskQueryTotals)
        /// New rows for the window; the totals stay.
        case setWindow(TaskWindow)
        /// The totals and the window read again together.
        case setResult(TaskQueryTotals, TaskWindow)
        case applyEvent(TaskEvent)
        /// What this reactor's own change committed, as the service returned it.
        case setChange(TaskEvent)
        case setFailure(TaskServiceError)
        case setLists([TaskListSummary])
        case setTags([TaskListSummary])
        case setKept([KeptRecord])
        case setStep(HistoryStep)
        case setCursor(Int)
        case setPendingDelete(Task?)
        case setUndoQuestion(HistoryEntry?)
        case setNotice(String)
        case setChosen([Task])
        case setMarks(Set<Int64>, anchor: Int64?)
        case setOpened(TaskQueryTotals, TaskWindow, counted: Bool)
        case setCounted(TaskQueryTotals, query: TaskQuery)
    }

    public let initialState: State
    public let reactorStorage = Storage()
    let service: any TaskService
    /// How many rows a refresh reads.
    public let windowSize: Int

    /// A list over `service`, showing `query` once refreshed, `windowSize` rows at a time.
    public init(service: any TaskService, query: TaskQuery = TaskQuery(), windowSize: Int = 1_000) {
        self.service = service
        self.windowSize = max(1, windowSize)
        initialState = State(query: query)
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .refresh(let query):
            return loading(query, read(query, TaskWindow(start: 0), count: windowSize))
        case .open(let query):
            let size = windowSize
            return loading(query, service.rows(query, .first(size)).map { rows -> Mutation in
                var totals = TaskQueryTotals(count: rows.count, largestID: rows.map(\.id).max() ?? 0)
                for task in rows {
                    let header = query.header(for: task)
                    if totals.sections.last?.header == header { totals.sections[totals.sections.count - 1].count += 1 } else {
                        totals.sections.append(.init(header: header, count: 1))
                    }
                }
                // Fewer rows than asked for: that is the whole result, counted.
                return .setOpened(totals, TaskWindow(start: 0, rows: rows), counted: rows.count < size)
            })
        case .count:
            guard !currentState.isCounted else { return .empty() }
            let query = currentState.query
            return service.totals(query, measuringCells: false).map { Mutation.setCounted($0, query: query) }.catch(failed)
        case .stream(let query, let batch, let needed, let fields):
            let rows = service.stream(query, batch: batch, fields: fields).map(Mutation.setWindow)
            let body: Observable<Mutation> = needed == .none
                ? rows
                : .concat([service.totals(query, measuringCells: needed == .cells).map(Mutation.setTotals), rows])
            return loading(query, body)
        case .showRows(let range):
            return moveWindow(to: range)
        case .toggleTasksDone(let ids):
            return changing(service.toggle(ids: ids))
        case .setDone(let ids, let isDone, let changes):
            return changing(service.setDone(ids: ids, isDone, changing: changes))
        case .setActive(let ids, let active, let alone, let changes):
            return changing(service.setActive(ids: ids, active, alone: alone, changing: changes))
        case .update(let id, let changes):
            return changing(service.update(id: id, changes).map(TaskEvent.update))
        case .updateTasks(let ids, let changes):
            return changing(service.update(ids: ids, changes))
        case .deleteTasks(let ids):
            return changing(service.delete(ids: ids).map { TaskEvent.of($0.map(TaskEvent.delete)) })
        case .undeleteTasks(let ids):
            return changing(service.undelete(ids: ids).map { TaskEvent.of($0.map(TaskEvent.create)) })
        case .purgeTasks(let ids):
            // Purged tombstones were in no listing: the change says which, nothing else hears.
            return changing(service.purge(ids: ids).map { TaskEvent.of($0.map(TaskEvent.delete)) })
        case .moveTask(let id, let placement):
            return changing(service.move(id: id, to: placement).map(TaskEvent.move))
        case .choose(let query):
            return service.fetch(query).map(Mutation.setChosen).catch(failed)
        case .undo(let entry):
            return .concat([.just(.setUndoQuestion(nil)), HistoryStep.undo(entry, on: service).map(Mutation.setStep).catch(failed)])
        case .proposeUndo(let own):
            // The entry an undo would revert: the newest command entry still in effect.
            return service.history(HistoryQuery(limit: 50))
                .flatMap { [service] entries -> Observable<Mutation> in
                    guard let target = entries.first(where: { $0.kind == .command && $0.undoneBy == nil }) else {
                        return HistoryStep.undo(nil, on: service).map(Mutation.setStep)
                    }
                    if own(target) { return HistoryStep.undo(target.id, on: service).map(Mutation.setStep) }
                    return .just(.setUndoQuestion(target))
                }
                .catch(failed)
        case .cancelUndo:
            return .just(.setUndoQuestion(nil))
        case .redo:
            return HistoryStep.redo(on: service).map(Mutation.setStep).catch(failed)
        case .catchUp:
            return reportOnly(service.catchUp())
        case .moveCursor(let index):
            return .just(.setCursor(index))
        case .search(let text):
            var query = currentState.query
            query.search = text.isEmpty ? nil : text
            return loading(query, read(query, TaskWindow(start: 0), count: max(windowSize, currentState.window.rows.count)))
        case .showStatus(let status):
            var query = currentState.query
            query.status = status
            return loading(query, read(query, TaskWindow(start: 0), count: max(windowSize, currentState.window.rows.count)))
        case .askToDelete(let id):
            if let task = currentState.window.rows.first(where: { $0.id == id }) { return .just(.setPendingDelete(task)) }
            return service.task(id: id).map { Mutation.setPendingDelete($0) }.catch(failed)
        case .confirmDelete:
            guard let task = currentState.pendingDelete else { return .empty() }
            return .concat([.just(.setPendingDelete(nil)), reportOnly(service.delete(ids: [task.id]))])
        case .cancelDelete:
            return .just(.setPendingDelete(nil))
        case .nudge(let id, let down):
            return nudge(id, down: down)
        case .loadLists:
            return Observable.concat([
                .just(.setLoading(true)),
                service.lists().map { Mutation.setLists($0) }.catch(failed),
                .just(.setLoading(false)),
            ])
        case .mark(let request):
            return marking(request)
        case .jump(let id):
            return service.position(of: id, in: currentState.query).map { index -> Mutation in
                index.map(Mutation.setCursor) ?? .setNotice("task \(id) is not in this view")
            }.catch(failed)
        case .loadKept(let format):
            return service.keptRecords(format: format).map(Mutation.setKept).catch(failed)
        case .loadTags:
            return Observable.concat([
                .just(.setLoading(true)),
                service.tags().map { Mutation.setTags($0) }.catch(failed),
                .just(.setLoading(false)),
            ])
        }
    }

    func failed(_ error: any Error) -> Observable<Mutation> { .just(.setFailure(TaskServiceError(error))) }

    /// `body` between the query set and loading on and off; a failure becomes a pulse.
    private func loading(_ query: TaskQuery, _ body: Observable<Mutation>) -> Observable<Mutation> {
        .concat([.just(.setQuery(query)), .just(.setLoading(true)), body.catch(failed), .just(.setLoading(false))])
    }

    /// The totals and `count` rows from `window.start`, read again.
    private func read(_ query: TaskQuery, _ window: TaskWindow, count: Int) -> Observable<Mutation> {
        service.totals(query, measuringCells: false).flatMap { [service] totals -> Observable<Mutation> in
            let start = min(window.start, max(0, totals.count - count))
            let request: TaskRowRequest = start == 0 ? .first(count) : .at(offset: start, count: count)
            return service.rows(query, request).map { .setResult(totals, TaskWindow(start: start, rows: $0)) }
        }
    }

    /// The window moved to `range`: rows next to the current window are read from its edge by
    /// their sort keys (cheap at any depth), the rest by position.
    private func moveWindow(to range: Range<Int>) -> Observable<Mutation> {
        let state = currentState
        let total = state.totals.count
        let lower = min(max(0, range.lowerBound), total), upper = min(max(lower, range.upperBound), total)
        let window = state.window
        if lower >= window.start && upper <= window.end && !(lower == window.start && upper == window.end && window.rows.isEmpty) {
            if lower == window.start && upper == window.end { return .empty() }
            let rows = Array(window.rows[(lower - window.start)..<(upper - window.start)])
            return .just(.setWindow(TaskWindow(start: lower, rows: rows)))
        }
        let query = state.query
        let request: TaskRowRequest
        var kept: [Task] = []
        var keptAfter = false
        if let last = window.rows.last, lower >= window.start, lower <= window.end, upper > window.end {
            kept = Array(window.rows[(lower - window.start)...])
            request = .after(last, count: upper - window.end)
        } else if let first = window.rows.first, upper <= window.end, upper >= window.start, lower < window.start {
            kept = Array(window.rows[..<(upper - window.start)])
            keptAfter = true
            request = .before(first, count: window.start - lower)
        } else if upper == total && lower > 0 {
            request = .last(upper - lower)
        } else {
            request = lower == 0 ? .first(upper - lower) : .at(offset: lower, count: upper - lower)
        }
        return service.rows(query, request).map { read in
            .setWindow(TaskWindow(start: lower, rows: keptAfter ? read + kept : kept + read))
        }.catch(failed)
    }

    /// A change whose result is this action's own mutation: what was committed, or the failure.
    private func changing(_ call: Observable<TaskEvent>) -> Observable<Mutation> {
        call.map(Mutation.setChange).catch(failed)
    }

    /// A change whose result reaches the state only through `service.event` (the screen's
    /// own keys, a catch-up); only a failure is this action's own mutation.
    func reportOnly<T>(_ call: Observable<T>) -> Observable<Mutation> {
        call.compactMap { _ in nil }.catch(failed)
    }

    public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        let events = service.event.flatMap { [weak self] event -> Observable<Mutation> in
            .concat([.just(.applyEvent(event)), .deferred { self?.readAgainIfStale() ?? .empty() }])
        }
        return .merge(mutation, events)
    }

    /// After an event the window could not place: the totals and the same rows, read again.
    private func readAgainIfStale() -> Observable<Mutation> {
        let state = currentState
        guard state.isStale else { return .empty() }
        return read(state.query, state.window, count: max(state.window.rows.count, windowSize)).catch(failed)
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setQuery(let query):
            if query != state.query {
                // Another result: the cursor starts again on its first row.
                state.cursor = 0
                state.cursorID = nil
            }
            state.query = query
        case .setLoading(let isLoading):
            state.isLoading = isLoading
        case .setTotals(let totals):
            state.totals = totals
        case .setWindow(let window):
            state.window = window
            state.pinCursor()
        case .setOpened(let totals, let window, let counted):
            state.totals = totals
            state.window = window
            state.isStale = false
            state.isCounted = counted
            state.pinCursor()
        case .setCounted(let totals, let query):
            // Counted for the query still shown, and no refresh since: the totals as read,
            // the largest id as the store gives it.
            guard query == state.query, !state.isCounted else { break }
            state.totals = totals
            state.isCounted = true
            state.pinCursor()
        case .setResult(let totals, let window):
            state.totals = totals
            state.window = window
            state.isStale = false
            state.isCounted = true
            state.pinCursor()
        case .applyEvent(let event):
            if !state.place(event) { state.isStale = true }
            if !state.marks.isEmpty { state.unmarkDeleted(event) }
            state.applied = event
            state.pinCursor()
        case .setCursor(let index):
            state.cursor = max(0, min(index, state.totals.count - 1))
            state.cursorID = state.task(at: state.cursor)?.id
        case .setPendingDelete(let task):
            state.pendingDelete = task
        case .setUndoQuestion(let entry):
            state.undoQuestion = entry
        case .setChosen(let tasks):
            state.chosen = tasks
        case .setMarks(let marks, let anchor):
            state.marks = marks
            state.markAnchor = anchor
        case .setNotice(let notice):
            state.notice = notice
        case .setChange(let change):
            state.change = change
        case .setFailure(let failure):
            state.failure = failure
        case .setLists(let lists):
            state.lists = lists
        case .setTags(let tags):
            state.tags = tags
        case .setKept(let kept):
            state.kept = kept
        case .setStep(let step):
            state.step = step
        }
        return state
    }
}
