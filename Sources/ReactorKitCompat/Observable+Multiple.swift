// MARK: - Combining the latest elements of several sequences

extension Observable {
    /// Whenever either sequence emits, once both have: `resultSelector` of the latest of each.
    /// Completes when both have completed (or one completed before emitting anything).
    public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType>(
        _ a: A, _ b: B, resultSelector: @escaping (A.Element, B.Element) throws -> Element
    ) -> Observable<Element> {
        pairing(a, b) { CombineLatestSink($0, resultSelector) }
    }

    /// `combineLatest` of three sequences.
    public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C, resultSelector: @escaping (A.Element, B.Element, C.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatest(Observable<(A.Element, B.Element)>.combineLatest(a, b) { ($0, $1) }, c) { try resultSelector($0.0, $0.1, $1) }
    }

    /// `combineLatest` of four sequences.
    public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType,
                                     D: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C, _ d: D, resultSelector: @escaping (A.Element, B.Element, C.Element, D.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatest(Observable<(A.Element, B.Element, C.Element)>.combineLatest(a, b, c) { ($0, $1, $2) }, d) {
            try resultSelector($0.0, $0.1, $0.2, $1)
        }
    }

    /// `combineLatest` of any number of sequences of one type: the latest of each, in order.
    public static func combineLatest<Source: ObservableConvertibleType>(
        _ sources: [Source], resultSelector: @escaping ([Source.Element]) throws -> Element
    ) -> Observable<Element> {
        let all = sources.map { $0.asObservable() }
        if all.isEmpty { return .empty() }
        return Producer { observer in
            CombineAllSink(observer, count: all.count, resultSelector).run(all)
        }
    }

    /// `zip`: the first elements of each, then the second of each, …; completes when one has
    /// completed and its elements are used up.
    public static func zip<A: ObservableConvertibleType, B: ObservableConvertibleType>(
        _ a: A, _ b: B, resultSelector: @escaping (A.Element, B.Element) throws -> Element
    ) -> Observable<Element> {
        pairing(a, b) { ZipSink($0, resultSelector) }
    }

    /// Two sequences run by the sink `makeSink` makes for each subscriber.
    private static func pairing<A: ObservableConvertibleType, B: ObservableConvertibleType, Sink: PairSink<A.Element, B.Element, Element>>(
        _ a: A, _ b: B, _ makeSink: @escaping (AnyObserver<Element>) -> Sink
    ) -> Observable<Element> {
        let first = a.asObservable(), second = b.asObservable()
        return Producer { observer in makeSink(observer).run(first, second) }
    }

    /// `zip` of three sequences.
    public static func zip<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C, resultSelector: @escaping (A.Element, B.Element, C.Element) throws -> Element
    ) -> Observable<Element> {
        zip(Observable<(A.Element, B.Element)>.zip(a, b) { ($0, $1) }, c) { try resultSelector($0.0, $0.1, $1) }
    }

    /// For each element, `resultSelector` of it and the latest element of `second` (elements
    /// before `second`'s first are dropped). Completes with this sequence.
    public func withLatestFrom<Second: ObservableConvertibleType, Result>(
        _ second: Second, resultSelector: @escaping (Element, Second.Element) throws -> Result
    ) -> Observable<Result> {
        let other = second.asObservable()
        return Producer { observer in
            let lock = Lock()
            var latest: Second.Element?
            var stopped = false
            let otherSubscription = other.run(AnyObserver { event in
                switch event {
                case .next(let element): lock.withLock { latest = element }
                case .error(let error):
                    if lock.withLock({ () -> Bool in defer { stopped = true }; return !stopped }) { observer.onError(error) }
                case .completed: break
                }
            })
            let subscription = self.run(AnyObserver { event in
                switch event {
                case .next(let element):
                    guard let (current, live) = lock.withLock({ () -> (Second.Element?, Bool)? in (latest, !stopped) }),
                          live, let current else { return }
                    do {
                        observer.onNext(try resultSelector(element, current))
                    } catch {
                        lock.withLock { stopped = true }
                        observer.onError(error)
                    }
                case .error, .completed:
                    if lock.withLock({ () -> Bool in defer { stopped = true }; return !stopped }) { observer.on(event.mapError()) }
                }
            })
            return Disposables.create(otherSubscription, subscription)
        }
    }

    /// Each element with the latest element of `second`.
    public func withLatestFrom<Second: ObservableConvertibleType>(_ second: Second) -> Observable<Second.Element> {
        withLatestFrom(second) { $1 }
    }
}

extension Observable {
    /// `combineLatest` as a tuple.
    public static func combineLatest<A, B>(_ a: Observable<A>, _ b: Observable<B>) -> Observable<(A, B)> where Element == (A, B) {
        combineLatest(a, b) { ($0, $1) }
    }

    /// `combineLatest` of three, as a tuple.
    public static func combineLatest<A, B, C>(_ a: Observable<A>, _ b: Observable<B>, _ c: Observable<C>) -> Observable<(A, B, C)>
    where Element == (A, B, C) {
        combineLatest(a, b, c) { ($0, $1, $2) }
    }

    /// `zip` as a tuple.
    public static func zip<A, B>(_ a: Observable<A>, _ b: Observable<B>) -> Observable<(A, B)> where Element == (A, B) {
        zip(a, b) { ($0, $1) }
    }

    /// `combineLatest` of sequences of one type, as an array.
    public static func combineLatest<Inner>(_ sources: [Observable<Inner>]) -> Observable<[Inner]> where Element == [Inner] {
        combineLatest(sources) { $0 }
    }
}

// MARK: - Sinks

/// A sink over two sequences of different types: the core's `StoppingSink` (stops once, holds
/// the subscriptions and the lock) with a selector. Composition, not a subclass: the core's
/// sinks are closed to other modules.
private class PairSink<A, B, Element>: @unchecked Sendable {
    let sink: StoppingSink<Element>
    let selector: (A, B) throws -> Element

    init(_ downstream: AnyObserver<Element>, _ selector: @escaping (A, B) throws -> Element) {
        self.selector = selector
        sink = StoppingSink.make(downstream)
    }

    var lock: Lock { sink.lock }
    var stopped: Bool { sink.stopped }
    var subscriptions: CompositeDisposable { sink.subscriptions }
    func forward(_ event: Event<Element>) { sink.forward(event) }
    func emit(_ make: () throws -> Element) { sink.emit(make) }

    /// Subscribes to both; returns what stops it all.
    func run(_ first: Observable<A>, _ second: Observable<B>) -> any Disposable { subscriptions }
}

private final class CombineLatestSink<A, B, Element>: PairSink<A, B, Element>, @unchecked Sendable {
    private var a: A?
    private var b: B?
    private var done = (false, false)

    override func run(_ first: Observable<A>, _ second: Observable<B>) -> any Disposable {
        subscriptions.insert(first.run(AnyObserver { [self] event in
            receive(event.map { .left($0) }, left: true)
        }))
        subscriptions.insert(second.run(AnyObserver { [self] event in
            receive(event.map { .right($0) }, left: false)
        }))
        return subscriptions
    }

    private enum Side { case left(A), right(B) }

    private func receive(_ event: Event<Side>, left: Bool) {
        switch event {
        case .next(let side):
            let pair = lock.withLock { () -> (A, B)? in
                switch side {
                case .left(let value): a = value
                case .right(let value): b = value
                }
                guard !stopped, let a, let b else { return nil }
                return (a, b)
            }
            if let (a, b) = pair { emit { try selector(a, b) } }
        case .error(let error):
            forward(.error(error))
        case .completed:
            let finished = lock.withLock { () -> Bool in
                if left { done.0 = true } else { done.1 = true }
                let emptyEnded = left ? a == nil : b == nil
                return (done.0 && done.1) || emptyEnded
            }
            if finished { forward(.completed) }
        }
    }
}

private final class CombineAllSink<Inner, Element>: @unchecked Sendable {
    private let sink: StoppingSink<Element>
    private let selector: ([Inner]) throws -> Element
    private var latest: [Inner?]
    private var completed: [Bool]

    init(_ downstream: AnyObserver<Element>, count: Int, _ selector: @escaping ([Inner]) throws -> Element) {
        self.selector = selector
        latest = Array(repeating: nil, count: count)
        completed = Array(repeating: false, count: count)
        sink = StoppingSink.make(downstream)
    }

    private var lock: Lock { sink.lock }
    private var stopped: Bool { sink.stopped }
    private var subscriptions: CompositeDisposable { sink.subscriptions }
    private func forward(_ event: Event<Element>) { sink.forward(event) }
    private func emit(_ make: () throws -> Element) { sink.emit(make) }

    func run(_ sources: [Observable<Inner>]) -> any Disposable {
        for (index, source) in sources.enumerated() {
            subscriptions.insert(source.run(AnyObserver { [self] event in receive(event, at: index) }))
        }
        return subscriptions
    }

    private func receive(_ event: Event<Inner>, at index: Int) {
        switch event {
        case .next(let value):
            let all = lock.withLock { () -> [Inner]? in
                latest[index] = value
                let values = latest.compactMap { $0 }
                return !stopped && values.count == latest.count ? values : nil
            }
            if let all { emit { try selector(all) } }
        case .error(let error):
            forward(.error(error))
        case .completed:
            let finished = lock.withLock { () -> Bool in
                completed[index] = true
                return latest[index] == nil || !completed.contains(false)
            }
            if finished { forward(.completed) }
        }
    }
}

private final class ZipSink<A, B, Element>: PairSink<A, B, Element>, @unchecked Sendable {
    private var queueA: [A] = []
    private var queueB: [B] = []
    private var done = (false, false)

    override func run(_ first: Observable<A>, _ second: Observable<B>) -> any Disposable {
        subscriptions.insert(first.run(AnyObserver { [self] event in
            switch event {
            case .next(let value): lock.withLock { queueA.append(value) }; pump()
            case .error(let error): forward(.error(error))
            case .completed: lock.withLock { done.0 = true }; pump()
            }
        }))
        subscriptions.insert(second.run(AnyObserver { [self] event in
            switch event {
            case .next(let value): lock.withLock { queueB.append(value) }; pump()
            case .error(let error): forward(.error(error))
            case .completed: lock.withLock { done.1 = true }; pump()
            }
        }))
        return subscriptions
    }

    /// Emits every complete pair; completes once a finished side has nothing left to pair.
    private func pump() {
        while true {
            let next = lock.withLock { () -> (pair: (A, B)?, finished: Bool) in
                if !queueA.isEmpty && !queueB.isEmpty { return ((queueA.removeFirst(), queueB.removeFirst()), false) }
                return (nil, (done.0 && queueA.isEmpty) || (done.1 && queueB.isEmpty))
            }
            if let (a, b) = next.pair {
                emit { try selector(a, b) }
                continue
            }
            if next.finished { forward(.completed) }
            return
        }
    }
}

extension Event {
    /// The event with its element transformed.
    func map<Other>(_ transform: (Element) -> Other) -> Event<Other> {
        switch self {
        case .next(let element): return .next(transform(element))
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}
