/// A value that can be read, set and observed, and that never ends: each new subscriber
/// gets the current value first. What `Stub` uses to set a reactor's state by hand
/// (ReactorKit's `StateRelay`: a `BehaviorRelay` whose value can also be set).
public final class StateRelay<Element>: Observable<Element>, @unchecked Sendable {
    private let relay: BehaviorRelay<Element>

    /// A relay holding `value`.
    public init(value: Element) { relay = BehaviorRelay(value: value) }

    /// The current value; setting it emits the new value, even when equal to the old one.
    public var value: Element {
        get { relay.value }
        set { relay.accept(newValue) }
    }

    /// Sets and emits `value`.
    public func accept(_ value: Element) { relay.accept(value) }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable { relay.run(observer) }
}
