/// Stops once: the first terminal event (or failure of the selector) passes, nothing after.
package class StoppingSink<Element>: Disposable, @unchecked Sendable {
    package let downstream: AnyObserver<Element>
    package let lock = Lock()
    package var stopped = false
    package let subscriptions = CompositeDisposable()

    init(_ downstream: AnyObserver<Element>) { self.downstream = downstream }

    /// A sink sending to `downstream`, for the operators of other modules of the package.
    package static func make(_ downstream: AnyObserver<Element>) -> StoppingSink<Element> { StoppingSink(downstream) }

    /// Sends `event` unless stopped; a terminal event stops the sink and its subscriptions.
    package func forward(_ event: Event<Element>) {
        let pass = lock.withLock { () -> Bool in
            if stopped { return false }
            if event.isStopEvent { stopped = true }
            return true
        }
        guard pass else { return }
        downstream.on(event)
        if event.isStopEvent { dispose() }
    }

    /// Stops the sink: its subscriptions go (a subclass adds what else it holds).
    public func dispose() {
        lock.withLock { stopped = true }
        subscriptions.dispose()
    }

    /// Sends the selector's result, or its failure.
    package func emit(_ make: () throws -> Element) {
        do { forward(.next(try make())) } catch { forward(.error(error)) }
    }
}
