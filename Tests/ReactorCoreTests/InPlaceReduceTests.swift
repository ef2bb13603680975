import Testing
@testable import ReactorCore
import ReactorKitCompat

/// A list of 10,000 items toggled one at a time, as in the `list` benchmark.
final class ListReactor: Reactor {
    enum Action { case toggle(Int) }
    struct Item: Equatable {
        var id: Int
        var isDone = false
    }
    struct State {
        var items: [Item]
    }

    let initialState: State
    let reactorStorage = Storage()
    /// The items' buffer address as reduce received it and after the change, per reduction.
    var addresses: [(received: UInt, changed: UInt)] = []

    init(count: Int) {
        initialState = State(items: (0..<count).map { Item(id: $0) })
    }

    /// ReactorKit's body; `consuming` is what lets `var state = state` take the core's only
    /// copy instead of sharing it.
    func reduce(state: consuming State, mutation: Action) -> State {
        let received = state.items.bufferAddress
        var state = state
        switch mutation {
        case .toggle(let index): state.items[index].isDone.toggle()
        }
        addresses.append((received, state.items.bufferAddress))
        return state
    }
}

extension Array {
    var bufferAddress: UInt {
        withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }
}

@Suite("Reduce changes a large state in place")
struct InPlaceReduceTests {
    @Test func toggleWritesTheOneItemWithoutCopyingTheArray() {
        let reactor = ListReactor(count: 10_000)
        let counts = EventLog(reactor.state.map { $0.items.filter(\.isDone).count }.distinctUntilChanged())
        for index in [0, 5, 9_999, 5] { reactor.action.onNext(.toggle(index)) }
        #expect(counts.elements == [0, 1, 2, 3, 2])
        #expect(reactor.currentState.items[5].isDone == false)
        #expect(reactor.currentState.items[9_999].isDone)
        #expect(reactor.addresses.count == 4)
        // The first reduction copies once: the reactor's `initialState` shares the buffer.
        let first = reactor.addresses[0]
        #expect(first.received != first.changed)
        for (received, changed) in reactor.addresses.dropFirst() {
            #expect(received == changed, "reduce copied the items instead of changing one in place")
            #expect(changed == first.changed)
        }
    }
}
