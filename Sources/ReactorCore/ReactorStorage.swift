import Synchronization

/// What a reactor keeps: its action subject, its state stream and state, and its stub.
///
/// Declared by the reactor (`let reactorStorage = Storage()`), or found per instance by
/// ReactorKitCompat's `InstanceTable` for code written for ReactorKit. On the first use of `action` or
/// `state` it builds the reactor's pipeline, a `ReactorPipeline` specialized for the reactor's
/// type, and owns it from then on.
public final class ReactorStorage<Action, Mutation, State>: @unchecked Sendable {
    /// Makes the storage; nothing runs until the reactor's first `action` or `state`.
    public init() {
        let cell = StateCell<State>()
        self.cell = cell
        stateStream = StateStream(cell: cell)
    }

    let actionSubject = ActionSubject<Action>()
    /// The state and its subscribers, shared with the state stream.
    let cell: StateCell<State>
    /// `reactor.state`: one object for the reactor's life.
    let stateStream: StateStream<State>

    /// The current state, or `nil` before the pipeline exists (then it is the initial state).
    var currentState: State? { cell.current }

    deinit {
        actionSubject.gate = nil
        pipeline?.dispose()
        cell.detach()
    }

    // MARK: - Stub

    var isStubEnabled = false
    private var stub: StubCore<Action, State>?

    func stubCore(_ initialState: @autoclosure () -> State) -> StubCore<Action, State> {
        if let stub { return stub }
        let made = StubCore<Action, State>(initialState: initialState())
        stub = made
        return made
    }

    // MARK: - Building the pipeline, once

    /// Whether the pipeline must hold its reactor weakly: never for a storage the reactor
    /// declares (it dies with the reactor); ReactorKitCompat's table, which finds a storage per
    /// instance, sets it for a class it could not hook.
    package var holdsReactorWeakly: @Sendable (AnyObject) -> Bool = { _ in false }

    private let bindLock = Lock()
    private let isBound = Atomic<Bool>(false)
    /// The thread building the pipeline, so that it may use `action` and `state` meanwhile.
    private let bindingThread = Atomic<UInt>(0)
    private var pipeline: (any Disposable)?

    /// Builds the pipeline on first use; other threads arriving meanwhile wait for it.
    @inline(__always)
    func bindIfNeeded<R: Reactor>(_ reactor: R) where R.Action == Action, R.Mutation == Mutation, R.State == State {
        if isBound.load(ordering: .acquiring) { return }
        bindOnce(reactor)
    }

    private func bindOnce<R: Reactor>(_ reactor: R) where R.Action == Action, R.Mutation == Mutation, R.State == State {
        if bindingThread.load(ordering: .relaxed) == threadToken() { return }
        bindLock.withLock {
            if isBound.load(ordering: .relaxed) { return }
            bindingThread.store(threadToken(), ordering: .relaxed)
            pipeline = ReactorPipeline(reactor: reactor, actions: actionSubject, cell: cell,
                                       holdsReactorWeakly: holdsReactorWeakly(reactor))
            bindingThread.store(0, ordering: .relaxed)
            isBound.store(true, ordering: .releasing)
        }
    }
}

/// `reactor.state`: subscribing adds a subscriber to the state cell.
final class StateStream<State>: Observable<State>, @unchecked Sendable {
    private let cell: StateCell<State>

    init(cell: StateCell<State>) { self.cell = cell }

    override package func run(_ observer: AnyObserver<State>) -> any Disposable {
        cell.subscribe(observer, before: false)
    }
}
