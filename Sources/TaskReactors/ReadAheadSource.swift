#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TaskModel

/// A source read on a thread of its own, a batch or two of records ahead of the import that
/// takes them: reading and checking a record (our JSON: a third of an import's instructions)
/// runs on the second core while SQLite writes the records before it. What the import sees
/// is the same as reading `source` itself: the same records with the same numbers, in order,
/// then the end or the error `source` threw, where it threw it.
///
/// The thread starts at the first `next()`, so `expectedCount` asked before it (all the
/// import asks) is the source's own; after, it is the count at the start. When the import
/// stops early (a uuid given twice, a failed write), the thread is told to stop and does at
/// its next hand-off; it is not waited for, so a pipe whose writer is idle cannot hold the
/// failed import. It owns `source` from its start. When no thread can be made, the records
/// are read on the caller's thread as before.
final class ReadAheadSource: TaskRecordSource {
    typealias Next = (record: TaskRecord, number: Int)

    let unit: String
    var expectedCount: Int { startCount ?? source.expectedCount }
    private let source: any TaskRecordSource
    private var startCount: Int?
    private var queue: Queue?
    private var batch: [Next] = []
    private var index = 0
    private var inline = false

    /// Records handed over at a time, and batches ready at most: one batch waits while the
    /// next is read and the one before is written. Measured at 300,000 records
    /// (docs/benchmark-notes.md): smaller batches spend the time in hand-offs (16 a batch:
    /// slower than reading on one thread); more batches waiting made the peak memory grow
    /// with the input (2 or 8 waiting: 64–170 MB against 46).
    static let batchSize = 256
    static let batchesAhead = 1

    init(_ source: any TaskRecordSource) {
        self.source = source
        unit = source.unit
    }

    deinit { queue?.cancel() }

    func next() throws -> Next? {
        if index < batch.count {
            defer { index += 1 }
            return batch[index]
        }
        if inline { return try source.next() }
        if queue == nil {
            startCount = source.expectedCount
            guard let started = Queue.start(reading: source) else {
                inline = true
                return try source.next()
            }
            queue = started
        }
        guard let queue, let taken = try queue.take(), !taken.isEmpty else { return nil }
        batch = taken
        index = 1
        return batch[0]
    }

    /// The batches between the reading thread and the import, under one mutex: the reader
    /// waits while `batchesAhead` are ready, the import while none is.
    final class Queue: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var ready: [[Next]] = []
        private var head = 0
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
            while ready.count - head >= ReadAheadSource.batchesAhead && !cancelled { pthread_cond_wait(changed, mutex) }
            guard !cancelled else { return false }
            ready.append(batch)
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
            while head == ready.count && ending == nil { pthread_cond_wait(changed, mutex) }
            if head < ready.count {
                let batch = ready[head]
                head += 1
                if head == ready.count {
                    ready.removeAll(keepingCapacity: true)
                    head = 0
                }
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
            ready.removeAll()
            head = 0
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
            batch.reserveCapacity(ReadAheadSource.batchSize)
            do {
                while let next = try source.next() {
                    batch.append(next)
                    if batch.count == ReadAheadSource.batchSize {
                        guard queue.put(batch) else { return }
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty { guard queue.put(batch) else { return } }
                queue.end(nil)
            } catch {
                if !batch.isEmpty { guard queue.put(batch) else { return } }
                queue.end(error)
            }
        }
    }
}
