import Synchronization

/// `flatMap(mutate)` with each action's errors kept to that action: a failing `mutate` ends
/// its own mutations and nothing else (ReactorKit's `mutate(action:).catch { .empty() }`).
///
/// The common results need no subscription at all: a `just`, and the leading `just`s of a
/// `concat` (loading on, the change, loading off) are passed on directly.
final class MutateSink<R: Reactor>: Disposable, @unchecked Sendable {
    typealias Action = R.Action
    typealias Mutation = R.Mutation
    private let downstream: AnyObserver<Mutation>
    /// The pipeline owns what owns this sink: it outlives it.
    private unowned let pipeline: ReactorPipeline<R>
    private let upstream = SingleAssignmentDisposable()
    private let lock = Lock()
    private var inners: [UInt64: any Disposable] = [:]
    private var nextKey: UInt64 = 0
    private var disposed = false

    init(downstream: AnyObserver<Mutation>, pipeline: ReactorPipeline<R>) {
        self.downstream = downstream
        self.pipeline = pipeline
    }

    /// Subscribes to `actions`; returns what stops it all.
    func run(_ actions: Observable<Action>) -> any Disposable {
        upstream.setDisposable(actions.run(AnyObserver { [self] event in
            switch event {
            case .next(let action): subscribe(pipeline.mutate(action))
            case .error, .completed:
                // The end of the action stream ends the state stream, as in ReactorKit.
                downstream.on(event.mapError())
            }
        }))
        return self
    }

    private func subscribe(_ mutations: Observable<Mutation>) {
        if let just = mutations as? Just<Mutation> {
            downstream.onNext(just.element)
            return
        }
        if let concat = mutations as? Concat<Mutation> {
            var index = 0
            let sources = concat.sources
            while index < sources.count, let just = sources[index] as? Just<Mutation> {
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

    private func subscribeTracked(_ mutations: Observable<Mutation>) {
        let tracker = InnerTracker()
        let subscription = mutations.run(AnyObserver { [downstream, weak self] event in
            if tracker.hasEnded { return }
            switch event {
            case .next:
                downstream.on(event)
            case .error, .completed:
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
