import Testing
@testable import ReactorCore
import ReactorKitCompat

/// A reactor whose behaviour each test sets through closures.
final class ProbeReactor: Reactor {
    enum Action: Equatable { case add(Int), fail, send(Int), sendFromReduce(Int), noop }
    enum Mutation: Equatable { case add(Int), sendNext(Int) }
    struct State: Equatable {
        var total = 0
        var reductions = 0
        @Pulse var message: String? = nil
    }

    let initialState = State()
    let reactorStorage = Storage()
    var log: [String] = []
    var transformLog: [String] = []
    var mutateOverride: ((Action) -> Observable<Mutation>)?

    func mutate(action: Action) -> Observable<Mutation> {
        if let mutateOverride { return mutateOverride(action) }
        switch action {
        case .add(let value): return .just(.add(value))
        case .fail: return .concat(.just(.add(1000)), .error(TestError()), .just(.add(2000)))
        case .send(let value), .sendFromReduce(let value): return .just(.sendNext(value))
        case .noop: return .empty()
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        state.reductions += 1
        switch mutation {
        case .add(let value):
            log.append("enter \(value)")
            state.total += value
            log.append("exit \(value)")
        case .sendNext(let value):
            log.append("enter \(value)")
            if value < 3 { action.onNext(.sendFromReduce(value + 1)) }
            log.append("exit \(value)")
        }
        return state
    }
}

@Suite("Reactor semantics")
struct ReactorTests {
    @Test func currentStateIsTheInitialStateBeforeAnything() {
        let reactor = ProbeReactor()
        #expect(reactor.currentState == ProbeReactor.State())
    }

    @Test func currentStateHoldsTheReducedStateWhenOnNextReturns() {
        let reactor = ProbeReactor()
        reactor.action.onNext(.add(5))
        #expect(reactor.currentState == .init(total: 5, reductions: 1))
        reactor.action.onNext(.add(2))
        #expect(reactor.currentState == .init(total: 7, reductions: 2))
    }

    @Test func aLateSubscriberGetsExactlyTheCurrentState() {
        let reactor = ProbeReactor()
        reactor.action.onNext(.add(1))
        reactor.action.onNext(.add(2))
        let late = EventLog(reactor.state)
        #expect(late.elements == [.init(total: 3, reductions: 2)])
        reactor.action.onNext(.add(4))
        #expect(late.elements == [.init(total: 3, reductions: 2), .init(total: 7, reductions: 3)])
    }

    @Test func anErrorInOneMutateLeavesTheStreamServingTheNextAction() {
        let reactor = ProbeReactor()
        let log = EventLog(reactor.state)
        reactor.action.onNext(.fail)
        #expect(reactor.currentState.total == 1000, "mutations before the error are kept, none after")
        reactor.action.onNext(.add(1))
        #expect(reactor.currentState.total == 1001)
        #expect(log.elements.map(\.total) == [0, 1000, 1001])
        #expect(!log.isTerminated)
    }

    @Test func anActionSentFromReduceRunsAfterTheCurrentOne() {
        let reactor = ProbeReactor()
        reactor.action.onNext(.send(1))
        #expect(reactor.log == ["enter 1", "exit 1", "enter 2", "exit 2", "enter 3", "exit 3"])
        #expect(reactor.currentState.reductions == 3)
    }

    @Test func anActionSentFromAStateSubscriberRunsAfterTheCurrentOne() {
        let reactor = ProbeReactor()
        reactor.mutateOverride = { action in
            guard case .add(let value) = action else { return .empty() }
            return .concat(.just(.add(value)), .just(.add(value * 10)))
        }
        var order: [String] = []
        let subscription = reactor.state.skip(1).subscribe(onNext: { state in
            order.append("state \(state.total)")
            if state.total == 1 { reactor.action.onNext(.add(2)) }
        })
        reactor.action.onNext(.add(1))
        // A's two mutations (1, 10) both land before B's (2, 20).
        #expect(reactor.log == ["enter 1", "exit 1", "enter 10", "exit 10", "enter 2", "exit 2", "enter 20", "exit 20"])
        #expect(order == ["state 1", "state 11", "state 13", "state 33"])
        subscription.dispose()
    }

    @Test func theDefaultMutateOfAnActionThatIsItsOwnMutationIsJust() {
        final class Echo: Reactor {
            typealias Action = Int
            struct State: Equatable { var last = 0 }
            let initialState = State()
            let reactorStorage = Storage()
            func reduce(state: State, mutation: Int) -> State { State(last: mutation) }
        }
        let reactor = Echo()
        reactor.action.onNext(4)
        #expect(reactor.currentState.last == 4)
    }

    @Test func bindToActionDrivesTheReactor() {
        let reactor = ProbeReactor()
        let subscription = Observable.from([1, 2, 3]).map { ProbeReactor.Action.add($0) }.bind(to: reactor.action)
        #expect(reactor.currentState.total == 6)
        subscription.dispose()
    }
}

/// Records the order in which the three transforms and reduce see things.
final class TransformReactor: Reactor {
    enum Action { case tap }
    enum Mutation { case fromAction, fromOutside }
    struct State: Equatable {
        var events: [String] = []
        var shown = ""
    }

    let initialState = State()
    let reactorStorage = Storage()
    let outside = PublishSubject<Mutation>()
    var reducedStates: [State] = []

    func transform(action: Observable<Action>) -> Observable<Action> {
        action.do(onNext: { [unowned self] _ in self.log("transform(action:)") })
    }

    func mutate(action: Action) -> Observable<Mutation> {
        log("mutate")
        return .just(.fromAction)
    }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        Observable.merge(mutation, outside.asObservable())
            .do(onNext: { [unowned self] _ in self.log("transform(mutation:)") })
    }

    func reduce(state: State, mutation: Mutation) -> State {
        reducedStates.append(state)
        var state = state
        state.events.append("reduce \(mutation)")
        return state
    }

    func transform(state: Observable<State>) -> Observable<State> {
        state.map { state in
            var shown = state
            shown.shown = "transformed \(state.events.count)"
            return shown
        }
    }

    var order: [String] = []
    private func log(_ step: String) { order.append(step) }
}

@Suite("Reactor transforms")
struct ReactorTransformTests {
    @Test func theThreeTransformsApplyInOrder() {
        let reactor = TransformReactor()
        reactor.action.onNext(.tap)
        #expect(reactor.order == ["transform(action:)", "mutate", "transform(mutation:)"])
        #expect(reactor.currentState.events == ["reduce fromAction"])
    }

    @Test func transformMutationMergesOutsideEvents() {
        let reactor = TransformReactor()
        _ = reactor.action
        reactor.outside.onNext(.fromOutside)
        #expect(reactor.currentState.events == ["reduce fromOutside"])
    }

    @Test func transformStateIsWhatSubscribersSeeAndDoesNotFeedBackIntoReduce() {
        let reactor = TransformReactor()
        let log = EventLog(reactor.state)
        reactor.action.onNext(.tap)
        reactor.action.onNext(.tap)
        #expect(log.elements.map(\.shown) == ["transformed 0", "transformed 1", "transformed 2"])
        #expect(reactor.currentState.shown == "transformed 2")
        #expect(reactor.reducedStates.map(\.shown) == ["", ""], "reduce never sees a transformed state")
    }
}

@Suite("Reactor lifetime")
struct ReactorLifetimeTests {
    @Test func aReactorItsStreamsAndSubscribersAreFreedWithTheLastOwner() {
        weak var weakReactor: ProbeReactor?
        weak var weakStorage: ProbeReactor.Storage?
        weak var weakBag: DisposeBag?
        do {
            let reactor = ProbeReactor()
            let bag = DisposeBag()
            weakReactor = reactor
            weakStorage = reactor.reactorStorage
            weakBag = bag
            reactor.state.map(\.total).distinctUntilChanged().subscribe(onNext: { _ in }).disposed(by: bag)
            reactor.pulse(\.$message).subscribe(onNext: { _ in }).disposed(by: bag)
            reactor.action.onNext(.add(1))
            reactor.action.onNext(.send(1))
            #expect(weakReactor != nil)
        }
        #expect(weakReactor == nil)
        #expect(weakStorage == nil)
        #expect(weakBag == nil)
    }

    @Test func aPendingDelayedMutationDoesNotKeepTheReactorAlive() {
        let scheduler = TestScheduler(initialClock: 0)
        weak var weakReactor: ProbeReactor?
        do {
            let reactor = ProbeReactor()
            weakReactor = reactor
            reactor.mutateOverride = { _ in Observable.just(.add(1)).delay(1, scheduler: scheduler) }
            reactor.action.onNext(.add(1))
        }
        #expect(weakReactor == nil)
        scheduler.start()
    }

    @Test func takeUntilCancelsAMutationInFlight() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let cancel = PublishSubject<Void>()
        let reactor = ProbeReactor()
        reactor.mutateOverride = { action in
            guard case .add(let value) = action else { return .empty() }
            return Observable.just(.add(value)).delay(1, scheduler: scheduler).take(until: cancel)
        }
        reactor.action.onNext(.add(1))
        reactor.action.onNext(.add(2))
        scheduler.advanceTo(500)
        cancel.onNext(())
        scheduler.start()
        #expect(reactor.currentState.total == 0)
        reactor.action.onNext(.add(3))
        scheduler.start()
        #expect(reactor.currentState.total == 3, "later actions still work")
    }
}
