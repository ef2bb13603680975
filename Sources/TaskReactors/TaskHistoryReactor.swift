import QueryLanguage
import ReactorCore
import TaskModel

/// The history screen: the entries a query selects, and undo and redo — whose changes reach
/// every list through the service's events, as any change does.
public final class TaskHistoryReactor: Reactor {
    public enum Action {
        /// Read the entries `query` selects.
        case load(HistoryQuery)
        /// Revert this entry, or the newest command entry in effect.
        case undo(Int64?)
        /// Apply again the entry undone last.
        case redo
    }

    public enum Mutation {
        case setLoading(Bool)
        case setEntries([HistoryEntry])
        case setStep(HistoryStep)
        case setFailure(TaskServiceError)
    }

    public struct State: Equatable {
        public var entries: [HistoryEntry] = []
        public var isLoading = false
        /// An undo or redo went through.
        @Pulse public var step: HistoryStep?
        @Pulse public var failure: TaskServiceError?

        public init() {}
    }

    public let initialState = State()
    public let reactorStorage = Storage()
    private let service: any TaskHistoryKeeping

    public init(service: any TaskHistoryKeeping) {
        self.service = service
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .load(let query):
            return Observable.concat([
                .just(.setLoading(true)),
                service.history(query).map(Mutation.setEntries).catch { .just(.setFailure(TaskServiceError($0))) },
                .just(.setLoading(false)),
            ])
        case .undo(let entry):
            return HistoryStep.undo(entry, on: service).map(Mutation.setStep).catch { .just(.setFailure(TaskServiceError($0))) }
        case .redo:
            return HistoryStep.redo(on: service).map(Mutation.setStep).catch { .just(.setFailure(TaskServiceError($0))) }
        }
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setLoading(let isLoading): state.isLoading = isLoading
        case .setEntries(let entries): state.entries = entries
        case .setStep(let step): state.step = step
        case .setFailure(let failure): state.failure = failure
        }
        return state
    }
}

/// An undo or a redo that went through, and the entry it reverted or applied again.
public struct HistoryStep: Equatable, Sendable {
    public enum Kind: Sendable { case undid, redid }

    public var kind: Kind
    public var entry: HistoryEntry

    public init(kind: Kind, entry: HistoryEntry) {
        self.kind = kind
        self.entry = entry
    }

    /// `Undid #12: done 3 "Buy milk"`: what a person is told.
    public var sentence: String { "\(kind == .undid ? "Undid" : "Redid") #\(entry.id): \(entry.summary)" }

    /// `service`'s undo of `entry`, as a step.
    static func undo(_ entry: Int64?, on service: any TaskHistoryKeeping) -> Observable<HistoryStep> {
        service.undo(entry: entry).map { HistoryStep(kind: .undid, entry: $0) }
    }

    /// `service`'s redo, as a step.
    static func redo(on service: any TaskHistoryKeeping) -> Observable<HistoryStep> {
        service.redo().map { HistoryStep(kind: .redid, entry: $0) }
    }
}
