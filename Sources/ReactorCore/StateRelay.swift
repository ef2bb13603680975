/// A value that can be read, set and observed, and that never ends: each new subscriber
/// gets the current value first. What `Stub` uses to set a reactor's state by hand.
public final class StateRelay<Element>: Observable<Element>, @unchecked Sendable {
    private let subject: BehaviorSubject<Element>
    private let lock = Lock()
    private var current: Element

    /// A relay holding `value`.
    public init(value: Element) {
        current = value
        subject = BehaviorSubject(value: value)
    }

    /// The current value; setting it emits the new value.
    public var value: Element {
        get { lock.withLock { current } }
        set { accept(newValue) }
    }

    /// Sets and emits `value`.
    public func accept(_ value: Element) {
        lock.withLock { current = value }
        subject.onNext(value)
    }

    override func run(_ observer: AnyObserver<Element>) -> any Disposable {
        subject.run(observer)
    }
}
