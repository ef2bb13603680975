import ReactorCore
import _ReactorTesting
import Testing

/// A counter, to try the test store on.
private final class Tally: Reactor {
    enum Action { case add(Int), addTwice(Int) }
    struct State: Equatable {
        var total = 0
        var label = ""
    }
    let initialState = State()
    let reactorStorage = Storage()

    func mutate(action: Action) -> Observable<Action> {
        switch action {
        case .add: return .just(action)
        case .addTwice(let value): return .concat(.just(.add(value)), .just(.add(value)))
        }
    }

    func reduce(state: State, mutation: Action) -> State {
        var state = state
        if case .add(let value) = mutation {
            state.total += value
            state.label = "total \(state.total)"
        }
        return state
    }
}

@Suite("TestStore")
struct TestStoreTests {
    @Test func aCheckedRunPasses() {
        let store = TestStore(Tally())
        store.send(.addTwice(2)) {
            $0.total = 2
            $0.label = "total 2"
        }
        store.receive {
            $0.total = 4
            $0.label = "total 4"
        }
    }

    @Test func aStateLeftUncheckedFailsWhenTheStoreIsReleasedEvenWithoutFinish() {
        withKnownIssue {
            let store = TestStore(Tally())
            store.send(.addTwice(1)) {
                $0.total = 1
                $0.label = "total 1"
            }
            // The second state is never received, and finish() is never called.
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("released with 1 state(s) unchecked") }
        }
    }

    @Test func aWrongExpectationShowsTheDifferingLines() {
        withKnownIssue {
            let store = TestStore(Tally())
            store.send(.add(3)) {
                $0.total = 3
                $0.label = "total three"
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("− ") && text.contains("label: \"total three\"") && text.contains("+ ") && text.contains("label: \"total 3\"")
                && !text.contains("total: 3\n  −")
        }
    }
}
