/// Anything that can be turned into an `Observable` (RxSwift's `ObservableConvertibleType`).
public protocol ObservableConvertibleType {
    associatedtype Element
    /// This, as an observable.
    func asObservable() -> Observable<Element>
}

/// A sequence one can subscribe to (RxSwift's `ObservableType`). `Observable` and its
/// subclasses — subjects, relays, test observables — are the ones in this module; the
/// operators live on `Observable` (so that they specialize), and generic code over
/// `ObservableType` reaches them through `asObservable()` or the forwarding below.
public protocol ObservableType: ObservableConvertibleType {
    /// Sends the sequence's events to `observer`.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Element
}

extension Observable: ObservableType {}

extension ObservableType {
    /// Each element transformed.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        asObservable().map(transform)
    }

    /// The elements for which `predicate` holds.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        asObservable().filter(predicate)
    }

    /// For each element, the sequence `selector` makes of it, all merged.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Observable<Result>) -> Observable<Result> {
        asObservable().flatMap(selector)
    }

    /// Subscribes handlers for each kind of event.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil, onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        asObservable().subscribe(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }
}
