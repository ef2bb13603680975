import Testing
@testable import ReactorCore
import ReactorKitCompat

struct TestError: Error, Equatable {
    var id = 0
}

/// Collects every event of a subscription, for exact assertions.
final class EventLog<Element> {
    var elements: [Element] = []
    var errors: [any Error] = []
    var completions = 0
    var subscription: (any Disposable)?

    init(_ source: Observable<Element>) {
        subscription = source.subscribe { [unowned self] event in
            switch event {
            case .next(let element): self.elements.append(element)
            case .error(let error): self.errors.append(error)
            case .completed: self.completions += 1
            }
        }
    }

    var isTerminated: Bool { completions + errors.count > 0 }
}

@Suite("Observable: creation")
struct ObservableCreationTests {
    @Test func justEmitsOnceAndCompletes() {
        let log = EventLog(Observable.just(7))
        #expect(log.elements == [7])
        #expect(log.completions == 1)
    }

    @Test func emptyCompletesWithoutElements() {
        let log = EventLog(Observable<Int>.empty())
        #expect(log.elements.isEmpty)
        #expect(log.completions == 1)
    }

    @Test func neverSaysNothing() {
        let log = EventLog(Observable<Int>.never())
        #expect(log.elements.isEmpty)
        #expect(!log.isTerminated)
    }

    @Test func errorFails() {
        let log = EventLog(Observable<Int>.error(TestError(id: 3)))
        #expect(log.errors.count == 1)
        #expect(log.errors.first as? TestError == TestError(id: 3))
    }

    @Test func fromEmitsTheSequenceInOrder() {
        #expect(EventLog(Observable.from([1, 2, 3])).elements == [1, 2, 3])
        #expect(EventLog(Observable.of("a", "b")).elements == ["a", "b"])
    }

    @Test func createDropsEventsAfterTheEndAndDisposesItsResource() {
        var disposed = 0
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(TestError())
            return Disposables.create { disposed += 1 }
        }
        let log = EventLog(source)
        #expect(log.elements == [1])
        #expect(log.completions == 1)
        #expect(log.errors.isEmpty)
        #expect(disposed == 1)
        log.subscription?.dispose()
        #expect(disposed == 1)
    }

    @Test func createStopsDeliveringAfterDisposal() {
        var observer: AnyObserver<Int>?
        let source = Observable<Int>.create { o in
            observer = o
            return Disposables.create()
        }
        let log = EventLog(source)
        observer?.onNext(1)
        log.subscription?.dispose()
        observer?.onNext(2)
        #expect(log.elements == [1])
    }

    @Test func deferredRunsTheFactoryPerSubscriber() {
        var made = 0
        let source = Observable<Int>.deferred {
            made += 1
            return .just(made)
        }
        #expect(EventLog(source).elements == [1])
        #expect(EventLog(source).elements == [2])
        let failing = Observable<Int>.deferred { throw TestError(id: 9) }
        #expect(EventLog(failing).errors.first as? TestError == TestError(id: 9))
    }
}

@Suite("Observable: operators")
struct ObservableOperatorTests {
    @Test func mapCompactMapFilter() {
        let source = Observable.from([1, 2, 3, 4])
        #expect(EventLog(source.map { $0 * 10 }).elements == [10, 20, 30, 40])
        #expect(EventLog(source.compactMap { $0 % 2 == 0 ? "\($0)" : nil }).elements == ["2", "4"])
        #expect(EventLog(source.filter { $0 > 2 }).elements == [3, 4])
    }

    @Test func aThrowingMapEndsTheSequenceWithTheError() {
        let log = EventLog(Observable.from([1, 2, 3]).map { value -> Int in
            if value == 2 { throw TestError(id: 2) }
            return value
        })
        #expect(log.elements == [1])
        #expect(log.errors.count == 1)
        #expect(log.completions == 0)
    }

    @Test func scanEmitsEachIntermediateResult() {
        #expect(EventLog(Observable.from([1, 2, 3]).scan(0, accumulator: +)).elements == [1, 3, 6])
        #expect(EventLog(Observable.from([1, 2]).scan(into: [Int]()) { $0.append($1) }).elements == [[1], [1, 2]])
    }

    @Test func startWithComesFirst() {
        #expect(EventLog(Observable.just(3).startWith(1, 2)).elements == [1, 2, 3])
    }

    @Test func distinctUntilChangedWithAndWithoutAKey() {
        #expect(EventLog(Observable.from([1, 1, 2, 2, 1]).distinctUntilChanged()).elements == [1, 2, 1])
        let words = Observable.from(["a", "b", "cc", "dd", "e"])
        #expect(EventLog(words.distinctUntilChanged { $0.count }).elements == ["a", "cc", "e"])
        #expect(EventLog(words.distinctUntilChanged(\.count)).elements == ["a", "cc", "e"])
        #expect(EventLog(words.distinctUntilChanged { $0.count == $1.count }).elements == ["a", "cc", "e"])
    }

    @Test func takeAndSkip() {
        let subject = PublishSubject<Int>()
        let log = EventLog(subject.take(2))
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        #expect(log.elements == [1, 2])
        #expect(log.completions == 1)
        #expect(!subject.hasObservers, "take disposes its source once it has enough")
        #expect(EventLog(Observable.from([1, 2, 3, 4]).skip(2)).elements == [3, 4])
        #expect(EventLog(Observable.from([1, 2]).take(0)).completions == 1)
    }

    @Test func takeUntilCancelsWhenTheOtherEmits() {
        let source = PublishSubject<Int>()
        let stop = PublishSubject<Void>()
        let log = EventLog(source.take(until: stop))
        source.onNext(1)
        stop.onNext(())
        source.onNext(2)
        #expect(log.elements == [1])
        #expect(log.completions == 1)
        #expect(!source.hasObservers)
        #expect(!stop.hasObservers)
    }

    @Test func doRunsSideEffectsInOrder() {
        var seen: [String] = []
        let log = EventLog(Observable.from([1, 2]).do(
            onNext: { seen.append("next \($0)") },
            onCompleted: { seen.append("completed") },
            onSubscribe: { seen.append("subscribe") }
        ))
        #expect(seen == ["subscribe", "next 1", "next 2", "completed"])
        #expect(log.elements == [1, 2])
    }

    @Test func catchGoesOnWithTheHandlersSequence() {
        let source = Observable.concat([.just(1), .error(TestError()), .just(99)])
        #expect(EventLog(source.catch { _ in .from([2, 3]) }).elements == [1, 2, 3])
        #expect(EventLog(source.catchAndReturn(0)).elements == [1, 0])
    }

    @Test func concatRunsInTurnAndSurvivesManySynchronousSources() {
        let log = EventLog(Observable.concat(.just(1), .from([2, 3]), .just(4)))
        #expect(log.elements == [1, 2, 3, 4])
        #expect(log.completions == 1)
        let many = Observable.concat((0..<100_000).map { Observable.just($0) })
        let count = EventLog(many.scan(0) { count, _ in count + 1 }).elements.last
        #expect(count == 100_000)
    }

    @Test func concatWaitsForTheFirstToComplete() {
        let first = PublishSubject<Int>()
        let log = EventLog(first.concat(.just(9)))
        first.onNext(1)
        #expect(log.elements == [1])
        first.onCompleted()
        #expect(log.elements == [1, 9])
        #expect(log.completions == 1)
    }

    @Test func mergeCompletesWhenAllHave() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let log = EventLog(Observable.merge(a, b))
        a.onNext(1)
        b.onNext(2)
        a.onCompleted()
        #expect(log.completions == 0)
        b.onNext(3)
        b.onCompleted()
        #expect(log.elements == [1, 2, 3])
        #expect(log.completions == 1)
    }

    @Test func flatMapMergesAndAnInnerErrorEndsAll() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let log = EventLog(outer.flatMap { $0 == 0 ? inner.asObservable() : .just($0) })
        outer.onNext(0)
        outer.onNext(5)
        inner.onNext(1)
        #expect(log.elements == [5, 1])
        inner.onError(TestError())
        #expect(log.errors.count == 1)
        outer.onNext(6)
        #expect(log.elements == [5, 1])
    }

    @Test func flatMapLatestDropsTheOlderInner() {
        let outer = PublishSubject<PublishSubject<Int>>()
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let log = EventLog(outer.flatMapLatest { $0.asObservable() })
        outer.onNext(first)
        first.onNext(1)
        outer.onNext(second)
        first.onNext(2)
        second.onNext(3)
        #expect(log.elements == [1, 3])
        #expect(!first.hasObservers)
    }

    @Test func shareReplayRunsOnceAndReplaysToLateSubscribers() {
        var runs = 0
        let subject = PublishSubject<Int>()
        let shared = Observable<Int>.deferred {
            runs += 1
            return subject.asObservable()
        }.share(replay: 1)
        let first = EventLog(shared)
        subject.onNext(1)
        subject.onNext(2)
        let late = EventLog(shared)
        subject.onNext(3)
        #expect(runs == 1)
        #expect(first.elements == [1, 2, 3])
        #expect(late.elements == [2, 3])
        first.subscription?.dispose()
        late.subscription?.dispose()
        #expect(!subject.hasObservers, "the last subscriber leaving disconnects")
    }

    @Test func subscribeHandlersAndOnDisposedRunOnce() {
        var calls: [String] = []
        let subscription = Observable.from([1]).subscribe(
            onNext: { calls.append("next \($0)") },
            onError: { _ in calls.append("error") },
            onCompleted: { calls.append("completed") },
            onDisposed: { calls.append("disposed") }
        )
        subscription.dispose()
        #expect(calls == ["next 1", "completed", "disposed"])
    }

    @Test func bindPassesElementsButNotTheEnd() {
        let target = PublishSubject<Int>()
        let log = EventLog(target.asObservable())
        _ = Observable.from([1, 2]).bind(to: target)
        #expect(log.elements == [1, 2])
        #expect(log.completions == 0)
        var seen: [Int] = []
        _ = Observable.from([3]).bind(onNext: { seen.append($0) })
        #expect(seen == [3])
    }
}

@Suite("Subjects and disposables")
struct SubjectTests {
    @Test func publishSubjectPassesOnlyWhatComesAfterSubscribing() {
        let subject = PublishSubject<Int>()
        subject.onNext(1)
        let log = EventLog(subject.asObservable())
        subject.onNext(2)
        subject.onCompleted()
        subject.onNext(3)
        #expect(log.elements == [2])
        #expect(log.completions == 1)
        #expect(EventLog(subject.asObservable()).completions == 1, "a late subscriber gets the end")
    }

    @Test func behaviorSubjectReplaysItsLatestValue() throws {
        let subject = BehaviorSubject(value: 1)
        subject.onNext(2)
        let log = EventLog(subject.asObservable())
        subject.onNext(3)
        #expect(log.elements == [2, 3])
        #expect(try subject.value() == 3)
        subject.onError(TestError())
        #expect(throws: BehaviorSubject<Int>.Failed.self) { try subject.value() }
    }

    @Test func stateRelayIsSettableAndNeverEnds() {
        let relay = StateRelay(value: "a")
        let log = EventLog(relay.asObservable())
        relay.value = "b"
        relay.accept("c")
        #expect(log.elements == ["a", "b", "c"])
        #expect(relay.value == "c")
    }

    @Test func actionSubjectIgnoresErrorsAndCompletion() {
        let subject = ActionSubject<Int>()
        let log = EventLog(subject.asObservable())
        subject.onNext(1)
        subject.onError(TestError())
        subject.onCompleted()
        subject.onNext(2)
        #expect(log.elements == [1, 2])
        #expect(!log.isTerminated)
    }

    @Test func disposeBagDisposesOnDeinit() {
        var disposed = 0
        var bag: DisposeBag? = DisposeBag()
        if let bag {
            Disposables.create { disposed += 1 }.disposed(by: bag)
            Disposables.create { disposed += 1 }.disposed(by: bag)
        }
        #expect(disposed == 0)
        bag = nil
        #expect(disposed == 2)
    }

    @Test func singleAssignmentAndSerialDisposeLateArrivals() {
        var disposed: [String] = []
        let single = SingleAssignmentDisposable()
        single.dispose()
        single.setDisposable(Disposables.create { disposed.append("late") })
        let serial = SerialDisposable()
        serial.setDisposable(Disposables.create { disposed.append("first") })
        serial.setDisposable(Disposables.create { disposed.append("second") })
        serial.dispose()
        #expect(disposed == ["late", "first", "second"])
    }

    @Test func compositeDisposesEverythingOnce() {
        var count = 0
        let composite = CompositeDisposable()
        let key = composite.insert(Disposables.create { count += 1 })
        composite.insert(Disposables.create { count += 10 })
        if let key { composite.remove(for: key) }
        #expect(count == 1)
        composite.dispose()
        composite.dispose()
        #expect(count == 11)
        composite.insert(Disposables.create { count += 100 })
        #expect(count == 111, "added after disposal: disposed at once")
    }
}

@Suite("Operators release what they hold when they end")
struct OperatorLifetimeTests {
    @Test func aFallbackAfterASynchronousErrorIsNotDisposedByTheFailedSource() {
        let fallback = PublishSubject<Int>()
        let log = EventLog(Observable<Int>.error(TestError()).catch { _ in fallback.asObservable() })
        #expect(fallback.hasObservers, "the fallback subscription survives the source's late disposable")
        fallback.onNext(5)
        #expect(log.elements == [5])
    }

    @Test func aCompletedChainIsFreedWithoutDisposal() {
        weak var weakSink: PublishSubject<Int>?
        do {
            let source = PublishSubject<Int>()
            weakSink = source
            var seen: [Int] = []
            _ = source.map { $0 + 1 }.filter { $0 > 0 }.scan(0, accumulator: +)
                .catch { _ in .empty() }.subscribe(onNext: { seen.append($0) })
            source.onNext(1)
            source.onCompleted()
            #expect(seen == [2])
        }
        #expect(weakSink == nil)
    }
}
