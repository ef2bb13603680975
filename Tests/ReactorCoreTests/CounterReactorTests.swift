import Testing
@testable import ReactorCore

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
    let reactorStorage = ReactorStorage<CounterReactor>()
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
    @Test func increaseShowsLoadingThenChangesTheValueOneSecondLater() {
        let scheduler = TestScheduler()
        let reactor = CounterReactor(scheduler: scheduler)
        let values = scheduler.record(reactor.state.map(\.value).distinctUntilChanged())
        let loading = scheduler.record(reactor.state.map(\.isLoading).distinctUntilChanged())

        reactor.action.onNext(.increase)
        #expect(reactor.currentState.isLoading)
        #expect(reactor.currentState.value == 0)

        scheduler.advance(to: .milliseconds(999))
        #expect(reactor.currentState.value == 0)
        scheduler.advance(to: .seconds(1))
        #expect(reactor.currentState.value == 1)
        #expect(!reactor.currentState.isLoading)

        #expect(values.elements == [Recorded(time: .zero, value: 0), Recorded(time: .seconds(1), value: 1)])
        #expect(loading.elements == [
            Recorded(time: .zero, value: false),
            Recorded(time: .zero, value: true),
            Recorded(time: .seconds(1), value: false),
        ])
    }

    @Test func decreaseAtTwoSecondsLandsAtThreeSeconds() {
        let scheduler = TestScheduler()
        let reactor = CounterReactor(scheduler: scheduler)
        let values = scheduler.record(reactor.state.map(\.value).distinctUntilChanged())
        scheduler.schedule(at: .seconds(2)) { reactor.action.onNext(.decrease) }
        scheduler.start()
        #expect(values.elements == [Recorded(time: .zero, value: 0), Recorded(time: .seconds(3), value: -1)])
    }

    @Test func theAlertPulseFiresOncePerTapEvenWithTheSameMessage() {
        let scheduler = TestScheduler()
        let reactor = CounterReactor(scheduler: scheduler)
        let alerts = scheduler.record(reactor.pulse(\.$alertMessage))
        let values = scheduler.record(reactor.state.map(\.value))

        reactor.action.onNext(.increase)
        scheduler.advance(to: .seconds(1))
        reactor.action.onNext(.increase)
        scheduler.advance(to: .seconds(2))
        reactor.action.onNext(.decrease)
        scheduler.advance(to: .seconds(3))

        #expect(alerts.elements == [
            Recorded(time: .seconds(1), value: "increased!"),
            Recorded(time: .seconds(2), value: "increased!"),
            Recorded(time: .seconds(3), value: "decreased!"),
        ])
        #expect(values.elements.count == 13, "each of the 12 mutations emits a state, after the initial one")
    }
}

@Suite("Pulse")
struct PulseTests {
    @Test func aPulseEmitsOnEveryAssignmentAndNotOnUnrelatedMutations() {
        let scheduler = TestScheduler()
        let reactor = CounterReactor(scheduler: scheduler)
        var alerts: [String?] = []
        let subscription = reactor.pulse(\.$alertMessage).subscribe(onNext: { alerts.append($0) })
        _ = reactor.action
        #expect(alerts.isEmpty, "no emission for the current value on subscribe")
        reactor.action.onNext(.increase)
        #expect(alerts.isEmpty, "setLoading(true) is not an assignment of the pulse")
        scheduler.start()
        #expect(alerts == ["increased!"])
        subscription.dispose()
    }

    @Test func aLateSubscriberGetsNoOldPulse() {
        let scheduler = TestScheduler()
        let reactor = CounterReactor(scheduler: scheduler)
        reactor.action.onNext(.increase)
        scheduler.start()
        var alerts: [String?] = []
        let subscription = reactor.pulse(\.$alertMessage).subscribe(onNext: { alerts.append($0) })
        #expect(alerts.isEmpty)
        reactor.action.onNext(.decrease)
        scheduler.start()
        #expect(alerts == ["decreased!"])
        subscription.dispose()
    }

    @Test func assignmentCountsEvenEqualValues() {
        var pulse = Pulse(wrappedValue: 1)
        #expect(pulse.valueUpdatedCount == 0)
        pulse.value = 1
        pulse.wrappedValue = 1
        #expect(pulse.valueUpdatedCount == 2)
        #expect(pulse.value == 1)
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

@Suite("Stub and View")
struct StubAndViewTests {
    @Test func aStubbedReactorRecordsActionsAndNeverMutates() {
        let reactor = CounterReactor(scheduler: TestScheduler())
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
        let scheduler = TestScheduler()
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
}

extension CounterReactor.Action: Equatable {}
