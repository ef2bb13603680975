import CReactorSupport
import ReactorCore
import Synchronization

/// The main thread's event loop as a scheduler (RxSwift's `MainScheduler`).
///
/// `schedule` called on the main thread when no other action of this scheduler is queued or
/// running runs the action at once, as RxSwift's does; otherwise the action is queued for the
/// loop's next turn. `asyncInstance` always queues. Timers and watched descriptors run on the loop.
/// Nothing runs until the main thread runs the loop (`run()`, or `runOnce` in a test).
public final class MainScheduler: SchedulerType, @unchecked Sendable {
    /// The main thread's scheduler.
    public static let instance = MainScheduler(alwaysQueues: false)
    /// The main thread's scheduler that never runs an action at once.
    public static let asyncInstance = MainScheduler(alwaysQueues: true)

    /// The loop both instances run on.
    public let loop: EventLoop
    private let alwaysQueues: Bool
    /// Actions queued or running: RxSwift's `numberEnqueued`.
    private let inFlight = Atomic<Int>(0)

    private static let mainLoop = EventLoop()

    private init(alwaysQueues: Bool) {
        self.alwaysQueues = alwaysQueues
        loop = MainScheduler.mainLoop
    }

    /// Whether the calling thread is the main thread.
    public static var isMainThread: Bool { creactorsupport_is_main_thread() != 0 }

    public var now: Duration { loop.now }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        let before = inFlight.add(1, ordering: .acquiringAndReleasing).oldValue
        if !alwaysQueues && before == 0 && MainScheduler.isMainThread {
            action()
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
            return Disposables.create()
        }
        // Cancelling skips the action, not the count.
        let cancel = BooleanDisposable()
        loop.enqueue { [self] in
            if !cancel.isDisposed { action() }
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
        }
        return cancel
    }

    @discardableResult
    public func schedule(after dueTime: Duration, _ action: @escaping () -> Void) -> any Disposable {
        loop.schedule(after: dueTime, action)
    }
}
