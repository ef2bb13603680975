/// A subject that holds its latest element and gives it to each new subscriber first.
public final class BehaviorSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable {
    /// Reading `value()` from a subject that ended with a failure.
    public struct Failed: Error {
        /// The failure the subject ended with.
        public let underlying: any Error
    }

    private let subscribers = SubjectObservers<Element>()
    private let lock = Lock()
    private var latest: Element
    private var failure: (any Error)?

    /// A subject holding `value`.
    public init(value: Element) { latest = value }

    /// The latest element; throws when the subject ended with a failure.
    public func value() throws -> Element {
        try lock.withLock {
            if let failure { throw Failed(underlying: failure) }
            return latest
        }
    }

    public func on(_ event: Event<Element>) {
        subscribers.send(event) {
            lock.withLock {
                switch event {
                case .next(let element): latest = element
                case .error(let error): failure = error
                case .completed: break
                }
            }
        }
    }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable {
        subscribers.add(observer) { lock.withLock { latest } }
    }
}
