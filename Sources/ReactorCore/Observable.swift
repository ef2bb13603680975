/// A push-based sequence of values over time, as in RxSwift.
///
/// Nothing happens until something subscribes; each subscription runs the sequence anew
/// (use `share(replay:)` to share one run). Operators live in `Observable+*.swift`.
/// The base class itself is the empty sequence. Operators are `Producer`s: closures made in
/// the caller's specialized context, so that no event passes through unspecialized generic
/// code (which would look up type metadata on every event).
public class Observable<Element> {
    init() {}

    /// Starts one run of the sequence, sending its events to `observer`.
    ///
    /// Operators override this. The base class is `empty`: it completes at once.
    package func run(_ observer: AnyObserver<Element>) -> any Disposable {
        observer.onCompleted()
        return NopDisposable.instance
    }

}

// Subscribing lives in an extension: extension methods are dispatched statically, so the
// compiler specializes them (and the closures they make) for the caller's element type.
extension Observable {
    /// This sequence, typed as a plain `Observable` (subjects and relays are subclasses).
    public func asObservable() -> Observable<Element> { self }

    /// Subscribes an observer to the sequence.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        run(observer.asObserver())
    }

    /// Subscribes an event handler to the sequence.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> any Disposable {
        run(AnyObserver(on))
    }

    /// Subscribes handlers for each kind of event; `onDisposed` runs once, when the
    /// subscription ends by disposal or by a terminal event.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        let finished = onDisposed.map { Disposables.create(with: $0) }
        var stopped = false
        let subscription = run(AnyObserver { event in
            if stopped { return }
            switch event {
            case .next(let element):
                onNext?(element)
            case .error(let error):
                stopped = true
                onError?(error)
                finished?.dispose()
            case .completed:
                stopped = true
                onCompleted?()
                finished?.dispose()
            }
        })
        guard let finished else { return subscription }
        return Disposables.create {
            subscription.dispose()
            finished.dispose()
        }
    }
}

/// An observable whose run is a closure: how the operators are built.
///
/// Unlike `create`, it does not police the event grammar; the operators keep it themselves.
package final class Producer<Element>: Observable<Element> {
    private let body: (AnyObserver<Element>) -> any Disposable

    package init(_ body: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.body = body
    }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable {
        body(observer)
    }
}
