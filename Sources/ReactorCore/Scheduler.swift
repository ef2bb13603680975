/// Where and when work runs: now, after a delay, on a queue, or in virtual time.
///
/// Time is a `Duration` since the scheduler's own epoch, so that a virtual-time scheduler
/// and a real one answer the same questions.
public protocol SchedulerType: AnyObject {
    /// The time now, since this scheduler's epoch.
    var now: Duration { get }

    /// Runs `action` as soon as the scheduler can.
    @discardableResult
    func schedule(_ action: @escaping () -> Void) -> any Disposable

    /// Runs `action` once `dueTime` has passed; disposing first cancels it.
    @discardableResult
    func schedule(after dueTime: Duration, _ action: @escaping () -> Void) -> any Disposable
}
