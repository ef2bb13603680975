/// Where work runs: now or as soon as possible (RxSwift's `ImmediateSchedulerType`).
public protocol ImmediateSchedulerType: AnyObject {
    /// Runs `action` as soon as the scheduler can; disposing first cancels it.
    @discardableResult
    func schedule(_ action: @escaping () -> Void) -> any Disposable
}

/// Where and when work runs: now, after a delay, on a queue, on the main run loop, or in
/// virtual time (RxSwift's `SchedulerType`).
///
/// Time is a `Duration` since the scheduler's own epoch, so that a virtual-time scheduler
/// and a real one answer the same questions.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The time now, since this scheduler's epoch.
    var now: Duration { get }

    /// Runs `action` once `dueTime` has passed; disposing first cancels it.
    @discardableResult
    func schedule(after dueTime: Duration, _ action: @escaping () -> Void) -> any Disposable
}

/// RxSwift's name for a span of time: `.seconds(1)`, `.milliseconds(300)`.
public typealias RxTimeInterval = Duration

extension Duration {
    /// The span in seconds, as a `Double`.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
