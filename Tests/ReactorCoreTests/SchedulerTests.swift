import Dispatch
import Testing
@testable import ReactorCore

@Suite("Schedulers")
struct SchedulerTests {
    @Test func testSchedulerRunsInDueOrderOnlyWhenAdvanced() {
        let scheduler = TestScheduler()
        var log: [String] = []
        scheduler.schedule(after: .seconds(2)) { log.append("b@\(scheduler.now)") }
        scheduler.schedule(after: .seconds(1)) { log.append("a@\(scheduler.now)") }
        let cancelled = scheduler.schedule(after: .seconds(1)) { log.append("cancelled") }
        cancelled.dispose()
        #expect(log.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(log == ["a@1.0 seconds"])
        scheduler.start()
        #expect(log == ["a@1.0 seconds", "b@2.0 seconds"])
        #expect(scheduler.now == .seconds(2))
    }

    @Test func delayIsExactInVirtualTime() {
        let scheduler = TestScheduler()
        let recorder = scheduler.record(Observable.from([1, 2]).delay(.milliseconds(300), scheduler: scheduler))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(299))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.elements == [
            Recorded(time: .milliseconds(300), value: 1),
            Recorded(time: .milliseconds(300), value: 2),
        ])
        #expect(recorder.completedAt == .milliseconds(300))
    }

    @Test func disposingADelayCancelsWhatWaits() {
        let scheduler = TestScheduler()
        let recorder = scheduler.record(Observable.just(1).delay(1, scheduler: scheduler))
        recorder.dispose()
        scheduler.start()
        #expect(recorder.events.isEmpty)
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
                try await Task.sleep(for: .seconds(30))
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
