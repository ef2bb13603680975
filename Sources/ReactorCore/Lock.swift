#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A non-recursive mutex for the few places where events may arrive from several threads:
/// a `pthread_mutex_t`, locked and unlocked as a pair because the state it guards lives in the
/// owning class. (The standard library's `Mutex` has only `withLock`; its lock/unlock pair is
/// underscored API. Measured beside it, the pthread mutex costs the same within the noise —
/// docs/benchmark-notes.md, "ReactorCore without unsafe parts" — and ThreadSanitizer
/// understands it, where it reported every access a raw futex guards as a race.)
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    package init() {}

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) package func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) package func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always) package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A nonzero number that identifies the calling thread while it runs, to tell a reentrant
/// call from a call on another thread.
@inline(__always) package func threadToken() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}

/// Carries a value across a concurrency boundary whose safety the core guarantees itself
/// (a scheduler that runs one work item at a time, a task that only calls an observer).
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
