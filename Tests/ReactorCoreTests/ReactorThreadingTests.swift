import Dispatch
import Testing
@testable import ReactorCore
import ReactorKitCompat

@Suite("Reactor under several threads")
struct ReactorThreadingTests {
    @Test func actionsFromManyThreadsAreReducedOneAtATimeAndNoneIsLost() {
        let reactor = ProbeReactor()
        let action = reactor.action  // the action subject is safe to share across threads
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2_000 { action.onNext(.add(1)) }
        }
        #expect(reactor.currentState.total == 16_000)
        #expect(reactor.currentState.reductions == 16_000)
        #expect(reactor.log.count == 32_000, "reduce never ran twice at once (the log would lose entries)")
    }

    @Test func mutationsDelayedOnASerialQueueAllLand() async throws {
        let reactor = ProbeReactor()
        let scheduler = SerialQueueScheduler(label: "test.mutations")
        reactor.mutateOverride = { action in
            guard case .add(let value) = action else { return .empty() }
            return Observable.just(.add(value)).delay(.microseconds(10), scheduler: scheduler)
        }
        for _ in 0..<5_000 { reactor.action.onNext(.add(1)) }
        // Wait for the queue to run everything scheduled on it, then for nothing.
        for _ in 0..<200 {
            await withCheckedContinuation { continuation in
                scheduler.queue.asyncAfter(deadline: .now() + .milliseconds(10)) {
                    continuation.resume(returning: ())
                }
            }
            if scheduler.queue.sync(execute: { reactor.currentState.total }) == 5_000 { break }
        }
        #expect(reactor.currentState.total == 5_000)
        #expect(reactor.currentState.reductions == 5_000)
    }
}
