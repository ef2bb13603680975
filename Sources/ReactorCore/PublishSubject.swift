/// Both an observer and an observable: what it is sent, it passes to its current subscribers.
/// A subscriber that comes after the end gets the terminal event.
public final class PublishSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable {
    private let lock = Lock()
    private var observers = ObserverList<Element>()
    private var stopEvent: Event<Element>?

    /// A subject with no subscribers.
    public override init() {}

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { lock.withLock { !observers.isEmpty } }

    public func on(_ event: Event<Element>) {
        lock.lock()
        if stopEvent != nil {
            lock.unlock()
            return
        }
        let current = observers.entries
        if event.isStopEvent {
            stopEvent = event
            observers.removeAll()
        }
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
        lock.unlock()
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.observers.remove(key) }
        }
    }

    /// This subject as an observer.
    public func asObserver() -> AnyObserver<Element> { AnyObserver { self.on($0) } }
}
