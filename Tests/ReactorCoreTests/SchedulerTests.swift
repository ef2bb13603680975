import Dispatch
import Testing
@testable import ReactorCore
import ReactorKitCompat

@Suite("Schedulers")
struct SchedulerTests {
    @Test func testSchedulerRunsInDueOrderOnlyWhenAdvanced() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        scheduler.schedule(after: .seconds(2)) { log.append("b@\(scheduler.clock)") }
        scheduler.schedule(after: .seconds(1)) { log.append("a@\(scheduler.clock)") }
        let cancelled = scheduler.schedule(after: .seconds(1)) { log.append("cancelled") }
        cancelled.dispose()
        #expect(log.isEmpty)
        scheduler.advanceTo(1)
        #expect(log == ["a@1"])
        scheduler.start()
        #expect(log == ["a@1", "b@2"])
        #expect(scheduler.now == .seconds(2))
    }

    @Test func workForNowRunsOneTickLaterAsInRxTestUnlessTheDelayIsNotSimulated() {
        let simulated = TestScheduler(initialClock: 10)
        var at: [Int] = []
        simulated.schedule { at.append(simulated.clock) }
        simulated.scheduleAt(10) { at.append(simulated.clock) }
        simulated.start()
        #expect(at == [10, 11], "scheduleAt is exact; schedule for now runs a tick later")

        let exact = TestScheduler(initialClock: 10, simulateProcessingDelay: false)
        var exactAt: [Int] = []
        exact.schedule { exactAt.append(exact.clock) }
        exact.start()
        #expect(exactAt == [10])
    }

    @Test func aTickIsResolutionSecondsAndDelaysRoundToTheNearestTick() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        var at: [Int] = []
        scheduler.schedule(after: .milliseconds(300)) { at.append(scheduler.clock) }
        scheduler.schedule(after: .microseconds(1400)) { at.append(scheduler.clock) }
        scheduler.start()
        #expect(at == [1, 300])
        #expect(scheduler.now == .milliseconds(300))
    }

    @Test func delayIsExactInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let recorder = scheduler.createObserver(Int.self)
        let subscription = Observable.from([1, 2]).delay(.milliseconds(300), scheduler: scheduler).subscribe(recorder)
        #expect(recorder.events.isEmpty)
        scheduler.advanceTo(299)
        #expect(recorder.events.isEmpty)
        scheduler.advanceTo(300)
        #expect(recorder.events == [.next(300, 1), .next(300, 2), .completed(300)])
        subscription.dispose()
    }

    @Test func disposingADelayCancelsWhatWaits() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = scheduler.createObserver(Int.self)
        Observable.just(1).delay(1, scheduler: scheduler).subscribe(recorder).dispose()
        scheduler.start()
        #expect(recorder.events.isEmpty)
    }

    @Test func startCreatesSubscribesAndDisposesAtTheGivenTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(900, 3), .next(1100, 4), .completed(1200)])
        let response = scheduler.start { source.asObservable() }
        #expect(response.events == [.next(210, 2), .next(900, 3)], "subscribed at 200, disposed at 1000")
        #expect(source.subscriptions == [Subscription(200, 1000)])
    }

    @Test func aColdObservableStartsOverForEachSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, "a"), .completed(20, String.self)])
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        scheduler.scheduleAt(100) { _ = source.subscribe(first) }
        scheduler.scheduleAt(500) { _ = source.subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(110, "a"), .completed(120)])
        #expect(second.events == [.next(510, "a"), .completed(520)])
        #expect(source.subscriptions == [Subscription(100), Subscription(500)])
    }

    @Test func recordedEventsCompareErrorsByTheirDescription() {
        let events: [Recorded<Event<Int>>] = Recorded.events(.next(1, 1), .error(2, TestError(id: 7)))
        #expect(events == [.next(1, 1), .error(2, TestError(id: 7))])
        #expect(events != [.next(1, 1), .error(2, TestError(id: 8))])
        #expect(events.map(\.debugDescription) == ["next(1) @ 1", "error(ReactorCoreTests.TestError(id: 7)) @ 2"])
    }

    @Test func currentThreadSchedulerTrampolinesNestedWork() {
        var log: [String] = []
        CurrentThreadScheduler.instance.schedule {
            log.append("outer start")
            CurrentThreadScheduler.instance.schedule { log.append("inner") }
            log.append("outer end")
        }
        #expect(log == ["outer start", "outer end", "inner"])
        #expect(CurrentThreadScheduler.instance.isScheduleRequired)
    }

    @Test func serialQueueSchedulerDeliversInOrderOnItsQueue() async {
        let scheduler = SerialQueueScheduler(label: "test.serial")
        let values: [Int] = await withCheckedContinuation { continuation in
            let box = UncheckedSendable(continuation)
            var seen: [Int] = []
            _ = Observable.from([1, 2, 3])
                .delay(.milliseconds(5), scheduler: scheduler)
                .subscribe(onNext: { seen.append($0) }, onCompleted: { box.value.resume(returning: seen) })
        }
        #expect(values == [1, 2, 3])
    }
}

@Suite("Bridges to Swift concurrency")
struct ConcurrencyBridgeTests {
    @Test func anAsyncClosureBecomesAOneElementSequence() async throws {
        let source = Observable<Int>.fromAsync { 41 + 1 }
        var results: [Int] = []
        for try await value in source.values { results.append(value) }
        #expect(results == [42])
    }

    @Test func disposingCancelsTheTask() async throws {
        let started = AsyncStream<Void>.makeStream()
        let finished = AsyncStream<Bool>.makeStream()
        let source = Observable<Int>.fromAsync {
            started.continuation.yield()
            do {
                // Long enough that a starved test pool (2 cores, every suite at once) cannot
                // outlast it before the dispose below: only a missing cancel ends it normally.
                try await Task.sleep(for: .seconds(900))
                finished.continuation.yield(false)
            } catch {
                finished.continuation.yield(Task.isCancelled)
            }
            return 0
        }
        let subscription = source.subscribe(onNext: { _ in Issue.record("no element after disposal") })
        var startedIterator = started.stream.makeAsyncIterator()
        _ = await startedIterator.next()
        subscription.dispose()
        var finishedIterator = finished.stream.makeAsyncIterator()
        #expect(await finishedIterator.next() == true)
    }

    @Test func forAwaitSeesEveryElementAndTheError() async {
        let source = Observable<Int>.concat(.from([1, 2, 3]), .error(TestError(id: 4)))
        var seen: [Int] = []
        do {
            for try await value in source.values { seen.append(value) }
            Issue.record("the error should end the loop")
        } catch {
            #expect(error as? TestError == TestError(id: 4))
        }
        #expect(seen == [1, 2, 3])
    }

    @Test func leavingTheLoopDisposesTheSubscription() async throws {
        let subject = PublishSubject<Int>()
        try await consumeFirst(of: subject)
        // onTermination runs when the iterator goes away; give it a moment.
        for _ in 0..<100 where subject.hasObservers { await Task.yield() }
        #expect(!subject.hasObservers)
    }

    private func consumeFirst(of subject: PublishSubject<Int>) async throws {
        let stream = subject.values
        #expect(subject.hasObservers)
        subject.onNext(1)
        subject.onNext(2)
        for try await value in stream where value == 1 { break }
    }
}
