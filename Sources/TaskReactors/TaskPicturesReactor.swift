import QueryLanguage
import ReactorCore
import TaskModel

/// What the pictures show, read once when asked: the whole file's counts (`tasks stats`),
/// when the tasks a query chooses were added, started, completed and deleted (`tasks
/// burndown`, `tasks history --graph`), or how many are due each day (`tasks calendar`).
public final class TaskPicturesReactor: Reactor {
    public enum Action {
        case loadStats
        case loadActivity(TaskQuery)
        case loadDue(TaskQuery)
    }

    public enum Mutation {
        case setStats(TaskStats)
        case setActivity(TaskActivity)
        case setDue([CalendarDay: Int])
        case setFailure(TaskServiceError)
    }

    public struct State: Equatable {
        public var stats: TaskStats?
        public var activity: TaskActivity?
        public var due: [CalendarDay: Int]?
        @Pulse public var failure: TaskServiceError?

        public init() {}
    }

    public let initialState = State()
    public let reactorStorage = Storage()
    private let service: any TaskReading

    public init(service: any TaskReading) {
        self.service = service
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        let read: Observable<Mutation>
        switch action {
        case .loadStats: read = service.stats().map { Mutation.setStats($0) }
        case .loadActivity(let query): read = service.activity(query).map { Mutation.setActivity($0) }
        case .loadDue(let query): read = service.dueCounts(query).map { Mutation.setDue($0) }
        }
        return read.catch { .just(.setFailure(TaskServiceError($0))) }
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setStats(let stats): state.stats = stats
        case .setActivity(let activity): state.activity = activity
        case .setDue(let due): state.due = due
        case .setFailure(let failure): state.failure = failure
        }
        return state
    }
}
