#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-recursive mutex for the few places where events may arrive from several threads.
///
/// A class around a heap-allocated `pthread_mutex_t`, because a mutex must not move in memory
/// and Swift structs do.
final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always) func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// The identity of the calling thread, to tell a reentrant call from a call on another thread.
@inline(__always) func currentThreadID() -> pthread_t {
    pthread_self()
}

@inline(__always) func isSameThread(_ a: pthread_t, _ b: pthread_t) -> Bool {
    pthread_equal(a, b) != 0
}

/// Carries a value across a concurrency boundary whose safety the core guarantees itself
/// (a scheduler that runs one work item at a time, a task that only calls an observer).
struct UncheckedSendable<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
