import Dispatch

/// Waiting for a sequence's elements on the calling thread (RxBlocking's `toBlocking()`): for
/// tools, benchmarks and tests that call an observable API from straight-line code.
public struct BlockingObservable<Element> {
    let source: Observable<Element>

    /// Every element, once the sequence completes; rethrows its failure.
    public func toArray() throws -> [Element] {
        let done = DispatchSemaphore(value: 0)
        let lock = Lock()
        var elements: [Element] = []
        var failure: (any Error)?
        var finished = false
        let subscription = source.subscribe { event in
            switch event {
            case .next(let element): lock.withLock { elements.append(element) }
            case .error(let error): lock.withLock { failure = error; finished = true }; done.signal()
            case .completed: lock.withLock { finished = true }; done.signal()
            }
        }
        if !lock.withLock({ finished }) { done.wait() }
        subscription.dispose()
        if let failure { throw failure }
        return elements
    }

    /// The one element of a sequence that has exactly one; throws `BlockingError` otherwise.
    public func single() throws -> Element {
        let elements = try toArray()
        guard elements.count == 1, let element = elements.first else { throw BlockingError.notOneElement(elements.count) }
        return element
    }
}

/// A sequence did not have the number of elements asked for.
public enum BlockingError: Error, Equatable {
    case notOneElement(Int)
}

extension Observable {
    /// This sequence, waited for on the calling thread.
    public func toBlocking() -> BlockingObservable<Element> { BlockingObservable(source: self) }
}
