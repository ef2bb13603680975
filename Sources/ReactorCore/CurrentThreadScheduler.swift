#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs work on the calling thread; work scheduled from inside scheduled work is queued and
/// runs after it (a trampoline), so that recursion becomes a loop.
///
/// A delayed action blocks the calling thread until it is due, as in RxSwift: use a
/// `SerialQueueScheduler` or a `TestScheduler` for real delays.
public final class CurrentThreadScheduler: SchedulerType, @unchecked Sendable {
    /// The one instance; its queue is per thread.
    public static let instance = CurrentThreadScheduler()

    private let epoch = MonotonicInstant.now

    private init() {}

    public var now: Duration { MonotonicInstant.now - epoch }

    /// Whether the calling thread is inside scheduled work (its queue is being drained).
    public var isScheduleRequired: Bool { TrampolineQueue.current == nil }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        let cancel = BooleanDisposable()
        if let queue = TrampolineQueue.current {
            queue.items.append((cancel, action))
            return cancel
        }
        let queue = TrampolineQueue()
        TrampolineQueue.current = queue
        defer { TrampolineQueue.current = nil }
        action()
        while !queue.items.isEmpty {
            let (token, next) = queue.items.removeFirst()
            if !token.isDisposed { next() }
        }
        return cancel
    }

    @discardableResult
    public func schedule(after dueTime: Duration, _ action: @escaping () -> Void) -> any Disposable {
        schedule {
            (MonotonicInstant.now + dueTime).sleepUntil()
            action()
        }
    }
}

/// The per-thread queue of the trampoline, kept in a pthread key.
final class TrampolineQueue {
    var items: [(BooleanDisposable, () -> Void)] = []

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: TrampolineQueue? {
        get {
            guard let raw = pthread_getspecific(key) else { return nil }
            return Unmanaged<TrampolineQueue>.fromOpaque(raw).takeUnretainedValue()
        }
        set {
            if let old = pthread_getspecific(key) {
                Unmanaged<TrampolineQueue>.fromOpaque(old).release()
            }
            let raw = newValue.map { Unmanaged.passRetained($0).toOpaque() }
            pthread_setspecific(key, raw)
        }
    }
}
