/// A subject that holds its latest element and gives it to each new subscriber first.
public final class BehaviorSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable {
    /// Reading `value()` from a subject that ended with a failure.
    public struct Failed: Error {
        /// The failure the subject ended with.
        public let underlying: any Error
    }

    private let lock = Lock()
    private var observers = ObserverList<Element>()
    private var latest: Element
    private var stopEvent: Event<Element>?

    /// A subject holding `value`.
    public init(value: Element) { latest = value }

    /// The latest element; throws when the subject ended with a failure.
    public func value() throws -> Element {
        try lock.withLock {
            if case .error(let error) = stopEvent { throw Failed(underlying: error) }
            return latest
        }
    }

    public func on(_ event: Event<Element>) {
        lock.lock()
        if stopEvent != nil {
            lock.unlock()
            return
        }
        switch event {
        case .next(let element): latest = element
        case .error, .completed:
            stopEvent = event
        }
        let current = observers.entries
        if event.isStopEvent { observers.removeAll() }
        lock.unlock()
        for entry in current { entry.observer.on(event) }
    }

    override func run(_ observer: AnyObserver<Element>) -> any Disposable {
        lock.lock()
        if let stopEvent {
            lock.unlock()
            observer.on(stopEvent)
            return NopDisposable.instance
        }
        let key = observers.insert(observer)
        let current = latest
        lock.unlock()
        observer.onNext(current)
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.observers.remove(key) }
        }
    }
}
