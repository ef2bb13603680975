/// A reactor's pipeline, ReactorKit's, built once and specialized for the reactor's type:
///
/// ```
/// action subject ─▶ transform(action:) ─▶ mutate, per action (its errors end it alone)
///   ─▶ transform(mutation:) ─▶ gate ─▶ reduce ─▶ transform(state:) ─▶ state subscribers
/// ```
///
/// Owned by the reactor's storage. A storage the reactor declares dies with it, and the
/// table's storage is released just before its reactor is destroyed, so the pipeline reaches
/// the reactor without retaining it — no reference count traffic per action. For a class the
/// table could not hook, it holds the reactor weakly instead.
final class ReactorPipeline<R: Reactor>: Disposable, @unchecked Sendable {
    private unowned let reactor: R
    private weak var weakReactor: R?
    private let holdsReactorWeakly: Bool
    private let actions: ActionSubject<R.Action>
    private let cell: StateCell<R.State>
    private let gate = SerialGate<R.Action, R.Mutation>()
    private var subscriptions: [any Disposable] = []

    init(reactor: R, actions: ActionSubject<R.Action>, cell: StateCell<R.State>, holdsReactorWeakly: Bool) {
        self.reactor = reactor
        self.holdsReactorWeakly = holdsReactorWeakly
        if holdsReactorWeakly { weakReactor = reactor }
        self.actions = actions
        self.cell = cell
        cell.reduced = reactor.initialState

        // Actions enter through the gate, on the reactor's scheduler when it is not the default.
        let unretained = Unmanaged.passUnretained(self)
        let scheduler = reactor.scheduler
        if scheduler === CurrentThreadScheduler.instance {
            actions.gate = { action in unretained._withUnsafeGuaranteedRef { $0.receive(action: action) } }
        } else {
            actions.gate = { [weak self] action in scheduler.schedule { self?.receive(action: action) } }
        }

        // State: the reduced state, through transform(state:), to the subscribers.
        let reducedState = Producer<R.State> { [cell] observer in cell.subscribe(observer, before: true) }
        let transformedState = reactor.transform(state: reducedState)
        if transformedState !== reducedState {
            cell.transformsState = true
            subscriptions.append(transformedState.run(AnyObserver { [cell] event in cell.receiveTransformed(event) }))
        }

        // Mutations: actions through transform(action:), mutate, transform(mutation:), the gate.
        let transformedActions = reactor.transform(action: actions)
        let mutations = Producer<R.Mutation> { observer in
            unretained._withUnsafeGuaranteedRef { MutateSink(downstream: observer, pipeline: $0).run(transformedActions) }
        }
        subscriptions.append(reactor.transform(mutation: mutations).run(AnyObserver { event in
            unretained._withUnsafeGuaranteedRef { pipeline in
                switch event {
                case .next(let mutation): pipeline.receive(mutation: mutation)
                case .error, .completed: pipeline.cell.end()
                }
            }
        }))
    }

    func dispose() {
        for subscription in subscriptions { subscription.dispose() }
        subscriptions = []
    }

    // MARK: - The reactor's two calls

    @inline(__always)
    func mutate(_ action: R.Action) -> Observable<R.Mutation> {
        if holdsReactorWeakly {
            return weakReactor?.mutate(action: action) ?? .empty()
        }
        return reactor.mutate(action: action)
    }

    @inline(__always)
    private func reduce(_ state: consuming R.State, _ mutation: R.Mutation) -> R.State {
        if holdsReactorWeakly {
            guard let reactor = weakReactor else { return state }
            return reactor.reduce(state: consume state, mutation: mutation)
        }
        return reactor.reduce(state: consume state, mutation: mutation)
    }

    // MARK: - Through the gate: one action or mutation at a time, FIFO

    private func receive(action: R.Action) {
        gate.run(.action(action)) { perform($0) }
    }

    private func receive(mutation: R.Mutation) {
        gate.run(.mutation(mutation)) { perform($0) }
    }

    @inline(__always)
    private func perform(_ work: SerialGate<R.Action, R.Mutation>.Work) {
        switch work {
        case .action(let action): actions.deliver(action)
        case .mutation(let mutation): reduceAndEmit(mutation)
        }
    }

    private func reduceAndEmit(_ mutation: R.Mutation) {
        guard let state = cell.reduced.take() else { return }
        gate.isReducing = true
        cell.reduced = reduce(consume state, mutation)
        cell.emitReduced()
        gate.isReducing = false
    }
}
