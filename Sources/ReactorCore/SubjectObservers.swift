/// The observers of a subject and how it ends: what `PublishSubject` and `BehaviorSubject`
/// share. An event goes to the observers subscribed when it is sent; after a terminal event
/// nothing more is sent, and a late subscriber gets that terminal event at once.
final class SubjectObservers<Element>: @unchecked Sendable {
    private let lock = Lock()
    private var observers = ObserverList<Element>()
    private var stopEvent: Event<Element>?

    /// Whether anyone is subscribed.
    var isEmpty: Bool { lock.withLock { observers.isEmpty } }

    /// Sends `event`, after `update` has run under the lock (unless the subject has ended).
    func send(_ event: Event<Element>, update: () -> Void = {}) {
        lock.lock()
        if stopEvent != nil {
            lock.unlock()
            return
        }
        update()
        let current = observers.entries
        if event.isStopEvent {
            stopEvent = event
            observers.removeAll()
        }
        lock.unlock()
        for entry in current { entry.observer.on(event) }
    }

    /// Subscribes `observer`, first sending it `replay()` (read under the lock) when that
    /// gives an element.
    func add(_ observer: AnyObserver<Element>, replay: () -> Element? = { nil }) -> any Disposable {
        lock.lock()
        if let stopEvent {
            lock.unlock()
            observer.on(stopEvent)
            return NopDisposable.instance
        }
        let key = observers.insert(observer)
        let first = replay()
        lock.unlock()
        if let first { observer.onNext(first) }
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.observers.remove(key) }
        }
    }
}
