/// Both an observer and an observable: what it is sent, it passes to its current subscribers.
/// A subscriber that comes after the end gets the terminal event.
public final class PublishSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable {
    private let subscribers = SubjectObservers<Element>()

    /// A subject with no subscribers.
    public override init() {}

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { !subscribers.isEmpty }

    public func on(_ event: Event<Element>) { subscribers.send(event) }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable { subscribers.add(observer) }

    /// This subject as an observer.
    public func asObserver() -> AnyObserver<Element> { AnyObserver { self.on($0) } }
}
