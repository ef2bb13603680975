import Dispatch
import ReactorCore

/// Runs work one item at a time on a serial dispatch queue, in the order scheduled.
public final class SerialQueueScheduler: SchedulerType, @unchecked Sendable {
    /// The queue the work runs on.
    public let queue: DispatchQueue
    private let epoch = MonotonicInstant.now

    /// A scheduler on a new serial queue named `label`.
    public convenience init(label: String, qos: DispatchQoS = .default) {
        self.init(queue: DispatchQueue(label: label, qos: qos))
    }

    /// A scheduler on `queue`, which must be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public var now: Duration { MonotonicInstant.now - epoch }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        let cancel = BooleanDisposable()
        let work = UncheckedSendable(action)
        queue.async {
            if !cancel.isDisposed { work.value() }
        }
        return cancel
    }

    @discardableResult
    public func schedule(after dueTime: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let cancel = BooleanDisposable()
        let work = UncheckedSendable(action)
        let (seconds, attoseconds) = dueTime.components
        let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
            if !cancel.isDisposed { work.value() }
        }
        return cancel
    }
}

/// RxSwift's name for a scheduler on a serial dispatch queue.
public typealias SerialDispatchQueueScheduler = SerialQueueScheduler

extension SerialQueueScheduler {
    /// A scheduler on a new serial queue of quality `qos` (RxSwift's initializer).
    public convenience init(qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial") {
        self.init(label: internalSerialQueueName, qos: qos)
    }
}
