import Testing
@testable import ReactorCore
import ReactorKitCompat

/// The seeds' Counter: loading on, the value changed a second later, loading off, and an
/// alert as a one-shot pulse.
final class CounterReactor: Reactor {
    enum Action { case increase, decrease }
    enum Mutation { case increaseValue, decreaseValue, setLoading(Bool), setAlertMessage(String) }
    struct State {
        var value = 0
        var isLoading = false
        @Pulse var alertMessage: String?
    }

    let initialState = State()
    let reactorStorage = Storage()
    private let scheduler: any SchedulerType

    init(scheduler: any SchedulerType) { self.scheduler = scheduler }

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .increase:
            return Observable.concat([
                Observable.just(Mutation.setLoading(true)),
                Observable.just(Mutation.increaseValue).delay(1, scheduler: scheduler),
                Observable.just(Mutation.setLoading(false)),
                Observable.just(Mutation.setAlertMessage("increased!")),
            ])
        case .decrease:
            return Observable.concat([
                Observable.just(Mutation.setLoading(true)),
                Observable.just(Mutation.decreaseValue).delay(1, scheduler: scheduler),
                Observable.just(Mutation.setLoading(false)),
                Observable.just(Mutation.setAlertMessage("decreased!")),
            ])
        }
    }

    func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .increaseValue: state.value += 1
        case .decreaseValue: state.value -= 1
        case .setLoading(let isLoading): state.isLoading = isLoading
        case .setAlertMessage(let message): state.alertMessage = message
        }
        return state
    }
}

@Suite("The seeds' Counter on virtual time")
struct CounterReactorTests {
    /// One tick per millisecond.
    private func makeScheduler() -> TestScheduler { TestScheduler(initialClock: 0, resolution: 0.001) }

    @Test func increaseShowsLoadingThenChangesTheValueOneSecondLater() {
        let scheduler = makeScheduler()
        let reactor = CounterReactor(scheduler: scheduler)
        let values = scheduler.createObserver(Int.self)
        let loading = scheduler.createObserver(Bool.self)
        let bag = DisposeBag()
        reactor.state.map(\.value).distinctUntilChanged().subscribe(values).disposed(by: bag)
        reactor.state.map(\.isLoading).distinctUntilChanged().subscribe(loading).disposed(by: bag)

        reactor.action.onNext(.increase)
        #expect(reactor.currentState.isLoading)
        #expect(reactor.currentState.value == 0)

        scheduler.advanceTo(999)
        #expect(reactor.currentState.value == 0)
        scheduler.advanceTo(1000)
        #expect(reactor.currentState.value == 1)
        #expect(!reactor.currentState.isLoading)

        #expect(values.events == [.next(0, 0), .next(1000, 1)])
        #expect(loading.events == [.next(0, false), .next(0, true), .next(1000, false)])
    }

    @Test func decreaseAtTwoSecondsLandsAtThreeSeconds() {
        let scheduler = makeScheduler()
        let reactor = CounterReactor(scheduler: scheduler)
        scheduler.scheduleAt(2000) { reactor.action.onNext(.decrease) }
        let values = scheduler.start(created: 0, subscribed: 0, disposed: 10_000) {
            reactor.state.map(\.value).distinctUntilChanged()
        }
        #expect(values.events == [.next(0, 0), .next(3000, -1)])
    }

    @Test func theAlertPulseFiresOncePerTapEvenWithTheSameMessage() {
        let scheduler = makeScheduler()
        let reactor = CounterReactor(scheduler: scheduler)
        for time in [0, 1000] { scheduler.scheduleAt(time) { reactor.action.onNext(.increase) } }
        scheduler.scheduleAt(2000) { reactor.action.onNext(.decrease) }
        let alerts = scheduler.start(created: 0, subscribed: 0, disposed: 10_000) { reactor.pulse(\.$alertMessage) }
        #expect(alerts.events == [
            .next(0, nil),
            .next(1000, "increased!"),
            .next(2000, "increased!"),
            .next(3000, "decreased!"),
        ])
    }
}

/// The seeds' Counter as a ReactorKit user writes it: a non-final class that declares no
/// storage, and `reduce` without `consuming`.
class CounterViewReactor: Reactor {
    enum Action {
        case increase
        case decrease
    }

    enum Mutation {
        case increaseValue
        case decreaseValue
        case setLoading(Bool)
        case setAlertMessage(String)
    }

    struct State {
        var value: Int
        var isLoading: Bool
        @Pulse var alertMessage: String?
    }

    let initialState: State
    private let delayScheduler: SchedulerType

    init(scheduler: SchedulerType) {
        initialState = State(value: 0, isLoading: false)
        delayScheduler = scheduler
    }

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .increase:
            return Observable.concat([
                Observable.just(Mutation.setLoading(true)),
                Observable.just(Mutation.increaseValue).delay(.milliseconds(500), scheduler: delayScheduler),
                Observable.just(Mutation.setLoading(false)),
                Observable.just(Mutation.setAlertMessage("increased!")),
            ])
        case .decrease:
            return Observable.concat([
                Observable.just(Mutation.setLoading(true)),
                Observable.just(Mutation.decreaseValue).delay(.milliseconds(500), scheduler: delayScheduler),
                Observable.just(Mutation.setLoading(false)),
                Observable.just(Mutation.setAlertMessage("decreased!")),
            ])
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .increaseValue:
            state.value += 1
        case .decreaseValue:
            state.value -= 1
        case let .setLoading(isLoading):
            state.isLoading = isLoading
        case let .setAlertMessage(message):
            state.alertMessage = message
        }
        return state
    }
}

/// A subclass, as apps make them (a reactor for a screen that adds one action's effect).
final class LoggingCounterViewReactor: CounterViewReactor {
    var mutated: [Action] = []

    override func mutate(action: Action) -> Observable<Mutation> {
        mutated.append(action)
        return super.mutate(action: action)
    }
}

@Suite("The seeds' Counter, non-final and without storage")
struct CounterViewReactorTests {
    @Test func itRunsOnVirtualTimeExactlyAsWritten() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let reactor = CounterViewReactor(scheduler: scheduler)
        let bag = DisposeBag()
        scheduler.createHotObservable([.next(100, CounterViewReactor.Action.increase), .next(1000, .decrease), .next(1100, .decrease)])
            .subscribe(reactor.action)
            .disposed(by: bag)
        let values = scheduler.createObserver(Int.self)
        let loading = scheduler.createObserver(Bool.self)
        let alerts = scheduler.createObserver(String.self)
        reactor.state.map(\.value).distinctUntilChanged().subscribe(values).disposed(by: bag)
        reactor.state.map(\.isLoading).distinctUntilChanged().subscribe(loading).disposed(by: bag)
        reactor.pulse(\.$alertMessage).compactMap { $0 }.subscribe(alerts).disposed(by: bag)
        scheduler.start()

        #expect(values.events == [.next(0, 0), .next(600, 1), .next(1500, 0), .next(1600, -1)])
        #expect(loading.events == [.next(0, false), .next(100, true), .next(600, false), .next(1000, true), .next(1500, false)])
        #expect(alerts.events == [.next(600, "increased!"), .next(1500, "decreased!"), .next(1600, "decreased!")])
        #expect(reactor.currentState.value == -1)
    }

    @Test func aSubclassSharesItsParentsStreamsWhateverTypeItIsSeenAs() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let reactor = LoggingCounterViewReactor(scheduler: scheduler)
        let asParent: CounterViewReactor = reactor
        #expect(reactor.action === asParent.action)
        #expect(reactor.state === asParent.state)
        asParent.action.onNext(.increase)
        scheduler.start()
        #expect(reactor.currentState.value == 1)
        #expect(asParent.currentState.value == 1)
        #expect(reactor.mutated == [.increase], "the subclass's override runs")
    }
}

@Suite("Pulse")
struct PulseTests {
    @Test func aPulseEmitsItsValueOnSubscribeThenOnEveryAssignmentAndNotOnOtherMutations() {
        let scheduler = TestScheduler(initialClock: 0)
        let reactor = CounterReactor(scheduler: scheduler)
        var alerts: [String?] = []
        let subscription = reactor.pulse(\.$alertMessage).subscribe(onNext: { alerts.append($0) })
        #expect(alerts == [nil], "the current value on subscribe, as ReactorKit's replayed state gives it")
        reactor.action.onNext(.increase)
        #expect(alerts == [nil], "setLoading(true) is not an assignment of the pulse")
        scheduler.start()
        #expect(alerts == [nil, "increased!"])
        subscription.dispose()
    }

    @Test func aLateSubscriberGetsTheLastAssignedValueOnceThenOnlyNewAssignments() {
        let scheduler = TestScheduler(initialClock: 0)
        let reactor = CounterReactor(scheduler: scheduler)
        reactor.action.onNext(.increase)
        scheduler.start()
        var alerts: [String?] = []
        let subscription = reactor.pulse(\.$alertMessage).subscribe(onNext: { alerts.append($0) })
        #expect(alerts == ["increased!"])
        reactor.action.onNext(.decrease)
        scheduler.start()
        #expect(alerts == ["increased!", "decreased!"])
        subscription.dispose()
    }

    @Test func assignmentCountsEvenEqualValuesAndWrapsAtTheTop() {
        var pulse = Pulse(wrappedValue: 1)
        #expect(pulse.valueUpdatedCount == 0)
        pulse.value = 1
        pulse.wrappedValue = 1
        #expect(pulse.valueUpdatedCount == 2)
        #expect(pulse.value == 1)
        pulse.valueUpdatedCount = .max
        pulse.value = 2
        #expect(pulse.valueUpdatedCount == 0, "an overflow wraps to zero instead of trapping")
    }
}

/// A view over the Counter: a label and a spinner that it fills from the state.
final class CounterView: View {
    var disposeBag = DisposeBag()
    @Reacting var reactor: CounterReactor?
    var label = ""
    var isSpinning = false
    var alerts: [String] = []
    var bindCount = 0

    init() {}

    func tapIncrease() { reactor?.action.onNext(.increase) }

    func bind(reactor: CounterReactor) {
        bindCount += 1
        reactor.state.map { "\($0.value)" }.distinctUntilChanged()
            .bind(onNext: { [unowned self] in self.label = $0 })
            .disposed(by: disposeBag)
        reactor.state.map(\.isLoading).distinctUntilChanged()
            .bind(onNext: { [unowned self] in self.isSpinning = $0 })
            .disposed(by: disposeBag)
        reactor.pulse(\.$alertMessage).compactMap { $0 }
            .bind(onNext: { [unowned self] in self.alerts.append($0) })
            .disposed(by: disposeBag)
    }
}

/// A view keeping `reactor` in a plain stored property, bound from its `didSet`.
final class StoredCounterView: View {
    var disposeBag = DisposeBag()
    var reactor: CounterReactor? { didSet { reactorDidChange() } }
    var label = ""
    var bindCount = 0

    init() {}

    func bind(reactor: CounterReactor) {
        bindCount += 1
        reactor.state.map { "\($0.value)" }.distinctUntilChanged()
            .bind(onNext: { [unowned self] in self.label = $0 })
            .disposed(by: disposeBag)
    }
}

@Suite("Stub and View")
struct StubAndViewTests {
    @Test func aStubbedReactorRecordsActionsAndNeverMutates() {
        let reactor = CounterReactor(scheduler: TestScheduler(initialClock: 0))
        reactor.isStubEnabled = true
        let view = CounterView()
        view.reactor = reactor
        view.tapIncrease()
        view.tapIncrease()
        #expect(reactor.stub.actions == [.increase, .increase])
        #expect(reactor.currentState.value == 0)
        #expect(!reactor.currentState.isLoading, "mutate never ran")

        reactor.stub.state.value = CounterReactor.State(value: 42, isLoading: true)
        #expect(view.label == "42")
        #expect(view.isSpinning)
        #expect(reactor.currentState.value == 42)
    }

    @Test func assigningAReactorBindsWithAFreshBag() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = CounterReactor(scheduler: scheduler)
        let second = CounterReactor(scheduler: scheduler)
        let view = CounterView()
        view.reactor = first
        #expect(view.bindCount == 1)
        view.reactor = second
        #expect(view.bindCount == 2)
        first.action.onNext(.increase)
        scheduler.start()
        #expect(view.label == "0", "the old reactor's bindings were dropped with the old bag")
        view.tapIncrease()
        scheduler.start()
        #expect(view.label == "1")
        #expect(view.alerts == ["increased!"])
    }

    @Test func aViewStoringItsReactorBindsOnEveryAssignmentWithAFreshBag() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = CounterReactor(scheduler: scheduler)
        let second = CounterReactor(scheduler: scheduler)
        let view = StoredCounterView()
        view.reactor = first
        view.reactor = first
        #expect(view.bindCount == 2, "every assignment binds, the same reactor again too")
        view.reactor = second
        first.action.onNext(.increase)
        scheduler.start()
        #expect(view.label == "0", "the old reactor's bindings were dropped with the old bag")
        second.action.onNext(.increase)
        second.action.onNext(.increase)
        scheduler.start()
        #expect(view.label == "2")
        view.reactor = nil
        #expect(view.bindCount == 3, "nil unbinds without binding")
        second.action.onNext(.increase)
        scheduler.start()
        #expect(view.label == "2")
    }
}

extension CounterReactor.Action: Equatable {}
extension CounterViewReactor.Action: Equatable {}
