import Synchronization

/// Runs a reactor's work one item at a time, first come first served: an action, or a
/// mutation that arrives while another is being handled — from `reduce`, from a state
/// subscriber, or from another thread — is queued and run after it, never interleaved.
///
/// A mutation of the action being handled, arriving on the handling thread outside `reduce`,
/// runs at once: that is what makes `currentState` hold the reduced state as soon as
/// `action.onNext` returns. The owner is a thread token that only the owner clears, so the
/// owner's own check needs no lock.
final class SerialGate<Action, Mutation>: @unchecked Sendable {
    enum Work {
        case action(Action)
        case mutation(Mutation)
    }

    /// Set by the owner while it reduces and emits: what arrives then waits its turn.
    var isReducing = false
    private let lock = Lock()
    private let owner = Atomic<UInt>(0)
    private var pending: [Work] = []
    private var head = 0

    /// Performs `work` now, then whatever was queued meanwhile; or queues it for the thread
    /// inside the gate.
    @inline(__always)
    func run(_ work: Work, _ perform: (Work) -> Void) {
        let me = threadToken()
        if owner.load(ordering: .relaxed) == me {
            if case .mutation = work, !isReducing {
                perform(work)
            } else {
                lock.withLock { pending.append(work) }
            }
            return
        }
        lock.lock()
        if owner.load(ordering: .relaxed) != 0 {
            pending.append(work)
            lock.unlock()
            return
        }
        owner.store(me, ordering: .relaxed)
        lock.unlock()
        perform(work)
        drain(perform)
    }

    /// Runs the queue empty, then leaves the gate.
    private func drain(_ perform: (Work) -> Void) {
        while true {
            lock.lock()
            if head == pending.count {
                if head > 0 {
                    pending.removeAll(keepingCapacity: true)
                    head = 0
                }
                owner.store(0, ordering: .relaxed)
                lock.unlock()
                return
            }
            let work = pending[head]
            head += 1
            lock.unlock()
            perform(work)
        }
    }
}
