#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A non-recursive mutex for the few places where events may arrive from several threads.
///
/// The standard library's `Mutex` (a futex on Linux: one atomic operation when uncontended),
/// used through its lock/unlock pair because the state it guards lives in the owning class.
///
/// ThreadSanitizer does not see a raw futex as synchronization and reports every access it
/// guards as a race; build with `-Xswiftc -DPTHREAD_LOCKS` under `--sanitize=thread` to use a
/// `pthread_mutex_t`, which it understands.
final class Lock: @unchecked Sendable {
    #if PTHREAD_LOCKS
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    init() {}

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always) func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
    #else
    private let mutex = Mutex<Void>(())

    init() {}

    @inline(__always) func lock() { mutex._unsafeLock() }
    @inline(__always) func unlock() { mutex._unsafeUnlock() }

    @inline(__always) func withLock<R>(_ body: () throws -> R) rethrows -> R {
        mutex._unsafeLock()
        defer { mutex._unsafeUnlock() }
        return try body()
    }
    #endif
}

/// A nonzero number that identifies the calling thread while it runs, to tell a reentrant
/// call from a call on another thread.
@inline(__always) func threadToken() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}

/// Carries a value across a concurrency boundary whose safety the core guarantees itself
/// (a scheduler that runs one work item at a time, a task that only calls an observer).
struct UncheckedSendable<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
