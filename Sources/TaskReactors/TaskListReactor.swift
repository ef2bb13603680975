import ReactorCore
import TaskModel

/// The list screen of RxTodo, for a terminal: the tasks a query selects, in sections, kept up
/// to date by the service's events — so a task created or changed by any reactor appears,
/// moves or leaves here at the place this list's query puts it.
public final class TaskListReactor: Reactor {
    public enum Action {
        /// Fetch again, with this query.
        case refresh(TaskQuery)
        case toggleTaskDone(Int64)
        /// Flip several tasks in one transaction: all of them or, when one is missing, none.
        case toggleTasksDone([Int64])
        case setDone([Int64], Bool)
        case deleteTasks([Int64])
        case moveTask(Int64, to: TaskPlacement)
        /// Ask to open the editor for a task.
        case selectTask(Int64)
        /// Load the lists with their counts.
        case loadLists
        /// Revert the newest change (the `u` key); its changes arrive as events.
        case undo
        /// Apply again the change undone last.
        case redo
        /// Take in what other processes committed (the change feed), as events.
        case catchUp
    }

    public enum Mutation {
        case setQuery(TaskQuery)
        case setLoading(Bool)
        case setSections([TaskSection])
        case applyEvent(TaskEvent)
        case setFailure(TaskServiceError)
        case openEditor(Task)
        case setLists([TaskListSummary])
        case setStep(HistoryStep)
    }

    public struct State: Equatable {
        public var query: TaskQuery
        public var sections: [TaskSection] = []
        public var isLoading = false
        /// A service call failed.
        @Pulse public var failure: TaskServiceError?
        /// The view should open the editor for this task.
        @Pulse public var editing: Task?
        /// The lists with their counts, once loaded.
        public var lists: [TaskListSummary]?
        /// Each committed change as it arrives, whether or not it touches the sections: what a
        /// view confirms after a toggle, a delete or a move.
        @Pulse public var applied: TaskEvent?
        /// An undo or redo went through.
        @Pulse public var step: HistoryStep?

        public init(query: TaskQuery) { self.query = query }

        /// Every task shown, in order.
        public var tasks: [Task] { sections.flatMap(\.items) }
    }

    public let initialState: State
    public let reactorStorage = Storage()
    private let service: any TaskService

    /// A list over `service`, showing `query` once refreshed.
    public init(service: any TaskService, query: TaskQuery = TaskQuery()) {
        self.service = service
        initialState = State(query: query)
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .refresh(let query):
            return Observable.concat([
                .just(.setQuery(query)),
                .just(.setLoading(true)),
                service.fetch(query).map { Mutation.setSections(query.sections(from: $0)) }
                    .catch { .just(.setFailure(TaskServiceError($0))) },
                .just(.setLoading(false)),
            ])
        case .toggleTaskDone(let id):
            return reportOnly(service.toggle(ids: [id]))
        case .toggleTasksDone(let ids):
            return reportOnly(service.toggle(ids: ids))
        case .setDone(let ids, let isDone):
            return reportOnly(service.setDone(ids: ids, isDone))
        case .deleteTasks(let ids):
            return reportOnly(service.delete(ids: ids))
        case .moveTask(let id, let placement):
            return reportOnly(service.move(id: id, to: placement))
        case .selectTask(let id):
            if let (section, item) = currentState.sections.indexPath(of: id) {
                return .just(.openEditor(currentState.sections[section].items[item]))
            }
            return service.task(id: id).map { Mutation.openEditor($0) }
                .catch { .just(.setFailure(TaskServiceError($0))) }
        case .undo:
            return HistoryStep.undo(nil, on: service).map(Mutation.setStep).catch { .just(.setFailure(TaskServiceError($0))) }
        case .redo:
            return HistoryStep.redo(on: service).map(Mutation.setStep).catch { .just(.setFailure(TaskServiceError($0))) }
        case .catchUp:
            return reportOnly(service.catchUp())
        case .loadLists:
            return Observable.concat([
                .just(.setLoading(true)),
                service.lists().map { Mutation.setLists($0) }.catch { .just(.setFailure(TaskServiceError($0))) },
                .just(.setLoading(false)),
            ])
        }
    }

    /// A change's result reaches the sections through `service.event`; only a failure is
    /// this action's own mutation.
    private func reportOnly<T>(_ call: Observable<T>) -> Observable<Mutation> {
        call.compactMap { _ in nil }.catch { .just(.setFailure(TaskServiceError($0))) }
    }

    public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        .merge(mutation, service.event.map { Mutation.applyEvent($0) })
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setQuery(let query):
            state.query = query
        case .setLoading(let isLoading):
            state.isLoading = isLoading
        case .setSections(let sections):
            state.sections = sections
        case .applyEvent(let event):
            TaskListReactor.apply(event, to: &state)
            state.applied = event
        case .setFailure(let failure):
            state.failure = failure
        case .openEditor(let task):
            state.editing = task
        case .setLists(let lists):
            state.lists = lists
        case .setStep(let step):
            state.step = step
        }
        return state
    }

    private static func apply(_ event: TaskEvent, to state: inout State) {
        switch event {
        case .create(let task):
            // A task heard of twice (the change feed after one's own event) replaces itself.
            if state.query.matches(task) { state.sections.insertOrReplace(task, for: state.query) }
        case .update(let task), .move(let task), .markAsDone(let task), .markAsUndone(let task):
            state.sections.place(task, for: state.query)
        case .delete(let task):
            state.sections.remove(id: task.id)
        case .batch(let events):
            for event in events { apply(event, to: &state) }
        }
    }
}
