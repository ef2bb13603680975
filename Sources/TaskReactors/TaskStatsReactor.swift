import QueryLanguage
import ReactorCore
import TaskModel

/// The whole file's counts, rates and averages (`tasks stats`), read once when asked.
public final class TaskStatsReactor: Reactor {
    public enum Action {
        case load
    }

    public enum Mutation {
        case setStats(TaskStats)
        case setFailure(TaskServiceError)
    }

    public struct State: Equatable {
        public var stats: TaskStats?
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
        switch action {
        case .load:
            return service.stats().map { Mutation.setStats($0) }.catch { .just(.setFailure(TaskServiceError($0))) }
        }
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setStats(let stats): state.stats = stats
        case .setFailure(let failure): state.failure = failure
        }
        return state
    }
}
