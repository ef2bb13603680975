/// Receives the events of an `Observable`.
///
/// A value type around one closure: cheap to pass down an operator chain, and the closure is
/// the only allocation a subscription makes per operator.
public struct AnyObserver<Element> {
    @usableFromInline let handler: (Event<Element>) -> Void

    /// Makes an observer from an event handler.
    public init(_ handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
    }

    /// Delivers one event.
    @inlinable @inline(__always) public func on(_ event: Event<Element>) { handler(event) }
}

/// Anything that accepts events: subjects, relays, observers.
public protocol ObserverType {
    associatedtype Element
    /// Delivers one event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Delivers `.next(element)`.
    public func onNext(_ element: Element) { on(.next(element)) }
    /// Delivers `.error(error)`.
    public func onError(_ error: any Error) { on(.error(error)) }
    /// Delivers `.completed`.
    public func onCompleted() { on(.completed) }

    /// This observer as an `AnyObserver`.
    public func asObserver() -> AnyObserver<Element> { AnyObserver { self.on($0) } }
}

extension AnyObserver: ObserverType {
    /// Itself.
    public func asObserver() -> AnyObserver<Element> { self }
}
