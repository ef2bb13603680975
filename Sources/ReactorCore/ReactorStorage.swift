#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What a reactor keeps: its action subject, its state (held once), its state subscribers,
/// its stub, and the serial gate that runs one action or mutation at a time.
///
/// Declare it in the reactor as `let reactorStorage = ReactorStorage<Self>()`. The pipeline
/// is built on the first use of `action` or `state`, as in ReactorKit.
public final class ReactorStorage<R: Reactor>: @unchecked Sendable {
    enum Work {
        case action(R.Action)
        case mutation(R.Mutation)
    }

    /// Makes the storage; it does nothing until the reactor's first `action` or `state`.
    public init() {}

    // MARK: - Streams

    let actionSubject = ActionSubject<R.Action>()
    /// A new observable of the state; not cached, since it holds the storage strongly.
    var stateObservable: Observable<R.State> {
        Producer { [weak self] observer in
            guard let self else {
                observer.onCompleted()
                return NopDisposable.instance
            }
            return self.subscribeState(observer, reducedOnly: false)
        }
    }

    // Lifetimes, and why the per-action paths hold no strong or weak references: the reactor
    // owns the storage, and nothing else keeps the storage alive (state subscriptions hold it
    // weakly), so the storage never outlives its reactor, and the pipeline it owns is disposed
    // in its `deinit`. Weak references on these paths would cost an atomic side-table access
    // on every action and make every retain of the reactor and storage take the slow path.
    private unowned(unsafe) var reactor: R?
    private var isBound = false

    /// The reduced state: the only reference the core holds, taken out while `reduce` runs.
    private var reduced: R.State?
    /// The latest output of `transform(state:)`, when it is not the identity.
    private var transformed: R.State?
    private var transformsState = false
    private var stateEnded = false

    private let observersLock = Lock()
    /// Subscribers of `reactor.state`.
    private var stateObservers = ObserverList<R.State>()
    /// Subscribers of the untransformed state (the input of `transform(state:)`).
    private var reducedObservers = ObserverList<R.State>()

    private var mutationSubscription: (any Disposable)?
    private var stateSubscription: (any Disposable)?

    // MARK: - Stub

    var isStubEnabled = false
    private var stubInstance: Stub<R>?

    func stub(initialState: @autoclosure () -> R.State) -> Stub<R> {
        if let stubInstance { return stubInstance }
        let made = Stub<R>(initialState: initialState())
        stubInstance = made
        return made
    }

    // MARK: - Gate

    private let gateLock = Lock()
    /// The thread handling an action or mutation now, 0 for none. Only the owner clears it, so
    /// a thread that reads its own token here knows it holds the gate without locking.
    private let gateOwner = Atomic<UInt>(0)
    private var inReduce = false
    private var pending: [Work] = []
    private var pendingHead = 0

    deinit {
        actionSubject.gate = nil
        mutationSubscription?.dispose()
        stateSubscription?.dispose()
    }

    // MARK: - Building the pipeline

    /// The current state, or `nil` before the pipeline exists (then it is the initial state).
    var currentState: R.State? {
        transformsState ? transformed : reduced
    }

    func bindIfNeeded(_ reactor: R) {
        if isBound { return }
        isBound = true
        self.reactor = reactor
        reduced = reactor.initialState

        // Unmanaged: call the storage without retaining it (see "Lifetimes" above).
        let unretained = Unmanaged.passUnretained(self)
        actionSubject.gate = { action in
            unretained._withUnsafeGuaranteedRef { $0.receive(action: action) }
        }

        // State: the reduced state, through transform(state:), to the subscribers.
        let reducedSource = Producer<R.State> { [unowned self] observer in
            self.subscribeState(observer, reducedOnly: true)
        }
        let transformedState = reactor.transform(state: reducedSource)
        if transformedState !== reducedSource {
            transformsState = true
            stateSubscription = transformedState.run(AnyObserver { [unowned(unsafe) self] event in
                self.receiveTransformed(event)
            })
        }

        // Mutations: actions through transform(action:), mutate, transform(mutation:).
        let actions = reactor.transform(action: actionSubject)
        let mutations = Producer<R.Mutation> { [unowned(unsafe) reactor] observer in
            let sink = MutateSink<R>(downstream: observer)
            sink.upstream.setDisposable(actions.subscribe { [unowned(unsafe) reactor, sink] event in
                switch event {
                case .next(let action):
                    sink.subscribe(reactor.mutate(action: action))
                case .error, .completed:
                    sink.finish(event)
                }
            })
            return sink
        }
        let transformedMutations = reactor.transform(mutation: mutations)
        mutationSubscription = transformedMutations.run(AnyObserver { event in
            unretained._withUnsafeGuaranteedRef { storage in
                switch event {
                case .next(let mutation): storage.receive(mutation: mutation)
                case .error, .completed: storage.endState()
                }
            }
        })
    }

    // MARK: - The gate: one action or mutation at a time, FIFO

    private func receive(action: R.Action) {
        let me = threadToken()
        gateLock.lock()
        if gateOwner.load(ordering: .relaxed) != 0 {
            pending.append(.action(action))
            gateLock.unlock()
            return
        }
        gateOwner.store(me, ordering: .relaxed)
        gateLock.unlock()
        actionSubject.deliver(action)
        drain()
    }

    private func receive(mutation: R.Mutation) {
        let me = threadToken()
        if gateOwner.load(ordering: .relaxed) == me {
            // A mutation of the action being handled runs now; one sent from inside reduce or
            // a state subscriber waits its turn.
            if !inReduce {
                reduceAndEmit(mutation)
                return
            }
            gateLock.withLock { pending.append(.mutation(mutation)) }
            return
        }
        gateLock.lock()
        if gateOwner.load(ordering: .relaxed) != 0 {
            // Another thread holds the gate: it will run this after what it is doing.
            pending.append(.mutation(mutation))
            gateLock.unlock()
            return
        }
        gateOwner.store(me, ordering: .relaxed)
        gateLock.unlock()
        reduceAndEmit(mutation)
        drain()
    }

    private func drain() {
        while true {
            gateLock.lock()
            if pendingHead == pending.count {
                if pendingHead > 0 {
                    pending.removeAll(keepingCapacity: true)
                    pendingHead = 0
                }
                gateOwner.store(0, ordering: .relaxed)
                gateLock.unlock()
                return
            }
            let work = pending[pendingHead]
            pendingHead += 1
            gateLock.unlock()
            switch work {
            case .action(let action): actionSubject.deliver(action)
            case .mutation(let mutation): reduceAndEmit(mutation)
            }
        }
    }

    // MARK: - Reduce and emit

    private func reduceAndEmit(_ mutation: R.Mutation) {
        guard let reactor, !stateEnded, let state = reduced.take() else { return }
        inReduce = true
        let next = reactor.reduce(state: consume state, mutation: mutation)
        reduced = next
        emitReduced()
        inReduce = false
    }

    private func emitReduced() {
        observersLock.lock()
        let observers = transformsState ? reducedObservers.entries : stateObservers.entries
        observersLock.unlock()
        guard !observers.isEmpty, let state = reduced else { return }
        for entry in observers { entry.observer.onNext(state) }
    }

    private func receiveTransformed(_ event: Event<R.State>) {
        switch event {
        case .next(let state):
            transformed = state
            observersLock.lock()
            let observers = stateObservers.entries
            observersLock.unlock()
            for entry in observers { entry.observer.onNext(state) }
        case .error, .completed:
            endState()
        }
    }

    private func endState() {
        observersLock.lock()
        if stateEnded {
            observersLock.unlock()
            return
        }
        stateEnded = true
        let observers = stateObservers.entries + reducedObservers.entries
        stateObservers.removeAll()
        reducedObservers.removeAll()
        observersLock.unlock()
        for entry in observers { entry.observer.onCompleted() }
    }

    // MARK: - Subscribing

    func subscribeState(_ observer: AnyObserver<R.State>, reducedOnly: Bool) -> any Disposable {
        observersLock.lock()
        if stateEnded {
            observersLock.unlock()
            if let current = reducedOnly ? reduced : currentState { observer.onNext(current) }
            observer.onCompleted()
            return NopDisposable.instance
        }
        let key = reducedOnly ? reducedObservers.insert(observer) : stateObservers.insert(observer)
        observersLock.unlock()
        if let current = reducedOnly ? reduced : currentState { observer.onNext(current) }
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.observersLock.withLock {
                if reducedOnly {
                    self.reducedObservers.remove(key)
                } else {
                    self.stateObservers.remove(key)
                }
            }
        }
    }
}

/// `flatMap(mutate)` with each action's errors kept to that action: a failing `mutate`
/// ends its own mutations and nothing else.
final class MutateSink<R: Reactor>: Disposable, @unchecked Sendable {
    private let downstream: AnyObserver<R.Mutation>
    let upstream = SingleAssignmentDisposable()
    private let lock = Lock()
    private var inners: [UInt64: any Disposable] = [:]
    private var nextKey: UInt64 = 0
    private var disposed = false

    init(downstream: AnyObserver<R.Mutation>) { self.downstream = downstream }

    func subscribe(_ mutations: Observable<R.Mutation>) {
        // The common cases need no subscription at all: a `just`, and the leading `just`s of
        // a `concat` (loading on, change, loading off).
        if let just = mutations as? Just<R.Mutation> {
            downstream.onNext(just.element)
            return
        }
        if let concat = mutations as? Concat<R.Mutation> {
            var index = 0
            let sources = concat.sources
            while index < sources.count, let just = sources[index] as? Just<R.Mutation> {
                downstream.onNext(just.element)
                index += 1
            }
            if index == sources.count { return }
            if index > 0 {
                subscribeTracked(.concat(Array(sources[index...])))
                return
            }
        }
        subscribeTracked(mutations)
    }

    private func subscribeTracked(_ mutations: Observable<R.Mutation>) {
        let tracker = InnerTracker()
        let subscription = mutations.run(AnyObserver { [downstream, weak self] event in
            if tracker.hasEnded { return }
            switch event {
            case .next:
                downstream.on(event)
            case .error, .completed:
                // An error ends this action's mutations only.
                if tracker.end(), let self { self.remove(tracker.key) }
            }
        })
        // Most mutate streams end during their own subscribe: nothing to keep then.
        if tracker.hasEnded { return }
        let keep = lock.withLock { () -> Bool in
            if disposed { return false }
            tracker.key = nextKey
            inners[nextKey] = subscription
            nextKey += 1
            return true
        }
        if !keep {
            subscription.dispose()
        } else if !tracker.register() {
            remove(tracker.key)
        }
    }

    private func remove(_ key: UInt64) {
        let inner = lock.withLock { inners.removeValue(forKey: key) }
        inner?.dispose()
    }

    func finish(_ event: Event<R.Action>) {
        // The end of the action stream ends the state stream, as in ReactorKit.
        downstream.on(event.mapError())
    }

    func dispose() {
        let all = lock.withLock { () -> [any Disposable] in
            disposed = true
            defer { inners = [:] }
            return Array(inners.values)
        }
        upstream.dispose()
        for inner in all { inner.dispose() }
    }
}

/// The life of one action's mutation stream: running, ended, or running and registered for
/// disposal. Atomic, because a delayed mutation stream may end on another thread.
final class InnerTracker: @unchecked Sendable {
    private static let running = 0, ended = 1, registered = 2
    private let state = Atomic<Int>(InnerTracker.running)
    /// The key under which the subscription is kept, once registered.
    var key: UInt64 = 0

    var hasEnded: Bool { state.load(ordering: .acquiring) == InnerTracker.ended }

    /// Marks the stream ended; returns whether it had been registered (and must be removed).
    func end() -> Bool {
        state.exchange(InnerTracker.ended, ordering: .acquiringAndReleasing) == InnerTracker.registered
    }

    /// Marks the stream registered; returns `false` when it ended meanwhile.
    func register() -> Bool {
        state.compareExchange(
            expected: InnerTracker.running, desired: InnerTracker.registered, ordering: .acquiringAndReleasing
        ).exchanged
    }
}
