import QueryLanguage
import ReactorCore
import TaskModel

/// One task in full, for the ui's details pane: every field (`TaskDetails`: its blockers and
/// the tasks it blocks, by id), and the newest entries of its history. Read again whenever the
/// service announces a change — anywhere, since a blocker's change shows here too.
public final class TaskDetailsReactor: Reactor {
    public enum Action {
        /// Show this task (nil: none, the pane is empty).
        case show(Int64?)
    }

    public enum Mutation {
        case setShown(Int64?)
        case setDetails(TaskDetails?, history: [HistoryEntry])
        case setFailure(TaskServiceError)
    }

    public struct State: Equatable {
        /// The task asked for.
        public var id: Int64?
        /// It, as read last (nil until read, or when it is gone).
        public var details: TaskDetails?
        /// Its history, newest first, `historyLimit` entries at most.
        public var history: [HistoryEntry] = []
        @Pulse public var failure: TaskServiceError?

        public init() {}
    }

    public let initialState = State()
    public let reactorStorage = Storage()
    private let service: any TaskReading & TaskHistoryKeeping & TaskEventFeed
    /// How many history entries the pane shows (0: none is read — `tasks show`).
    public let historyLimit: Int

    /// Over the roles it calls: reading tasks, their history, and the feed it reads again on.
    public init(service: any TaskReading & TaskHistoryKeeping & TaskEventFeed, historyLimit: Int = 5) {
        self.service = service
        self.historyLimit = max(0, historyLimit)
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .show(let id):
            guard id != currentState.id || currentState.details == nil else { return .empty() }
            return .concat([.just(.setShown(id)), read(id)])
        }
    }

    public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        let events = service.event.flatMap { [weak self] _ -> Observable<Mutation> in
            .deferred { self.map { $0.read($0.currentState.id) } ?? .empty() }
        }
        return .merge(mutation, events)
    }

    /// Task `id` with its related tasks and history; a task that is gone is no details.
    private func read(_ id: Int64?) -> Observable<Mutation> {
        guard let id else { return .just(.setDetails(nil, history: [])) }
        let service = self.service
        let limit = historyLimit
        return service.task(id: id).flatMap { task -> Observable<Mutation> in
            let blockers: Observable<[Task]> = task.depends.isEmpty ? .just([]) : service.fetch(TaskDetails.blockersQuery(of: task))
            return blockers.flatMap { blockers in
                service.fetch(TaskDetails.blockingQuery(of: task)).flatMap { blocking in
                    let history: Observable<[HistoryEntry]> = limit == 0 ? .just([]) : service.history(HistoryQuery(limit: limit, taskID: id))
                    return history.map { history in
                        .setDetails(TaskDetails(task: task, blockers: blockers, blocking: blocking), history: history)
                    }
                }
            }
        }.catch { error in
            if case .notFound = TaskServiceError(error) { return .just(.setDetails(nil, history: [])) }
            return .just(.setFailure(TaskServiceError(error)))
        }
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setShown(let id):
            if id != state.id {
                state.id = id
                state.details = nil
                state.history = []
            }
        case .setDetails(let details, let history):
            if details == nil || details?.task.id == state.id {
                state.details = details
                state.history = history
            }
        case .setFailure(let failure):
            state.failure = failure
        }
        return state
    }
}
