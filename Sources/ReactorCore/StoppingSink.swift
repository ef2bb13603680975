/// Stops once: the first terminal event (or failure of the selector) passes, nothing after.
class StoppingSink<Element>: Disposable, @unchecked Sendable {
    let downstream: AnyObserver<Element>
    let lock = Lock()
    var stopped = false
    let subscriptions = CompositeDisposable()

    init(_ downstream: AnyObserver<Element>) { self.downstream = downstream }

    /// Sends `event` unless stopped; a terminal event stops the sink and its subscriptions.
    func forward(_ event: Event<Element>) {
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
    func dispose() {
        lock.withLock { stopped = true }
        subscriptions.dispose()
    }

    /// Sends the selector's result, or its failure.
    func emit(_ make: () throws -> Element) {
        do { forward(.next(try make())) } catch { forward(.error(error)) }
    }
}
