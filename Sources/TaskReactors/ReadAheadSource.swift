#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import QueryLanguage
import TaskModel

/// A source read on a thread of its own, a batch ahead of the import that takes it: reading
/// and checking a record (our JSON: a third of an import's instructions) runs on the second
/// core while SQLite writes the records before it. What the import sees is the same as
/// reading `source` itself: the same records with the same numbers, in order, then the end
/// (nil, and nil after) or the error `source` threw, where it threw it.
///
/// The thread starts at the first `next()`, and from then it alone reads `source`; so
/// `expectedCount` asked before it (all the import asks) is the source's own, and after it
/// is the count at the start. When the import stops early (a uuid given twice, a failed
/// write) and drops this, the thread is told to stop and does at its next hand-off, letting
/// the source go; it is not waited for, so a pipe whose writer is idle cannot hold the failed
/// command. When no thread can be made, the source is read on the caller's thread.
final class ReadAheadSource: TaskRecordSource {
    typealias Next = (record: TaskRecord, number: Int)

    /// Records handed over at a time; one batch waits while the next is read and the one
    /// before is written. Measured at 300,000 records (docs/benchmark-notes.md): smaller
    /// batches spend the time in hand-offs (16 a batch: slower than reading on one thread);
    /// more batches waiting made the peak memory grow with the input (64–170 MB against 46).
    static let batchSize = 256

    let unit: String
    var expectedCount: Int { startCount ?? source.expectedCount }
    /// Read once every record has been handed over (the thread has finished with the source).
    var kept: [KeptRecord] { source.kept }
    private let source: any TaskRecordSource
    /// The count when the thread started (or the source began to be read inline).
    private var startCount: Int?
    /// Set once reading starts; nil when no thread could be made.
    private var queue: Queue?
    /// The batch being taken, reversed: its next record is its last, moved out without a copy.
    private var batch: [Next] = []

    init(_ source: any TaskRecordSource) {
        self.source = source
        unit = source.unit
    }

    deinit { queue?.cancel() }

    func next() throws -> Next? {
        if let next = batch.popLast() { return next }
        if startCount == nil {
            startCount = source.expectedCount
            queue = Queue.start(reading: source)
        }
        guard let queue else { return try source.next() }
        guard let taken = try queue.take() else { return nil }
        batch = taken
        return batch.popLast()
    }

    /// The one batch between the reading thread and the import, under a mutex: the reader
    /// waits while a batch is waiting, the import while none is.
    final class Queue: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var waiting: [Next]?
        /// Set once the reader is done: nil at the end, or what the source threw.
        private var ending: (any Error)??
        private var cancelled = false

        private init() {
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(changed, nil)
        }

        deinit {
            pthread_cond_destroy(changed)
            pthread_mutex_destroy(mutex)
            changed.deallocate()
            mutex.deallocate()
        }

        /// A queue with a detached thread reading `source` into it; nil when no thread could
        /// be made.
        static func start(reading source: any TaskRecordSource) -> Queue? {
            let queue = Queue()
            let work = Unmanaged.passRetained(Reader(queue: queue, source: source))
            #if canImport(Darwin)
            var thread: pthread_t?
            #else
            var thread = pthread_t()
            #endif
            let made = pthread_create(&thread, nil, { context in
                guard let context else { return nil }
                Unmanaged<Reader>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, work.toOpaque())
            guard made == 0 else {
                work.release()
                return nil
            }
            #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
            #else
            pthread_detach(thread)
            #endif
            return queue
        }

        /// Hands `batch` over, waiting for room; false when the import has stopped taking.
        func put(_ batch: [Next]) -> Bool {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while waiting != nil && !cancelled { pthread_cond_wait(changed, mutex) }
            guard !cancelled else { return false }
            waiting = batch
            pthread_cond_signal(changed)
            return true
        }

        /// The reader is done: at the end (nil), or with what the source threw.
        func end(_ error: (any Error)?) {
            pthread_mutex_lock(mutex)
            ending = .some(error)
            pthread_cond_signal(changed)
            pthread_mutex_unlock(mutex)
        }

        /// The next batch, waiting for one; nil after the last, or the source's error.
        func take() throws -> [Next]? {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while waiting == nil && ending == nil { pthread_cond_wait(changed, mutex) }
            if let batch = waiting {
                waiting = nil
                pthread_cond_signal(changed)
                return batch
            }
            if case .some(.some(let error)) = ending { throw error }
            return nil
        }

        /// The import takes no more: a reader waiting for room stops.
        func cancel() {
            pthread_mutex_lock(mutex)
            cancelled = true
            waiting = nil
            pthread_cond_signal(changed)
            pthread_mutex_unlock(mutex)
        }
    }

    /// What the thread runs: the source read into batches until its end, its error, or the
    /// import's stopping.
    private final class Reader: @unchecked Sendable {
        let queue: Queue
        let source: any TaskRecordSource

        init(queue: Queue, source: any TaskRecordSource) {
            self.queue = queue
            self.source = source
        }

        func run() {
            var batch: [Next] = []
            /// Hands `batch` over reversed (the import pops its records from the end) and
            /// starts the next; false when the import has stopped taking.
            func hand() -> Bool {
                batch.reverse()
                let handed = queue.put(batch)
                batch = []
                batch.reserveCapacity(ReadAheadSource.batchSize)
                return handed
            }
            batch.reserveCapacity(ReadAheadSource.batchSize)
            do {
                while let next = try source.next() {
                    batch.append(next)
                    if batch.count == ReadAheadSource.batchSize { guard hand() else { return } }
                }
                if !batch.isEmpty { guard hand() else { return } }
                queue.end(nil)
            } catch {
                if !batch.isEmpty { guard hand() else { return } }
                queue.end(error)
            }
        }
    }
}
