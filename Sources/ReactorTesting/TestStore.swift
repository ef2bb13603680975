import ReactorCore
import Testing

/// Drives a reactor in a test the way TCA's `TestStore` drives a store: send an action, state
/// exactly what the state became; every emitted state must be checked, in order, or the test
/// fails. `finish()` fails when states are left unchecked.
///
/// ```swift
/// let store = TestStore(reactor)
/// store.send(.refresh(query)) { $0.query = query }
/// store.receive { $0.isLoading = true }
/// store.finish()
/// ```
public final class TestStore<R: Reactor> where R.State: Equatable {
    /// The reactor under test.
    public let reactor: R
    /// What the state should be after the last checked change.
    public private(set) var expected: R.State
    private var unchecked: [R.State] = []
    private var subscription: (any Disposable)?

    /// Starts recording `reactor`'s states; its current state is the first expected one.
    public init(_ reactor: R) {
        self.reactor = reactor
        expected = reactor.currentState
        subscription = reactor.state.skip(1).subscribe(onNext: { [unowned self] in self.unchecked.append($0) })
    }

    deinit { subscription?.dispose() }

    /// Sends `action`; `update` turns the expected state into the first state it causes.
    /// An action that changes nothing passes no `update`.
    public func send(
        _ action: R.Action,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ update: ((inout R.State) -> Void)? = nil
    ) {
        if !unchecked.isEmpty {
            Issue.record("\(unchecked.count) state(s) left unchecked before sending \(action)", sourceLocation: sourceLocation)
            unchecked.removeAll()
        }
        reactor.action.onNext(action)
        guard let update else {
            if !unchecked.isEmpty {
                Issue.record("\(action) changed the state; say how", sourceLocation: sourceLocation)
            }
            return
        }
        check(update, after: "\(action)", sourceLocation)
    }

    /// Checks the next state not yet checked (from a later mutation of the same action, or from
    /// an event).
    public func receive(sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout R.State) -> Void) {
        check(update, after: "the last check", sourceLocation)
    }

    /// Fails when a state was emitted and not checked.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        if !unchecked.isEmpty {
            Issue.record("\(unchecked.count) state(s) left unchecked: \(unchecked)", sourceLocation: sourceLocation)
        }
    }

    private func check(_ update: (inout R.State) -> Void, after cause: String, _ sourceLocation: SourceLocation) {
        guard !unchecked.isEmpty else {
            Issue.record("no new state after \(cause)", sourceLocation: sourceLocation)
            return
        }
        let actual = unchecked.removeFirst()
        update(&expected)
        #expect(actual == expected, sourceLocation: sourceLocation)
        expected = actual
    }
}
