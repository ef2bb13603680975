#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Testing
@testable import ReactorCore
import ReactorKitCompat

@Suite("Operators ReactorKit apps use")
struct RxOperatorTests {
    @Test func combineLatestWaitsForEachThenFollowsTheLatestAndEndsWhenAllEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, "x"), .next(230, "y"), .next(260, "z"), .completed(400)])
        let response = scheduler.start { Observable.combineLatest(a, b) { "\($0)\($1)" } }
        #expect(response.events == [.next(220, "1x"), .next(230, "1y"), .next(240, "2y"), .next(260, "2z"), .completed(400)])
    }

    @Test func combineLatestOfOneThatEndsEmptyEndsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.completed(250, Int.self)])
        let other = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let response = scheduler.start { Observable.combineLatest(empty, other) { $0 + $1 } }
        #expect(response.events == [.completed(250)])
    }

    @Test func combineLatestOfThreeFourAndAnArray() {
        let sum3 = EventLog(Observable.combineLatest(Observable.just(1), Observable.just(2), Observable.just(3)) { $0 + $1 + $2 })
        #expect(sum3.elements == [6])
        let sum4 = EventLog(Observable.combineLatest(Observable.just(1), Observable.just(2), Observable.just(3), Observable.just(4)) {
            $0 + $1 + $2 + $3
        })
        #expect(sum4.elements == [10])
        let subjects = [BehaviorSubject(value: 1), BehaviorSubject(value: 2)]
        let arrays = EventLog(Observable.combineLatest(subjects.map { $0.asObservable() }))
        subjects[1].onNext(5)
        #expect(arrays.elements == [[1, 2], [1, 5]])
        let tuples = EventLog(Observable.combineLatest(Observable.just(1), Observable.just("a")))
        #expect(tuples.elements.map { "\($0.0)\($0.1)" } == ["1a"])
    }

    @Test func zipPairsByPositionAndEndsWhenOneSideIsSpent() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let b = scheduler.createHotObservable([.next(250, "a"), .next(260, "b"), .next(500, "c")])
        let response = scheduler.start { Observable.zip(a, b) { "\($0)\($1)" } }
        #expect(response.events == [.next(250, "1a"), .next(260, "2b"), .next(500, "3c"), .completed(500)])
        let three = EventLog(Observable.zip(Observable.from([1, 2]), Observable.from([10, 20]), Observable.from([100])) { $0 + $1 + $2 })
        #expect(three.elements == [111])
        #expect(three.completions == 1)
    }

    @Test func withLatestFromTakesTheOthersLatestAndDropsWhatCameBeforeIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, "tap1"), .next(230, "tap2"), .next(250, "tap3"), .completed(260)])
        let text = scheduler.createHotObservable([.next(220, "a"), .next(240, "ab")])
        let response = scheduler.start { taps.withLatestFrom(text) { "\($0):\($1)" } }
        #expect(response.events == [.next(230, "tap2:a"), .next(250, "tap3:ab"), .completed(260)])
        let only = scheduler.start(created: 300, subscribed: 300, disposed: 400) { taps.withLatestFrom(text) }
        #expect(only.events.isEmpty)
    }

    @Test func intervalAndTimerTickOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let ticks = scheduler.start(created: 0, subscribed: 0, disposed: 35) {
            Observable<Int>.interval(.seconds(10), scheduler: scheduler)
        }
        #expect(ticks.events == [.next(10, 0), .next(20, 1), .next(30, 2)])
        let once = scheduler.start(created: 40, subscribed: 40, disposed: 100) {
            Observable<Int>.timer(.seconds(5), scheduler: scheduler)
        }
        #expect(once.events == [.next(45, 0), .completed(45)])
        let repeating = scheduler.start(created: 100, subscribed: 100, disposed: 121) {
            Observable<Int>.timer(.seconds(1), period: .seconds(10), scheduler: scheduler)
        }
        #expect(repeating.events == [.next(101, 0), .next(111, 1)], "the disposal at 121 comes first: it was scheduled first")
    }

    @Test func debounceWaitsForQuietAndFlushesOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let typing = scheduler.createHotObservable([
            .next(210, "s"), .next(215, "se"), .next(220, "sea"), .next(300, "sear"), .next(330, "search"), .completed(340),
        ])
        let response = scheduler.start { typing.debounce(.seconds(20), scheduler: scheduler) }
        #expect(response.events == [.next(240, "sea"), .next(320, "sear"), .next(340, "search"), .completed(340)])
    }

    @Test func throttleSendsTheFirstAtOnceThenTheLatestOfEachWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let keys = scheduler.createHotObservable([.next(210, 1), .next(212, 2), .next(215, 3), .next(250, 4), .completed(300)])
        let latest = scheduler.start { keys.throttle(.seconds(10), scheduler: scheduler) }
        #expect(latest.events == [.next(210, 1), .next(220, 3), .next(250, 4), .completed(300)])
        let keys2 = scheduler.createHotObservable([.next(1210, 1), .next(1212, 2), .next(1215, 3), .next(1250, 4)])
        let first = scheduler.start(created: 1000, subscribed: 1000, disposed: 2000) {
            keys2.throttle(.seconds(10), latest: false, scheduler: scheduler)
        }
        #expect(first.events == [.next(1210, 1), .next(1250, 4)])
    }

    @Test func subscribeOnSubscribesOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var subscribedAt: [Int] = []
        let source = Observable<Int>.deferred {
            subscribedAt.append(scheduler.clock)
            return .just(1)
        }
        let response = scheduler.start { source.subscribe(on: scheduler) }
        #expect(subscribedAt == [201], "a tick after the subscription, as work for now runs on RxTest's scheduler")
        #expect(response.events == [.next(201, 1), .completed(201)])
    }

    @Test func debugPassesEverythingThrough() {
        let log = EventLog(Observable.from([1, 2]).debug("numbers"))
        #expect(log.elements == [1, 2])
        #expect(log.completions == 1)
    }

    @Test func relaysNeverEndAndABehaviorRelayHoldsItsValue() {
        let publish = PublishRelay<Int>()
        let published = EventLog(publish.asObservable())
        publish.accept(1)
        publish.accept(2)
        #expect(published.elements == [1, 2])

        let behavior = BehaviorRelay(value: "a")
        let behaved = EventLog(behavior.asObservable())
        behavior.accept("b")
        #expect(behavior.value == "b")
        #expect(behaved.elements == ["a", "b"])
        let bound = Observable.from(["c", "d"]).bind(to: behavior)
        #expect(behavior.value == "d")
        #expect(!behaved.isTerminated, "the end of a bound source does not end the relay")
        bound.dispose()
    }

    @Test func genericCodeOverObservableTypeReachesTheOperators() {
        func doubled<Source: ObservableType>(_ source: Source) -> Observable<Int> where Source.Element == Int {
            source.map { $0 * 2 }.filter { $0 > 2 }
        }
        let subject = PublishSubject<Int>()
        let log = EventLog(doubled(subject))
        subject.onNext(1)
        subject.onNext(2)
        #expect(log.elements == [4])
    }
}

@Suite("The main event loop", .serialized)
struct EventLoopTests {
    @Test func timersRunInDueOrderAndCancelledOnesNever() {
        let loop = EventLoop()
        var log: [String] = []
        loop.schedule(after: .milliseconds(20)) { log.append("b"); loop.stop() }
        loop.schedule(after: .milliseconds(5)) { log.append("a") }
        let cancelled = loop.schedule(after: .milliseconds(10)) { log.append("cancelled") }
        cancelled.dispose()
        loop.run()
        #expect(log == ["a", "b"])
    }

    @Test func workQueuedFromAnotherThreadWakesASleepingLoop() {
        let loop = EventLoop()
        let ran = UncheckedSendable(BooleanDisposable())
        let started = loop.now
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { [loop = UncheckedSendable(loop)] in
            loop.value.enqueue {
                ran.value.dispose()
                loop.value.stop()
            }
        }
        loop.run()
        #expect(ran.value.isDisposed)
        #expect(loop.now - started < .seconds(5))
    }

    @Test func aWatchedDescriptorIsReadOnTheLoopWhenReady() {
        let loop = EventLoop()
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var received: [UInt8] = []
        let watch = loop.watch(descriptor: ends[0]) {
            var byte: UInt8 = 0
            if read(ends[0], &byte, 1) == 1 { received.append(byte) }
            if received.count == 2 { loop.stop() }
        }
        var bytes: [UInt8] = [7, 9]
        _ = write(ends[1], &bytes, 2)
        loop.run()
        #expect(received == [7, 9])
        watch.dispose()
    }

    @Test func anIdleTurnSleepsUntilItsTimeout() {
        let loop = EventLoop()
        let started = loop.now
        loop.runOnce(timeout: .milliseconds(30))
        #expect(loop.now - started >= .milliseconds(25), "poll slept instead of spinning")
    }

    @Test func theMainSchedulerRunsAtOnceOnTheMainThreadAndQueuesFromElsewhere() async {
        // Swift Testing runs this test off the main thread: the action is queued for the loop.
        #expect(!MainScheduler.isMainThread)
        var ran = false
        MainScheduler.instance.schedule { ran = true }
        #expect(!ran)
        MainScheduler.instance.loop.runOnce(timeout: .zero)
        #expect(ran)
        var delayed = false
        let loop = MainScheduler.instance.loop
        let started = loop.now
        MainScheduler.instance.schedule(after: .milliseconds(5)) { delayed = true }
        // The first turn may wake for the timer's own wake-up byte; the timer runs in a later one.
        while !delayed && loop.now - started < .seconds(5) { loop.runOnce(timeout: .milliseconds(50)) }
        #expect(delayed)
        #expect(loop.now - started >= .milliseconds(5))
    }
}
