/// A subject that never ends and cannot fail: what it accepts, it passes to its current
/// subscribers (RxRelay's `PublishRelay`).
public final class PublishRelay<Element>: Observable<Element>, @unchecked Sendable {
    private let subject = PublishSubject<Element>()

    /// A relay with no subscribers.
    public override init() {}

    /// Passes `element` to the current subscribers.
    public func accept(_ element: Element) { subject.onNext(element) }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable { subject.run(observer) }
}

/// A value that can be read, set and observed, and that never ends: each new subscriber gets
/// the current value first (RxRelay's `BehaviorRelay`).
public final class BehaviorRelay<Element>: Observable<Element>, @unchecked Sendable {
    private let subject: BehaviorSubject<Element>
    private let lock = Lock()
    private var current: Element

    /// A relay holding `value`.
    public init(value: Element) {
        current = value
        subject = BehaviorSubject(value: value)
    }

    /// The current value.
    public var value: Element { lock.withLock { current } }

    /// Sets `element` as the value and passes it to the subscribers.
    public func accept(_ element: Element) {
        lock.withLock { current = element }
        subject.onNext(element)
    }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable { subject.run(observer) }
}

extension Observable {
    /// Sends every element to each of `relays`.
    public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
        subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
    }

    /// Sends every element to each of `relays`.
    public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
        subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
    }
}
