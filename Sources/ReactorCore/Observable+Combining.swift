// MARK: - Combining sequences

extension Observable {
    /// The elements of each sequence in turn: the next is subscribed when the one before completes.
    public static func concat(_ sources: [Observable<Element>]) -> Observable<Element> {
        Concat(sources: sources) { observer in
            let sink = ConcatSink(sources: sources, downstream: observer)
            sink.subscribeNext()
            return sink
        }
    }

    /// The elements of each sequence in turn.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        concat(sources)
    }

    /// The elements of this sequence, then those of `other`.
    public func concat(_ other: Observable<Element>) -> Observable<Element> {
        .concat([self, other])
    }

    /// The elements of all the sequences as they come; completes when all have completed.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        Observable<Observable<Element>>.from(sources).merge()
    }

    /// The elements of all the sequences as they come.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        merge(sources)
    }

    /// For each element, the sequence `selector` makes of it, all merged.
    public func flatMap<Result>(
        _ selector: @escaping (Element) throws -> Observable<Result>
    ) -> Observable<Result> {
        Producer { observer in
            MergeSink(downstream: observer).run(self, selector: selector)
        }
    }

    /// For each element, the sequence `selector` makes of it; a new element drops the
    /// sequence made of the one before.
    public func flatMapLatest<Result>(
        _ selector: @escaping (Element) throws -> Observable<Result>
    ) -> Observable<Result> {
        Producer { observer in
            SwitchSink(downstream: observer).run(self, selector: selector)
        }
    }
}

extension Observable {
    /// The elements of the inner sequences as they come (for a sequence of sequences).
    public func merge<Inner>() -> Observable<Inner> where Element == Observable<Inner> {
        flatMap { $0 }
    }
}

/// `concat`, recognisable so that a reactor can pass on its leading `just`s without
/// subscribing. Its run is a closure made in the caller's specialized context.
final class Concat<Element>: Observable<Element> {
    let sources: [Observable<Element>]
    private let body: (AnyObserver<Element>) -> any Disposable

    init(sources: [Observable<Element>], body: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.sources = sources
        self.body = body
    }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable {
        body(observer)
    }
}

/// Subscribes the sources one after another; a loop, not recursion, so that many
/// synchronous sources do not grow the stack.
final class ConcatSink<Element>: Disposable, @unchecked Sendable {
    private let sources: [Observable<Element>]
    private let downstream: AnyObserver<Element>
    private let lock = Lock()
    private var index = 0
    private var looping = false
    private var nextRequested = false
    private var disposed = false
    private var current: (any Disposable)?

    init(sources: [Observable<Element>], downstream: AnyObserver<Element>) {
        self.sources = sources
        self.downstream = downstream
    }

    func subscribeNext() {
        lock.lock()
        if looping {
            nextRequested = true
            lock.unlock()
            return
        }
        looping = true
        while !disposed {
            nextRequested = false
            if index == sources.count {
                looping = false
                disposed = true
                current = nil
                lock.unlock()
                downstream.onCompleted()
                return
            }
            let source = sources[index]
            index += 1
            if let just = source as? Just<Element> {
                // A `just` needs no subscription: pass its element on and go to the next.
                lock.unlock()
                downstream.onNext(just.element)
                lock.lock()
                nextRequested = true
                continue
            }
            lock.unlock()
            let subscription = source.run(AnyObserver { [unowned self] event in
                switch event {
                case .next: self.downstream.on(event)
                case .error:
                    self.downstream.on(event)
                    self.dispose()
                case .completed: self.subscribeNext()
                }
            })
            lock.lock()
            if disposed {
                lock.unlock()
                subscription.dispose()
                return
            }
            current = subscription
            if !nextRequested { break }
        }
        looping = false
        lock.unlock()
    }

    func dispose() {
        let subscription = lock.withLock { () -> (any Disposable)? in
            disposed = true
            defer { current = nil }
            return current
        }
        subscription?.dispose()
    }
}

/// Merges inner sequences; an inner one that ends during its own subscribe is never stored.
final class MergeSink<Element>: StoppingSink<Element>, @unchecked Sendable {
    private var inners: [UInt64: any Disposable] = [:]
    private var nextKey: UInt64 = 0
    private var active = 0
    private var outerDone = false
    private let outer = SingleAssignmentDisposable()

    init(downstream: AnyObserver<Element>) { super.init(downstream) }

    func run<Source>(_ source: Observable<Source>, selector: @escaping (Source) throws -> Observable<Element>) -> any Disposable {
        outer.setDisposable(source.run(AnyObserver { [self] event in
            switch event {
            case .next(let element):
                do {
                    subscribeInner(try selector(element))
                } catch {
                    forward(.error(error))
                }
            case .error:
                forward(event.mapError())
            case .completed:
                let finished = lock.withLock { () -> Bool in
                    outerDone = true
                    return active == 0 && !stopped
                }
                if finished { forward(.completed) }
            }
        }))
        return self
    }

    private func subscribeInner(_ inner: Observable<Element>) {
        let key = lock.withLock { () -> UInt64? in
            if stopped { return nil }
            active += 1
            defer { nextKey += 1 }
            return nextKey
        }
        guard let key else { return }
        var ended = false
        let subscription = inner.run(AnyObserver { [self] event in
            switch event {
            case .next:
                if lock.withLock({ !stopped }) { downstream.on(event) }
            case .error:
                forward(event)
            case .completed:
                let finished = lock.withLock { () -> Bool in
                    ended = true
                    active -= 1
                    inners.removeValue(forKey: key)
                    return active == 0 && outerDone && !stopped
                }
                if finished { forward(.completed) }
            }
        })
        let disposeNow = lock.withLock { () -> Bool in
            if ended { return false }
            if stopped { return true }
            inners[key] = subscription
            return false
        }
        if disposeNow { subscription.dispose() }
    }

    override public func dispose() {
        let all = lock.withLock { () -> [any Disposable] in
            stopped = true
            defer { inners = [:] }
            return Array(inners.values)
        }
        outer.dispose()
        for inner in all { inner.dispose() }
    }
}

/// Keeps only the latest inner sequence; events of an older one are dropped.
final class SwitchSink<Element>: StoppingSink<Element>, @unchecked Sendable {
    private var generation: UInt64 = 0
    private var innerActive = false
    private var outerDone = false
    private let outer = SingleAssignmentDisposable()
    private let inner = SerialDisposable()

    init(downstream: AnyObserver<Element>) { super.init(downstream) }

    func run<Source>(_ source: Observable<Source>, selector: @escaping (Source) throws -> Observable<Element>) -> any Disposable {
        outer.setDisposable(source.run(AnyObserver { [self] event in
            switch event {
            case .next(let element):
                let next: Observable<Element>
                do {
                    next = try selector(element)
                } catch {
                    forward(.error(error))
                    return
                }
                let mine = lock.withLock { () -> UInt64 in
                    generation += 1
                    innerActive = true
                    return generation
                }
                // Dispose the old inner before the new one can emit.
                inner.setDisposable(NopDisposable.instance)
                inner.setDisposable(next.run(AnyObserver { [self] event in
                    let current = lock.withLock { generation == mine && !stopped }
                    guard current else { return }
                    switch event {
                    case .next:
                        downstream.on(event)
                    case .error:
                        forward(event)
                    case .completed:
                        let finished = lock.withLock { () -> Bool in
                            innerActive = false
                            return outerDone
                        }
                        if finished { forward(.completed) }
                    }
                }))
            case .error:
                forward(event.mapError())
            case .completed:
                let finished = lock.withLock { () -> Bool in
                    outerDone = true
                    return !innerActive
                }
                if finished { forward(.completed) }
            }
        }))
        return self
    }

    override public func dispose() {
        lock.withLock { stopped = true }
        outer.dispose()
        inner.dispose()
    }
}

extension Event {
    /// A terminal event retyped for another element type; `next` never reaches here.
    package func mapError<Other>() -> Event<Other> {
        switch self {
        case .error(let error): return .error(error)
        case .next, .completed: return .completed
        }
    }
}
