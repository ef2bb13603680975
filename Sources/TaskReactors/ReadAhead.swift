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
/// import asks) is the source's own; after, it is the count at the start.
final class ReadAheadSource: TaskRecordSource {
    let unit: String
    var expectedCount: Int { startCount ?? source.expectedCount }
    private let source: any TaskRecordSource
    private let ahead: ReadAhead<(record: TaskRecord, number: Int)>
    private var startCount: Int?

    init(_ source: any TaskRecordSource) {
        self.source = source
        unit = source.unit
        ahead = ReadAhead { try source.next() }
    }

    func next() throws -> (record: TaskRecord, number: Int)? {
        if startCount == nil { startCount = source.expectedCount }
        return try ahead.next()
    }
}

/// What `read` gives, read on a thread of its own a batch ahead of the caller: the same
/// elements in order, then the end (nil, and nil after) or the error `read` threw, where it
/// threw it. Used where reading and checking the input is a large share of a bulk write
/// (`tasks import`, `tasks add -`): the second core reads while SQLite writes.
///
/// The thread starts at the first `next()`; from then it alone calls `read`. When the caller
/// stops early (a uuid given twice, a failed write) and drops this, the thread is told to
/// stop and does at its next hand-off, letting `read` and what it holds go; it is not waited
/// for, so a pipe whose writer is idle cannot hold the failed command. When no thread can be
/// made, `read` is called on the caller's thread as before.
final class ReadAhead<Element> {
    typealias Read = () throws -> Element?

    /// `read` until the thread starts; then nil, or `inline` when no thread could be made.
    private var read: Read?
    private var inline: Read?
    private var queue: Queue?
    private var batch: [Element] = []

    /// Elements handed over at a time, and batches ready at most: one batch waits while the
    /// next is read and the one before is written. Measured at 300,000 records
    /// (docs/benchmark-notes.md): smaller batches spend the time in hand-offs (16 a batch:
    /// slower than reading on one thread); more batches waiting made the peak memory grow
    /// with the input (2 or 8 waiting: 64–170 MB against 46).
    static var batchSize: Int { 256 }
    static var batchesAhead: Int { 1 }

    init(_ read: @escaping Read) {
        self.read = read
    }

    deinit { queue?.cancel() }

    func next() throws -> Element? {
        // A batch comes reversed: its next element is its last, moved out without a copy.
        if let element = batch.popLast() { return element }
        if let read {
            self.read = nil
            if let started = Queue.start(reading: read) { queue = started } else { inline = read }
        }
        if let inline { return try inline() }
        guard let queue, let taken = try queue.take() else { return nil }
        batch = taken
        return batch.popLast()
    }

    /// The batches between the reading thread and the import, under one mutex: the reader
    /// waits while `batchesAhead` are ready, the import while none is.
    final class Queue: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var ready: [[Element]] = []
        private var head = 0
        /// Set once the reader is done: nil at the end, or what `read` threw.
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

        /// A queue with a detached thread reading `read` into it; nil when no thread could be
        /// made.
        static func start(reading read: @escaping Read) -> Queue? {
            let queue = Queue()
            let work = Unmanaged<ThreadBody>.passRetained(Reader(queue: queue, read: read))
            #if canImport(Darwin)
            var thread: pthread_t?
            #else
            var thread = pthread_t()
            #endif
            let made = pthread_create(&thread, nil, { context in
                guard let context else { return nil }
                Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
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
        func put(_ batch: [Element]) -> Bool {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while ready.count - head >= ReadAhead.batchesAhead && !cancelled { pthread_cond_wait(changed, mutex) }
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
        func take() throws -> [Element]? {
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

    /// What the thread runs: `read` into batches until its end, its error, or the caller's
    /// stopping.
    private final class Reader: ThreadBody, @unchecked Sendable {
        let queue: Queue
        let read: Read

        init(queue: Queue, read: @escaping Read) {
            self.queue = queue
            self.read = read
        }

        override func run() {
            var batch: [Element] = []
            batch.reserveCapacity(ReadAhead.batchSize)
            do {
                while let next = try read() {
                    batch.append(next)
                    if batch.count == ReadAhead.batchSize {
                        guard hand() else { return }
                    }
                }
                if !batch.isEmpty { guard hand() else { return } }
                queue.end(nil)
            } catch {
                if !batch.isEmpty { guard hand() else { return } }
                queue.end(error)
            }

            /// Hands `batch` over reversed (the taker pops its elements from the end) and
            /// starts the next; false when the caller has stopped taking.
            func hand() -> Bool {
                batch.reverse()
                let handed = queue.put(batch)
                batch = []
                batch.reserveCapacity(ReadAhead.batchSize)
                return handed
            }
        }
    }
}

/// What a thread made by `pthread_create` runs: a class without generic parameters, because
/// the C function the thread starts in cannot capture them.
class ThreadBody {
    func run() {}
}
