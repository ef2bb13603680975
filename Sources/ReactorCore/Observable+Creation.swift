import Synchronization

// MARK: - Creating sequences

extension Observable {
    /// One element, then completion.
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element)
    }

    /// Completion, at once.
    public static func empty() -> Observable<Element> {
        Observable<Element>()
    }

    /// Nothing, ever.
    public static func never() -> Observable<Element> {
        NeverObservable()
    }

    /// The failure `error`, at once.
    public static func error(_ error: any Error) -> Observable<Element> {
        Producer { observer in
            observer.onError(error)
            return NopDisposable.instance
        }
    }

    /// The elements of `sequence`, in order, then completion — all synchronously.
    public static func from<S: Sequence>(_ sequence: S) -> Observable<Element> where S.Element == Element {
        Producer { observer in
            for element in sequence { observer.onNext(element) }
            observer.onCompleted()
            return NopDisposable.instance
        }
    }

    /// The given elements, in order, then completion.
    public static func of(_ elements: Element...) -> Observable<Element> {
        from(elements)
    }

    /// A sequence whose run is `subscribe`: it sends events to the observer and returns what
    /// stops them. Events after a terminal event or after disposal are dropped, and the
    /// returned disposable is disposed once the sequence ends.
    public static func create(
        _ subscribe: @escaping (AnyObserver<Element>) -> any Disposable
    ) -> Observable<Element> {
        Producer { observer in
            let sink = AnonymousSink(observer)
            sink.resource.setDisposable(subscribe(AnyObserver(sink.on)))
            return sink
        }
    }

    /// A sequence made anew by `factory` for each subscriber; a thrown error becomes `error`.
    public static func deferred(
        _ factory: @escaping () throws -> Observable<Element>
    ) -> Observable<Element> {
        Producer { observer in
            do {
                return try factory().run(observer)
            } catch {
                observer.onError(error)
                return NopDisposable.instance
            }
        }
    }
}

/// `just`: a class of its own so that the reactor and `concat` can recognise it and pass its
/// element on without subscribing.
final class Just<Element>: Observable<Element> {
    let element: Element

    init(_ element: Element) { self.element = element }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable {
        observer.onNext(element)
        observer.onCompleted()
        return NopDisposable.instance
    }
}

final class NeverObservable<Element>: Observable<Element> {
    override package func run(_ observer: AnyObserver<Element>) -> any Disposable {
        NopDisposable.instance
    }
}

/// Keeps the grammar for `create`: nothing after a terminal event or after disposal, and the
/// user's resource disposed as soon as the sequence ends.
final class AnonymousSink<Element>: Disposable, @unchecked Sendable {
    private let downstream: AnyObserver<Element>
    let resource = SingleAssignmentDisposable()
    private let stopped = Atomic<Bool>(false)

    init(_ downstream: AnyObserver<Element>) { self.downstream = downstream }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if stopped.load(ordering: .acquiring) { return }
            downstream.on(event)
        case .error, .completed:
            if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
            downstream.on(event)
            resource.dispose()
        }
    }

    func dispose() {
        stopped.store(true, ordering: .releasing)
        resource.dispose()
    }
}
