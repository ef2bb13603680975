import ReactorCore
import TaskModel

/// `tasks sync`: one exchange with a remote, its report, or why it failed. What the sync
/// changed reaches every list through the history, as any other process's change does.
public final class TaskSyncReactor: Reactor {
    public enum Action {
        /// Sync with `url`, else the remote remembered; `remember` keeps `url` for next time.
        case sync(url: String?, remember: Bool)
        /// Read the changes received and kept aside.
        case readRejected
    }

    public enum Mutation {
        case setSyncing(Bool)
        case setReport(SyncReport)
        case setFailure(TaskServiceError)
        case setRejected([SyncRejection])
    }

    public struct State: Equatable {
        public var isSyncing = false
        /// The last sync's report.
        @Pulse public var report: SyncReport?
        @Pulse public var failure: TaskServiceError?
        /// The changes kept aside, once read.
        @Pulse public var rejected: [SyncRejection]?

        public init() {}
    }

    public let initialState = State()
    public let reactorStorage = Storage()
    private let service: any TaskSyncing
    private let maker: any SyncRemoteMaker

    public init(service: any TaskSyncing, remotes maker: any SyncRemoteMaker) {
        self.service = service
        self.maker = maker
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .sync(let url, let remember):
            return Observable.concat([
                .just(.setSyncing(true)),
                service.sync(url: url, remember: remember, through: maker).map(Mutation.setReport)
                    .catch { .just(.setFailure(TaskServiceError($0))) },
                .just(.setSyncing(false)),
            ])
        case .readRejected:
            return service.rejectedChanges().map(Mutation.setRejected).catch { .just(.setFailure(TaskServiceError($0))) }
        }
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setSyncing(let isSyncing): state.isSyncing = isSyncing
        case .setReport(let report): state.report = report
        case .setFailure(let failure): state.failure = failure
        case .setRejected(let rejected): state.rejected = rejected
        }
        return state
    }
}

extension SyncReport {
    /// `Sent 3, received 5 (2 new, 3 changed)`: what a person is told.
    public var sentence: String {
        if isEmpty { return "Up to date: nothing to send or receive." }
        var text = "Sent \(pushed), received \(pulled)"
        let applied = [(created, "new"), (changed, "changed"), (deleted, "deleted")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if !applied.isEmpty { text += " (" + applied.joined(separator: ", ") + ")" }
        return text + "."
    }
}

extension SyncConflict {
    /// `task 12 title: kept "X" from laptop, replaced "Y" from desktop`; for a delete against
    /// an edit, `task 12: deleted on laptop, changed on dav.example: kept, with the change`.
    public var sentence: String {
        if field == SyncField.deleted {
            return "task \(taskID): deleted on \(replacedFrom), changed on \(keptFrom): kept, with the change"
        }
        return "task \(taskID) \(field): kept \(kept) from \(keptFrom), replaced \(replaced) from \(replacedFrom)"
    }
}
