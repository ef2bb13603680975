// MARK: - Binding to observers

extension Observable {
    /// Sends every element to each of `observers`; the sequence's end is not passed on
    /// (a binding target, like a reactor's action, outlives its sources).
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element {
        subscribe(onNext: { element in
            for observer in observers { observer.onNext(element) }
        })
    }

    /// Sends every element to each of `relays`.
    public func bind(to relays: StateRelay<Element>...) -> any Disposable {
        subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Runs `onNext` for every element.
    public func bind(onNext: @escaping (Element) -> Void) -> any Disposable {
        subscribe(onNext: onNext)
    }
}
