#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReactorCore

/// One thread's loop of work: queued actions, timers, and file descriptors to read when they
/// are ready, waited for with `poll(2)` — no busy polling: an idle loop sleeps in the kernel
/// until a descriptor is readable, a timer is due, or another thread queues work (which
/// writes a byte to the loop's own pipe to wake it).
///
/// `MainScheduler` runs the main thread's loop; `tasks ui` runs its keys, its timers, the
/// change feed and its state updates on it, so that nothing it draws ever races.
public final class EventLoop: @unchecked Sendable {
    private struct Timer {
        let deadline: Duration
        let sequence: UInt64
        let cancel: BooleanDisposable
        let action: () -> Void
    }

    private struct Watcher {
        let descriptor: Int32
        let cancel: BooleanDisposable
        let onReadable: () -> Void
    }

    private let epoch = MonotonicInstant.now
    private let lock = Lock()
    private var queue: [(cancel: BooleanDisposable, action: () -> Void)] = []
    private var timers: [Timer] = []
    private var watchers: [Watcher] = []
    private var sequence: UInt64 = 0
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var stopRequested = false
    /// Whether the loop is running work now (touched only on the loop's thread).
    private(set) var isRunningWork = false

    /// A loop with nothing to do.
    public init() {
        var ends: [Int32] = [0, 0]
        if pipe(&ends) == 0 {
            wakeRead = ends[0]
            wakeWrite = ends[1]
            for descriptor in ends {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
        }
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// The time since the loop was made.
    public var now: Duration { MonotonicInstant.now - epoch }

    // MARK: - Adding work (from any thread)

    /// Runs `action` on the loop's next turn.
    @discardableResult
    public func enqueue(_ action: @escaping () -> Void) -> any Disposable {
        let cancel = BooleanDisposable()
        lock.withLock { queue.append((cancel, action)) }
        wake()
        return cancel
    }

    /// Runs `action` on the loop once `delay` has passed.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let cancel = BooleanDisposable()
        let deadline = now + max(delay, .zero)
        lock.withLock {
            sequence += 1
            let timer = Timer(deadline: deadline, sequence: sequence, cancel: cancel, action: action)
            let index = timers.firstIndex { ($0.deadline, $0.sequence) > (deadline, timer.sequence) } ?? timers.count
            timers.insert(timer, at: index)
        }
        wake()
        return cancel
    }

    /// Runs `onReadable` on the loop each time `descriptor` has something to read (or is
    /// closed), until disposed.
    @discardableResult
    public func watch(descriptor: Int32, onReadable: @escaping () -> Void) -> any Disposable {
        let cancel = BooleanDisposable()
        lock.withLock { watchers.append(Watcher(descriptor: descriptor, cancel: cancel, onReadable: onReadable)) }
        wake()
        return Disposables.create { [weak self] in
            cancel.dispose()
            self?.wake()
        }
    }

    /// Makes `run()` return after the work it is doing.
    public func stop() {
        lock.withLock { stopRequested = true }
        wake()
    }

    private func wake() {
        guard wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already wakes the loop
    }

    // MARK: - Running (on the loop's thread)

    /// Runs turns until `stop()`.
    public func run() {
        lock.withLock { stopRequested = false }
        while !lock.withLock({ stopRequested }) {
            runOnce(timeout: nil)
        }
    }

    /// One turn: what is queued, the timers that are due, then waits — up to `timeout`, or
    /// until the next timer, or for ever when `nil` and nothing is due — for a descriptor
    /// or for work from another thread, and runs the watchers of readable descriptors.
    public func runOnce(timeout: Duration?) {
        isRunningWork = true
        defer { isRunningWork = false }
        let work = lock.withLock { () -> [(cancel: BooleanDisposable, action: () -> Void)] in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        for item in work where !item.cancel.isDisposed { item.action() }
        runDueTimers()

        var limit = timeout
        let next = lock.withLock { () -> Duration? in
            timers.removeAll { $0.cancel.isDisposed }
            return queue.isEmpty ? timers.first?.deadline : now
        }
        if let next {
            let untilNext = max(.zero, next - now)
            limit = limit.map { min($0, untilNext) } ?? untilNext
        }
        let active = lock.withLock { () -> [Watcher] in
            watchers.removeAll { $0.cancel.isDisposed }
            return watchers
        }
        var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        descriptors += active.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        let milliseconds: Int32 = limit.map { Int32(clamping: Int64(($0.seconds * 1000).rounded(.up))) } ?? -1
        isRunningWork = false
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        isRunningWork = true
        guard ready > 0 else {
            runDueTimers()
            return
        }
        if descriptors[0].revents != 0 { drainWakeUps() }
        for (index, watcher) in active.enumerated() where descriptors[index + 1].revents != 0 {
            if !watcher.cancel.isDisposed { watcher.onReadable() }
        }
        runDueTimers()
    }

    private func runDueTimers() {
        while true {
            let due = lock.withLock { () -> Timer? in
                guard let first = timers.first, first.deadline <= now else { return nil }
                return timers.removeFirst()
            }
            guard let due else { return }
            if !due.cancel.isDisposed { due.action() }
        }
    }

    private func drainWakeUps() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &bytes, bytes.count) > 0 {}
    }
}
