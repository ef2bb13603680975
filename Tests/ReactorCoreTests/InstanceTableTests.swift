import Testing
@testable import ReactorCore
@testable import ReactorKitCompat

/// A reactor that declares no storage: its storage lives in `InstanceTable.reactors`.
private final class Undeclared: Reactor {
    typealias Action = Int
    struct State { var total = 0 }
    let initialState = State()
    func reduce(state: State, mutation: Int) -> State { State(total: state.total + mutation) }
}

/// A view that declares no `reactor`: the protocol's own keeps it in `InstanceTable.views`.
private final class UndeclaredView: View {
    var disposeBag = DisposeBag()
    var shown: [Int] = []
    func bind(reactor: Undeclared) {
        reactor.state.map(\.total).subscribe(onNext: { [unowned self] in shown.append($0) }).disposed(by: disposeBag)
    }
}

private final class WeakStorage {
    weak var storage: Undeclared.Storage?
    init(_ storage: Undeclared.Storage) { self.storage = storage }
}

@Suite("Storage found per instance")
struct InstanceTableTests {
    // The table is shared with every suite running at the same time, so nothing here counts
    // its entries: an entry holds its value strongly, so a value gone is an entry gone.
    @Test func aReactorWithoutDeclaredStorageIsFreedAndTakesItsEntryWithIt() {
        weak var reactor: Undeclared?
        weak var storage: Undeclared.Storage?
        do {
            let made = Undeclared()
            reactor = made
            #expect(InstanceTable.reactors.existingValue(for: made) == nil, "no entry before it is asked for")
            made.action.onNext(2)
            made.action.onNext(3)
            #expect(made.currentState.total == 5)
            storage = made.reactorStorage
            #expect(made.reactorStorage === storage, "one storage per reactor")
            #expect(InstanceTable.reactors.existingValue(for: made) === storage, "kept in the table")
        }
        #expect(reactor == nil)
        #expect(storage == nil, "the storage (and so its entry) went with its reactor, not at some later sweep")
    }

    @Test func tenThousandReactorsMadeAndDroppedLeaveNothingBehind() {
        var storages: [WeakStorage] = []
        storages.reserveCapacity(10_000)
        for index in 0..<10_000 {
            let reactor = Undeclared()
            reactor.action.onNext(index)
            _ = reactor.state.subscribe()
            storages.append(WeakStorage(reactor.reactorStorage))
        }
        #expect(storages.count == 10_000)
        #expect(storages.filter { $0.storage != nil }.count == 0, "every entry went with its reactor")
    }

    @Test func aStubIsKeptPerReactorInItsStorage() {
        let reactor = Undeclared()
        reactor.isStubEnabled = true
        reactor.action.onNext(4)
        reactor.action.onNext(5)
        #expect(reactor.stub.actions == [4, 5])
        reactor.stub.state.value = Undeclared.State(total: 9)
        #expect(reactor.currentState.total == 9)
    }

    @Test func aViewWithoutDeclaredReactorBindsOnEachAssignmentAndReleasesItsReactorWithItself() {
        weak var weakReactor: Undeclared?
        weak var weakView: UndeclaredView?
        do {
            let view = UndeclaredView()
            weakView = view
            let first = Undeclared()
            view.reactor = first
            first.action.onNext(1)
            #expect(view.shown == [0, 1])
            #expect(view.reactor === first)
            let second = Undeclared()
            weakReactor = second
            view.reactor = second
            first.action.onNext(1)
            #expect(view.shown == [0, 1, 0], "the first reactor's bindings went with the old bag")
            #expect(InstanceTable.views.existingValue(for: view) === second, "kept in the table")
        }
        #expect(weakView == nil)
        #expect(weakReactor == nil, "the table's reference to the reactor went with the view")
    }

    @Test func aReusedAddressNeverFindsTheOldEntry() {
        var totals: [Int] = []
        for _ in 0..<1000 {
            let reactor = Undeclared()
            totals.append(reactor.currentState.total)
            reactor.action.onNext(1)
        }
        #expect(totals.allSatisfy { $0 == 0 }, "every new reactor starts from its initial state")
    }
}
