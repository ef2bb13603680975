#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Testing
@testable import ReactorCore
import ReactorKitCompat

// The behaviours ReactorKit's own test suite pins, each in a test of ours, written as a
// ReactorKit user writes reactors: non-final or final classes that declare no storage,
// `reduce(state: State, …)` without `consuming`, RxTest's scheduler.

/// Appends a word at each step of the pipeline, so the order is visible in the state.
private final class StepReactor: Reactor {
    typealias Action = [String]
    typealias Mutation = [String]
    typealias State = [String]

    let initialState: State = []

    func transform(action: Observable<Action>) -> Observable<Action> { action.map { $0 + ["transform(action:)"] } }
    func mutate(action: Action) -> Observable<Mutation> { .just(action + ["mutate"]) }
    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> { mutation.map { $0 + ["transform(mutation:)"] } }
    func reduce(state: State, mutation: Mutation) -> State { mutation + ["reduce"] }
    func transform(state: Observable<State>) -> Observable<State> { state.map { $0 + ["transform(state:)"] } }
}

/// Counts; `mutate` fails or completes early when the count reaches a chosen value.
private final class TallyReactor: Reactor {
    typealias Action = Void
    typealias Mutation = Void
    typealias State = Int

    let initialState = 0
    var failAt: Int?
    var completeEmptyAt: Int?

    func mutate(action: Void) -> Observable<Void> {
        if currentState == failAt { return .concat(.just(()), .error(TestError(id: 1))) }
        if currentState == completeEmptyAt { return .concat(.just(()), .empty()) }
        return .just(())
    }

    func reduce(state: Int, mutation: Void) -> Int { state + 1 }
}

/// Counts seconds between `start` and `stop`, the stop cancelling the running interval.
private final class StopwatchReactor: Reactor {
    enum Action { case start, stop }
    typealias Mutation = Int
    typealias State = Int

    let initialState = 0
    private let clock: SchedulerType

    init(clock: SchedulerType) { self.clock = clock }

    func mutate(action: Action) -> Observable<Int> {
        switch action {
        case .start:
            return Observable<Int>.interval(.seconds(1), scheduler: clock).map { _ in 1 }
                .take(until: self.action.filter { $0 == .stop })
        case .stop:
            return .empty()
        }
    }

    func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

@Suite("ReactorKit's behaviours: the pipeline")
struct ReactorKitPipelineTests {
    @Test func eachStepRunsOnceInOrderAndTheInitialStatePassesTransformState() {
        let reactor = StepReactor()
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        scheduler.createHotObservable([.next(100, ["action"])]).subscribe(reactor.action).disposed(by: bag)
        let response = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
        #expect(response.events == [
            .next(0, ["transform(state:)"]),
            .next(100, ["action", "transform(action:)", "mutate", "transform(mutation:)", "reduce", "transform(state:)"]),
        ])
    }

    @Test func usingActionAloneBuildsTheStreamSoCurrentStateFollows() {
        let reactor = StepReactor()
        reactor.action.onNext(["a"])
        #expect(reactor.currentState == ["a", "transform(action:)", "mutate", "transform(mutation:)", "reduce", "transform(state:)"])
    }

    @Test func eachMutationIsReducedBeforeTheNextIsMade() {
        final class Letters: Reactor {
            typealias Action = [String]
            typealias Mutation = [String]
            typealias State = [String]
            let initialState: State = []
            func mutate(action: [String]) -> Observable<[String]> {
                // Each mutation is made from currentState when its turn comes.
                .concat(action.map { letter in
                    Observable.create { [weak self] observer in
                        if let self { observer.onNext(self.currentState + [letter]) }
                        observer.onCompleted()
                        return Disposables.create()
                    }
                })
            }
            func reduce(state: [String], mutation: [String]) -> [String] { mutation }
        }
        let reactor = Letters()
        reactor.action.onNext(["a", "b"])
        reactor.action.onNext(["c"])
        reactor.action.onNext(["d", "e", "f"])
        #expect(reactor.currentState == ["a", "b", "c", "d", "e", "f"])
    }

    @Test func aSubscriberAfterTheFactGetsOnlyTheCurrentState() {
        let reactor = TallyReactor()
        let scheduler = TestScheduler(initialClock: 0)
        let early = reactor.state.subscribe()
        reactor.action.onNext(())
        reactor.action.onNext(())
        early.dispose()
        let response = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
        #expect(response.events == [.next(0, 2)], "no completion either: the state stream never ends")
    }

    @Test func anActionSourceThatFailsOrCompletesDoesNotEndTheReactor() {
        for ending in [Recorded<Event<Void>>.error(300, TestError()), .completed(300)] {
            let reactor = TallyReactor()
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            scheduler.createHotObservable([.next(100, ()), .next(200, ()), ending, .next(400, ())])
                .subscribe(reactor.action).disposed(by: bag)
            scheduler.createHotObservable([ending, .next(500, ()), .next(600, ())])
                .subscribe(reactor.action).disposed(by: bag)
            let response = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
            // A test observable delivers all its records, even after its end: the action subject
            // ignores the end itself and goes on taking elements, from either source.
            #expect(response.events == [.next(0, 0), .next(100, 1), .next(200, 2), .next(400, 3), .next(500, 4), .next(600, 5)])
        }
    }

    @Test func aMutateThatFailsOrCompletesEndsOnlyThatAction() {
        for failing in [true, false] {
            let reactor = TallyReactor()
            if failing { reactor.failAt = 2 } else { reactor.completeEmptyAt = 2 }
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            scheduler.createHotObservable((1...5).map { .next($0 * 100, ()) }).subscribe(reactor.action).disposed(by: bag)
            let response = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
            #expect(response.events.map(\.value.element) == [0, 1, 2, 3, 4, 5])
        }
    }

    @Test func takeUntilAnotherActionCancelsARunningMutation() {
        let scheduler = TestScheduler(initialClock: 0)
        let reactor = StopwatchReactor(clock: scheduler)
        let bag = DisposeBag()
        scheduler.createHotObservable([.next(1, StopwatchReactor.Action.start), .next(5, .stop), .next(6, .start), .next(9, .stop)])
            .subscribe(reactor.action).disposed(by: bag)
        let response = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
        #expect(response.events == [.next(0, 0), .next(2, 1), .next(3, 2), .next(4, 3), .next(7, 4), .next(8, 5)])
    }
}

@Suite("ReactorKit's behaviours: stubs, subclasses, lifetime, threads")
struct ReactorKitLifeTests {
    @Test func aStubbedReactorHandsOutTheStubsStreams() {
        let reactor = StepReactor()
        reactor.isStubEnabled = true
        #expect(reactor.action === reactor.stub.action)
        #expect(reactor.state === reactor.stub.state.asObservable())
    }

    @Test func aStubRecordsActionsIgnoresThemAndShowsTheStateItIsGiven() {
        let scheduler = TestScheduler(initialClock: 0)
        let reactor = StopwatchReactor(clock: scheduler)
        reactor.isStubEnabled = true
        reactor.action.onNext(.start)
        reactor.action.onNext(.start)
        reactor.action.onNext(.stop)
        #expect(reactor.stub.actions == [.start, .start, .stop])
        scheduler.start()
        #expect(reactor.currentState == 0, "mutate never ran")
        for value in [0, 1, -10, 30] {
            reactor.stub.state.value = value
            #expect(reactor.currentState == value)
        }
    }

    @Test func aGenericParentsSubclassKeepsOneActionSubjectAndBuildsOnFirstAction() {
        class Parent<T>: Reactor {
            enum Action { case bump }
            typealias Mutation = Void
            typealias State = Int
            let initialState = 0
            func mutate(action: Action) -> Observable<Void> { .just(()) }
            func reduce(state: Int, mutation: Void) -> Int { state + 1 }
        }
        final class Child: Parent<String> {}

        let reactor = Child()
        let before = ObjectIdentifier(reactor.action)
        _ = reactor.state
        #expect(ObjectIdentifier(reactor.action) == before)
        #expect(reactor.currentState == 0)
        reactor.action.onNext(.bump)
        #expect(reactor.currentState == 1)
        #expect((reactor as Parent<String>).currentState == 1)
    }

    @Test func theReactorItsActionSubjectAndItsStateStreamGoTogether() {
        weak var reactor: StepReactor?
        weak var action: ActionSubject<[String]>?
        weak var state: Observable<[String]>?
        do {
            let made = StepReactor()
            reactor = made
            action = made.action
            state = made.state
            made.action.onNext(["a"])
        }
        #expect(reactor == nil)
        #expect(action == nil)
        #expect(state == nil)
    }

    @Test func theStateStreamIsOneObjectWhateverThreadAsksFirst() async {
        final class Slow: Reactor {
            typealias Action = Int
            typealias State = Int
            let initialState = 0
            func transform(action: Observable<Int>) -> Observable<Int> {
                usleep(20_000)  // building takes a while: the other threads wait for it
                return action
            }
        }
        let reactor = Slow()
        let seen = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<50 {
                group.addTask { [reactor = UncheckedSendable(reactor)] in ObjectIdentifier(reactor.value.state) }
            }
            var all = Set<ObjectIdentifier>()
            for await identifier in group { all.insert(identifier) }
            return all
        }
        #expect(seen.count == 1)
    }

    @Test func anActionFromAnotherThreadIsReduced() {
        let reactor = TallyReactor()
        let done = DispatchSemaphore(value: 0)
        let subscription = reactor.state.skip(1).subscribe(onNext: { _ in done.signal() })
        DispatchQueue.global().async { [reactor = UncheckedSendable(reactor)] in reactor.value.action.onNext(()) }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(reactor.currentState == 1)
        subscription.dispose()
    }

    @Test func aStateSubscriberThatDismissesThenPresentsEndsOnThePresentedRoute() {
        final class Router: Reactor {
            enum Action { case dismiss, present(String) }
            struct State { var route: String? = "initial" }
            typealias Mutation = String?
            let initialState = State()
            func mutate(action: Action) -> Observable<String?> {
                switch action {
                case .dismiss: return .just(nil)
                case .present(let route): return .just(route)
                }
            }
            func reduce(state: State, mutation: String?) -> State { State(route: mutation) }
        }
        let reactor = Router()
        var presented = false
        let subscription = reactor.state.subscribe(onNext: { state in
            if !presented && state.route == nil {
                presented = true
                reactor.action.onNext(.present("next"))
            }
        })
        reactor.action.onNext(.dismiss)
        #expect(reactor.currentState.route == "next")
        subscription.dispose()
    }
}

@Suite("ReactorKit's behaviours: the small types")
struct ReactorKitTypesTests {
    @Test func anActionSubjectCountsItsObserversAndForgetsDisposedOnes() {
        let subject = ActionSubject<Int>()
        let first = subject.subscribe()
        let second = subject.subscribe()
        #expect(subject.observers.count == 2)
        second.dispose()
        #expect(subject.observers.count == 1)
        first.dispose()
        #expect(subject.observers.count == 0)
    }

    @Test func anActionSubjectPassesElementsOnlyAndOutlivesItsSourcesEnd() {
        for ending in [Recorded<Event<Int>>.error(200, TestError()), .completed(200)] {
            let subject = ActionSubject<Int>()
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            scheduler.createHotObservable([.next(100, 1), ending]).subscribe(subject).disposed(by: bag)
            scheduler.createHotObservable([.next(300, 3)]).subscribe(subject).disposed(by: bag)
            let response = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { subject.asObservable() }
            #expect(response.events == [.next(100, 1), .next(300, 3)])
        }
    }

    @Test func identityEquatableAndHashableCompareTheReactorItself() {
        final class Plain: Reactor, IdentityHashable {
            typealias Action = Never
            struct State {}
            let initialState = State()
        }
        let a = Plain(), b = Plain()
        #expect(a == a)
        #expect(a != b)
        #expect(Set([a, a, b]).count == 2)
        #expect(a.hashValue == a.hashValue)
    }

    @Test func stateRelaysCombineAndNeverComplete() {
        let a = StateRelay(value: 1)
        var b = StateRelay(value: 2)
        var latest: Int?
        var completed = false
        let sum = Observable.combineLatest(a, b, resultSelector: +)
            .subscribe(onNext: { latest = $0 }, onCompleted: { completed = true })
        #expect(latest == 3)
        a.value = 5
        #expect(latest == 7)
        b.accept(9)
        #expect(latest == 14)
        #expect(b.value == 9)
        b = StateRelay(value: 0)
        #expect(!completed, "a relay that goes away ends nothing")
        sum.dispose()
        a.value = 10
        #expect(latest == 14)
    }
}
