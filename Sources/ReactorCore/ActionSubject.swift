/// The subject a reactor receives its actions through. It only passes elements on: an error
/// or a completion sent to it is ignored, so that no binding can end a reactor's input.
///
/// A reactor's own action subject routes each action through the reactor's serial gate, so
/// that an action sent while another is being reduced waits its turn (FIFO).
public final class ActionSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable {
    private let lock = Lock()
    /// The subscribers, in order (read by tests through `@testable`, as ReactorKit's are).
    private(set) var observers = ObserverList<Element>()
    /// Set by a reactor's storage: receives each action instead of delivering it at once.
    var gate: ((Element) -> Void)?

    /// A subject with no subscribers.
    public override init() {}

    public func on(_ event: Event<Element>) {
        guard case .next(let element) = event else { return }
        if let gate {
            gate(element)
        } else {
            deliver(element)
        }
    }

    /// Passes `element` to the current subscribers, now.
    func deliver(_ element: Element) {
        lock.lock()
        let current = observers.entries
        lock.unlock()
        for entry in current { entry.observer.onNext(element) }
    }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable {
        let key = lock.withLock { observers.insert(observer) }
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.observers.remove(key) }
        }
    }
}
