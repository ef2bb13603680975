import ReactorCore
import Testing

/// Drives a reactor in a test the way TCA's `TestStore` drives a store: send an action, state
/// exactly what the state became; every emitted state must be checked, in order, or the test
/// fails — when the store is released, as TCA's does, or at `finish()`. A mismatch shows the
/// lines of the expected and actual state that differ.
///
/// ```swift
/// let store = TestStore(reactor)
/// store.send(.refresh(query)) { $0.query = query }
/// store.receive { $0.isLoading = true }
/// ```
public final class TestStore<R: Reactor> where R.State: Equatable {
    /// The reactor under test.
    public let reactor: R
    /// What the state should be after the last checked change.
    public private(set) var expected: R.State
    private var unchecked: [R.State] = []
    private var subscription: (any Disposable)?
    /// Where the store was made: where a state left unchecked at release is reported.
    private let origin: SourceLocation

    /// Starts recording `reactor`'s states; its current state is the first expected one.
    public init(_ reactor: R, sourceLocation: SourceLocation = #_sourceLocation) {
        self.reactor = reactor
        origin = sourceLocation
        expected = reactor.currentState
        subscription = reactor.state.skip(1).subscribe(onNext: { [unowned self] in self.unchecked.append($0) })
    }

    deinit {
        subscription?.dispose()
        if !unchecked.isEmpty {
            let text = "the store was released with \(unchecked.count) state(s) unchecked; the first:\n"
                + StateDiff.lines(expected: expected, actual: unchecked[0])
            Issue.record(Comment(rawValue: text), sourceLocation: origin)
        }
    }

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
                let text = "\(action) changed the state; say how:\n" + StateDiff.lines(expected: expected, actual: unchecked[0])
                Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
                unchecked.removeAll()
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

    /// Fails now, rather than at release, when a state was emitted and not checked.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        if !unchecked.isEmpty {
            let text = "\(unchecked.count) state(s) left unchecked; the first:\n" + StateDiff.lines(expected: expected, actual: unchecked[0])
            Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
            unchecked.removeAll()
        }
    }

    private func check(_ update: (inout R.State) -> Void, after cause: String, _ sourceLocation: SourceLocation) {
        guard !unchecked.isEmpty else {
            Issue.record("no new state after \(cause)", sourceLocation: sourceLocation)
            return
        }
        let actual = unchecked.removeFirst()
        update(&expected)
        if actual != expected {
            let text = "the state after \(cause) is not as expected (− expected, + actual):\n"
                + StateDiff.lines(expected: expected, actual: actual)
            Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
        }
        expected = actual
    }
}

/// The lines of two values' dumps that differ, `−` for the expected and `+` for the actual,
/// with a line of context on each side.
enum StateDiff {
    static func lines<Value>(expected: Value, actual: Value) -> String {
        var left = "", right = ""
        dump(expected, to: &left)
        dump(actual, to: &right)
        let old = left.split(separator: "\n", omittingEmptySubsequences: false)
        let new = right.split(separator: "\n", omittingEmptySubsequences: false)
        // Longest common subsequence over lines: dumps are short, so the quadratic table is fine.
        var table = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var marked: [(Character, Substring)] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                marked.append((" ", old[i]))
                i += 1
                j += 1
            } else if j < new.count && (i == old.count || table[i][j + 1] >= table[i + 1][j]) {
                marked.append(("+", new[j]))
                j += 1
            } else {
                marked.append(("−", old[i]))
                i += 1
            }
        }
        let changed = Set(marked.indices.filter { marked[$0].0 != " " })
        let shown = marked.indices.filter { index in changed.contains(index) || changed.contains(index - 1) || changed.contains(index + 1) }
        return shown.map { "\(marked[$0].0) \(marked[$0].1)" }.joined(separator: "\n")
    }
}
