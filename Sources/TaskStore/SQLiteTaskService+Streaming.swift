import ReactorCore
import SQLiteDB
import TaskModel

// MARK: - A batch of new tasks too large to hold

extension SQLiteTaskService {
    /// The error a draft source threw, carried out of the transaction unchanged (it is the
    /// input's fault, not the storage's).
    struct SourceFailure: Error {
        let error: any Error
    }

    /// How many of a streamed batch's tasks are announced as events, at most; a larger batch
    /// is announced in full only to a listener that can hold it (`isHeard`), and is confirmed
    /// by its first rows.
    static let confirmedRows = 10

    public func create(streaming source: @escaping TaskDraftSource, checkedCount: Int?) -> Observable<TaskCreationProgress> {
        .create { [unowned self] observer in
            do {
                _ = try open(creatingFile: true)
                let (committed, events) = try createStreamingNow(source, checkedCount: checkedCount) { observer.onNext(.written($0)) }
                announce(events)
                observer.onNext(committed)
                observer.onCompleted()
            } catch let failure as SourceFailure {
                observer.onError(failure.error)
            } catch {
                observer.onError(StorageFailure.translate(error, path: path))
            }
            return Disposables.create()
        }
    }

    /// Reads drafts from `source` and inserts them a hundred rows per INSERT, in one
    /// transaction. `progress` hears the rows written, every 10,000.
    ///
    /// A source that may still fail (`checkedCount` nil) is written through the WAL, so that a
    /// failure at its last line leaves the database file exactly as it was: the switch to a
    /// rollback journal rewrites the file's header even when the batch is rolled back. A source
    /// checked to its end is a known batch (`bulkWrite`): from 10,000 rows, through a rollback
    /// journal that writes each page once instead of into the WAL and again at the checkpoint
    /// (`add -` of 100,000 lines: 530 → 450 ms).
    func createStreamingNow(_ source: TaskDraftSource, checkedCount: Int?,
                            progress: (Int) -> Void) throws -> (TaskCreationProgress, [TaskEvent]) {
        if let checkedCount {
            return try recorded(rows: checkedCount) { entry in try createNow(source, entry, progress: progress) }
        }
        // A page cache of 16 MB keeps the two indexes' growing right edges in memory; the
        // table's pages go out as they fill. Each INSERT's statement journal (the pages it
        // changes that earlier ones changed too, kept so that it alone can be undone: the
        // title's CHECK makes SQLite keep one) stays in memory: past 64 KB it went to a
        // temporary file, 76 MB in 39,000 writes for 100,000 lines. SQLite decides where it
        // goes when the transaction begins, so this comes first.
        try db.execute("PRAGMA cache_size = -16384; PRAGMA temp_store = MEMORY")
        defer { try? db.execute("PRAGMA cache_size = -2000; PRAGMA temp_store = DEFAULT") }
        return try recorded { entry in try createNow(source, entry, progress: progress) }
    }

    /// The drafts of `source` inserted, in the transaction `entry` records.
    private func createNow(_ source: TaskDraftSource, _ entry: EntryRecorder,
                           progress: (Int) -> Void) throws -> ((TaskCreationProgress, [TaskEvent]), summary: String) {
        let heard = isHeard
        let time = now()
        var bottoms: [String: Int64] = [:]
        var chunk: [Task] = []
        chunk.reserveCapacity(Self.rowsPerInsert)
        var head: [Task] = []
        var events: [TaskEvent] = []
        var runs: [ClosedRange<Int64>] = []
        var count = 0
        // Past `SearchIndex.deferredFrom` rows, the rest are indexed once at the end.
        var indexedLater: Int64?
        func flush() throws {
            if indexedLater == nil && count >= SearchIndex.deferredFrom { indexedLater = try SearchIndex.deferInserts(db) }
            try insert(&chunk)
            for task in chunk {
                if let last = runs.last, last.upperBound + 1 == task.id {
                    runs[runs.count - 1] = last.lowerBound...task.id
                } else {
                    runs.append(task.id...task.id)
                }
            }
            if head.count < Self.confirmedRows { head += chunk.prefix(Self.confirmedRows - head.count) }
            if heard { events += chunk.map(TaskEvent.create) }
            let before = count
            count += chunk.count
            chunk.removeAll(keepingCapacity: true)
            if count / 10_000 > before / 10_000 { progress(count) }
        }
        while true {
            let next: TaskDraft?
            do {
                next = try source()
            } catch {
                throw SourceFailure(error: error)
            }
            guard let draft = next else { break }
            chunk.append(try newTask(draft, at: time, bottoms: &bottoms))
            if chunk.count == Self.rowsPerInsert { try flush() }
        }
        if !chunk.isEmpty { try flush() }
        if let indexedLater { try SearchIndex.fill(db, fromID: indexedLater) }
        for run in runs { try entry.created(run: run) }
        let summary = count == 1 ? Summary.of("added", head) : "added " + Summary.count(count, "task")
        return ((.committed(first: runs.first?.lowerBound ?? 0, count: count, head: head), events), summary)
    }
}
