/// A reactor's state, held once, and its subscribers: what the pipeline writes and the state
/// stream reads. Shared by the storage and its state stream (neither holds the other), so
/// that a state stream kept after its reactor has gone still answers: the last state, then
/// completion.
final class StateCell<State>: @unchecked Sendable {
    /// The reduced state: the only reference the core holds, taken out while `reduce` runs.
    var reduced: State?
    /// The latest output of `transform(state:)`, when that is not the identity.
    private var transformed: State?
    /// Whether `transform(state:)` is not the identity (then subscribers see its output).
    var transformsState = false
    private var ended = false

    private let lock = Lock()
    /// Subscribers of `reactor.state`.
    private var observers = ObserverList<State>()
    /// Subscribers of the reduced state (the input of `transform(state:)`).
    private var reducedObservers = ObserverList<State>()

    /// What `currentState` shows; `nil` before the pipeline exists.
    var current: State? { transformsState ? transformed : reduced }

    /// Sends the reduced state to whoever sees it first: the subscribers, or `transform(state:)`.
    @inline(__always)
    func emitReduced() {
        lock.lock()
        let current = transformsState ? reducedObservers.entries : observers.entries
        lock.unlock()
        guard !current.isEmpty, let state = reduced else { return }
        for entry in current { entry.observer.onNext(state) }
    }

    /// Takes an event of `transform(state:)`'s output.
    func receiveTransformed(_ event: Event<State>) {
        switch event {
        case .next(let state):
            transformed = state
            lock.lock()
            let current = observers.entries
            lock.unlock()
            for entry in current { entry.observer.onNext(state) }
        case .error, .completed:
            end()
        }
    }

    /// The state stream ended (its mutation stream did): subscribers complete.
    func end() {
        lock.lock()
        if ended {
            lock.unlock()
            return
        }
        ended = true
        let gone = observers.entries + reducedObservers.entries
        observers.removeAll()
        reducedObservers.removeAll()
        lock.unlock()
        for entry in gone { entry.observer.onCompleted() }
    }

    /// The reactor went: nothing more will be emitted, and later subscribers complete at once.
    /// The present ones are let go without an event, as ReactorKit's are.
    func detach() {
        lock.withLock {
            ended = true
            observers.removeAll()
            reducedObservers.removeAll()
        }
    }

    /// Adds a subscriber of the state (or, `before`, of the input of `transform(state:)`),
    /// which gets the current state at once.
    func subscribe(_ observer: AnyObserver<State>, before: Bool) -> any Disposable {
        lock.lock()
        let now = before ? reduced : current
        if ended {
            lock.unlock()
            if let now { observer.onNext(now) }
            observer.onCompleted()
            return NopDisposable.instance
        }
        let key = before ? reducedObservers.insert(observer) : observers.insert(observer)
        lock.unlock()
        if let now { observer.onNext(now) }
        return Disposables.create { [self] in
            lock.withLock {
                if before { reducedObservers.remove(key) } else { observers.remove(key) }
            }
        }
    }
}
