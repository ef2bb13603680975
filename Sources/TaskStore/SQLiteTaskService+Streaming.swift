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

    public func create(streaming stream: TaskTitleStream) -> Observable<TaskCreationProgress> {
        .create { [unowned self] observer in
            do {
                _ = try open(creatingFile: true)
                let (committed, events) = try createStreamingNow(stream) { observer.onNext(.written($0)) }
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

    /// Reads titles from `stream` and inserts a task of each, a hundred rows per INSERT, in one
    /// transaction. `progress` hears the rows written, every 10,000.
    ///
    /// A stream that may still fail (`checkedCount` nil) is written through the WAL, so that a
    /// failure at its last line leaves the database file exactly as it was: the switch to a
    /// rollback journal rewrites the file's header even when the batch is rolled back. A stream
    /// checked to its end is a known batch (`bulkWrite`): from 10,000 rows, through a rollback
    /// journal that writes each page once instead of into the WAL and again at the checkpoint
    /// (`add -` of 100,000 lines: 530 → 450 ms).
    func createStreamingNow(_ stream: TaskTitleStream, progress: (Int) -> Void) throws -> (TaskCreationProgress, [TaskEvent]) {
        if let checkedCount = stream.checkedCount {
            return try recorded(rows: checkedCount) { entry in try createNow(stream, entry, progress: progress) }
        }
        // A page cache of 16 MB keeps the two indexes' growing right edges in memory; the
        // table's pages go out as they fill. Each INSERT's statement journal (the pages it
        // changes that earlier ones changed too, kept so that it alone can be undone: the
        // title's CHECK makes SQLite keep one) stays in memory: past 64 KB it went to a
        // temporary file, 76 MB in 39,000 writes for 100,000 lines. SQLite decides where it
        // goes when the transaction begins, so this comes first.
        try db.execute("PRAGMA cache_size = -16384; PRAGMA temp_store = MEMORY")
        defer { try? db.execute("PRAGMA cache_size = -2000; PRAGMA temp_store = DEFAULT") }
        return try recorded { entry in try createNow(stream, entry, progress: progress) }
    }

    /// The tasks of `stream` inserted, in the transaction `entry` records. The tasks differ
    /// only in title, uuid, position and (repeating) series, so one row is kept and those
    /// written into it before it is bound: made and copied for each title, the task was a
    /// tenth of the command (docs/benchmark-notes.md, "`add -` from one row").
    private func createNow(_ stream: TaskTitleStream, _ entry: EntryRecorder,
                           progress: (Int) -> Void) throws -> ((TaskCreationProgress, [TaskEvent]), summary: String) {
        let heard = isHeard
        let time = now()
        var row = Task(unsaved: "")
        var firstPosition: Int64 = 0
        var waiting: [(title: String, uuid: String)] = []
        waiting.reserveCapacity(Self.rowsPerInsert)
        var head: [Task] = []
        var events: [TaskEvent] = []
        var runs: [ClosedRange<Int64>] = []
        var count = 0
        // Past `SearchIndex.deferredFrom` rows, the rest are indexed once at the end.
        var indexedLater: Int64?
        func flush() throws {
            if indexedLater == nil && count >= SearchIndex.deferredFrom { indexedLater = try SearchIndex.deferInserts(db) }
            let first = try insertRows(waiting.count) { index, insert, parameter in
                set(waiting[index], number: count + index)
                try TaskColumn.bind(row, to: insert, from: parameter)
            }
            let last = first + Int64(waiting.count) - 1
            if let run = runs.last, run.upperBound + 1 == first { runs[runs.count - 1] = run.lowerBound...last } else { runs.append(first...last) }
            for index in waiting.indices where heard || head.count < Self.confirmedRows {
                set(waiting[index], number: count + index)
                row.id = first + Int64(index)
                if head.count < Self.confirmedRows { head.append(row) }
                if heard { events.append(.create(row)) }
            }
            row.id = 0  // bound NULL: SQLite gives each row its id
            let before = count
            count += waiting.count
            waiting.removeAll(keepingCapacity: true)
            if count / 10_000 > before / 10_000 { progress(count) }
        }
        /// The row as the `number`th task (0-based) of the batch.
        func set(_ task: (title: String, uuid: String), number: Int) {
            row.title = task.title
            row.uuid = task.uuid
            row.position = Self.position(firstPosition, steppedBy: Int64(number))
            if row.repeat != nil { row.series = task.uuid }
        }
        while true {
            let next: String?
            do {
                next = try stream.titles()
            } catch {
                throw SourceFailure(error: error)
            }
            guard let title = next else { break }
            if count == 0 && waiting.isEmpty {
                // The first task is made as any new one is; the others differ from it only in
                // what `set` writes.
                var draft = stream.template
                draft.fields.title = title
                draft.uuid = nil
                var bottoms: [String: Int64] = [:]
                row = try newTask(draft, at: time, bottoms: &bottoms)
                firstPosition = row.position
                waiting.append((title, row.uuid))
            } else {
                waiting.append((title, makeUUID()))
            }
            if waiting.count == Self.rowsPerInsert { try flush() }
        }
        if !waiting.isEmpty { try flush() }
        if let indexedLater { try SearchIndex.fill(db, fromID: indexedLater) }
        for run in runs { try entry.created(run: run) }
        let summary = count == 1 ? Summary.of("added", head) : "added " + Summary.count(count, "task")
        return ((.committed(first: runs.first?.lowerBound ?? 0, count: count, head: head), events), summary)
    }
}
