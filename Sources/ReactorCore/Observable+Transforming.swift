// MARK: - Transforming and filtering elements

extension Observable {
    /// Each element transformed; a thrown error ends the sequence with it.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        forEachElement { element, send in send(try transform(element)) }
    }

    /// Each element transformed, with the `nil` results left out.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        forEachElement { element, send in
            if let result = try transform(element) { send(result) }
        }
    }

    /// The elements for which `predicate` holds.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        forEachElement { element, send in
            if try predicate(element) { send(element) }
        }
    }

    /// The operator that hands each element to `handle` with a way to send results on, and
    /// passes the end on: what `map`, `filter`, `scan` and `distinctUntilChanged` are made of.
    /// A thrown error ends the sequence with it and stops the source.
    func forEachElement<Result>(
        _ handle: @escaping (Element, (Result) -> Void) throws -> Void
    ) -> Observable<Result> {
        Producer { observer in
            let upstream = SingleAssignmentDisposable()
            var stopped = false
            upstream.setDisposable(self.run(AnyObserver { event in
                if stopped { return }
                switch event {
                case .next(let element):
                    do {
                        try handle(element, observer.onNext)
                    } catch {
                        stopped = true
                        observer.onError(error)
                        upstream.dispose()
                    }
                case .error(let error):
                    observer.onError(error)
                    upstream.dispose()
                case .completed:
                    observer.onCompleted()
                    upstream.dispose()
                }
            }))
            return upstream
        }
    }

    /// Runs side effects for each event, then passes it on.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        Producer { observer in
            onSubscribe?()
            let upstream = SingleAssignmentDisposable()
            upstream.setDisposable(self.run(AnyObserver { event in
                switch event {
                case .next(let element):
                    do {
                        try onNext?(element)
                        observer.on(event)
                    } catch {
                        observer.onError(error)
                        upstream.dispose()
                    }
                case .error(let error):
                    onError?(error)
                    observer.on(event)
                    upstream.dispose()
                case .completed:
                    onCompleted?()
                    observer.on(event)
                    upstream.dispose()
                }
            }))
            guard let onDispose else { return upstream }
            return Disposables.create {
                upstream.dispose()
                onDispose()
            }
        }
    }

    /// Every intermediate result of folding the elements into `seed` with `accumulator`.
    public func scan<Accumulate>(
        _ seed: Accumulate,
        accumulator: @escaping (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        scan(into: seed) { accumulate, element in
            accumulate = try accumulator(accumulate, element)
        }
    }

    /// Every intermediate result of folding the elements into `seed` in place.
    public func scan<Accumulate>(
        into seed: Accumulate,
        accumulator: @escaping (inout Accumulate, Element) throws -> Void
    ) -> Observable<Accumulate> {
        Observable<Accumulate>.deferred {
            var accumulate = seed
            return self.forEachElement { element, send in
                try accumulator(&accumulate, element)
                send(accumulate)
            }
        }
    }

    /// `elements` first, then the elements of this sequence.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        Producer { observer in
            for element in elements { observer.onNext(element) }
            return self.run(observer)
        }
    }

    /// The elements that differ from the one before, as `comparer` judges.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) throws -> Bool
    ) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: comparer)
    }

    /// The elements whose `key` differs from the key of the element before, as `comparer` judges.
    public func distinctUntilChanged<Key>(
        _ key: @escaping (Element) throws -> Key,
        comparer: @escaping (Key, Key) throws -> Bool
    ) -> Observable<Element> {
        Observable.deferred {
            var last: Key?
            return self.forEachElement { element, send in
                let current = try key(element)
                if let previous = last, try comparer(previous, current) { return }
                last = current
                send(element)
            }
        }
    }

    /// The elements whose `key` differs from the key of the element before.
    public func distinctUntilChanged<Key: Equatable>(_ key: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged(key, comparer: ==)
    }

    /// The elements whose value at `keyPath` differs from that of the element before.
    public func distinctUntilChanged<Key: Equatable>(_ keyPath: KeyPath<Element, Key>) -> Observable<Element> {
        distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: ==)
    }

    /// The first `count` elements, then completion.
    public func take(_ count: Int) -> Observable<Element> {
        if count <= 0 { return .empty() }
        return Producer { observer in
            var remaining = count
            let upstream = SingleAssignmentDisposable()
            upstream.setDisposable(self.run(AnyObserver { event in
                if remaining == 0 { return }
                switch event {
                case .next:
                    remaining -= 1
                    observer.on(event)
                    if remaining == 0 {
                        observer.onCompleted()
                        upstream.dispose()
                    }
                case .error, .completed:
                    remaining = 0
                    observer.on(event)
                    upstream.dispose()
                }
            }))
            return upstream
        }
    }

    /// The elements after the first `count`.
    public func skip(_ count: Int) -> Observable<Element> {
        if count <= 0 { return self }
        return Producer { observer in
            var remaining = count
            return self.run(AnyObserver { event in
                if case .next = event, remaining > 0 {
                    remaining -= 1
                    return
                }
                observer.on(event)
            })
        }
    }

    /// The elements until `other` emits an element (or fails), then completion.
    public func take<Other>(until other: Observable<Other>) -> Observable<Element> {
        Producer { observer in
            let lock = Lock()
            var stopped = false
            let trigger = SingleAssignmentDisposable()
            let upstream = SingleAssignmentDisposable()
            // Returns whether the caller may forward: only the first terminal passes.
            func stop() -> Bool {
                lock.withLock {
                    if stopped { return false }
                    stopped = true
                    return true
                }
            }
            trigger.setDisposable(other.run(AnyObserver { event in
                switch event {
                case .next:
                    if stop() {
                        observer.onCompleted()
                        upstream.dispose()
                        trigger.dispose()
                    }
                case .error(let error):
                    if stop() {
                        observer.onError(error)
                        upstream.dispose()
                    }
                case .completed:
                    break
                }
            }))
            if lock.withLock({ stopped }) { return trigger }
            upstream.setDisposable(self.run(AnyObserver { event in
                switch event {
                case .next:
                    if lock.withLock({ !stopped }) { observer.on(event) }
                case .error, .completed:
                    if stop() {
                        observer.on(event)
                        trigger.dispose()
                    }
                }
            }))
            return Disposables.create(trigger, upstream)
        }
    }

    /// On failure, goes on with the sequence `handler` makes from the error.
    public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Element>) -> Observable<Element> {
        Producer { observer in
            // Two holders: a source that fails during its own subscribe must not have its
            // (late) disposable replace the fallback's.
            let upstream = SingleAssignmentDisposable()
            let fallback = SingleAssignmentDisposable()
            upstream.setDisposable(self.run(AnyObserver { event in
                switch event {
                case .next:
                    observer.on(event)
                case .completed:
                    observer.on(event)
                    upstream.dispose()
                case .error(let error):
                    upstream.dispose()
                    do {
                        fallback.setDisposable(try handler(error).run(observer))
                    } catch {
                        observer.onError(error)
                    }
                }
            }))
            return Disposables.create(upstream, fallback)
        }
    }

    /// On failure, `element`, then completion.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        self.catch { _ in .just(element) }
    }
}

extension Observable where Element: Equatable {
    /// The elements that differ from the one before.
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: ==)
    }
}
