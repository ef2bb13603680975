import QueryLanguage
import SQLiteDB
import TaskModel

// MARK: - Importing by uuid

extension SQLiteTaskService {
    /// Imports `records` in one transaction; returns what it did and the events to announce.
    func importNow(_ records: [TaskRecord]) throws -> (TaskImportResult, [TaskEvent]) {
        try importNow(from: TaskBatchSource(TaskImportBatch(records: records)), streamed: false)
    }

    /// Imports the records `source` gives, taking each as it is written, in one transaction.
    /// A record whose uuid is there updates that task (or, the same in every field, is left
    /// alone); any other is inserted, a hundred rows per INSERT, keeping its id when the file
    /// has never used it. A uuid the source gave twice is refused, naming both records: found
    /// by the lookup, by the rows waiting to be inserted, or — into an empty file, where no
    /// record is looked up — by the unique index. Memory: the record at hand, a hundred
    /// waiting rows and the new tasks' ids with their records' numbers (for the history's runs
    /// of ids and for
    /// naming a record given twice), kept as runs: an export imported is one run); events
    /// only when someone listens.
    /// `streamed`: the source is read while it writes (see `bulkWrite`); a batch read whole
    /// and checked before is not.
    func importNow(from source: any TaskRecordSource, streamed: Bool = true) throws -> (TaskImportResult, [TaskEvent]) {
        try recorded(rows: max(source.expectedCount, 1), streamed: streamed) { entry in
            let time = now()
            var result = TaskImportResult()
            let listening = isHeard
            var events: [TaskEvent] = []
            var waits = false
            var bottoms: [String: Int64] = [:]
            func bottom(of list: String) throws -> Int64 {
                let last = try bottoms[list] ?? db.scalar("SELECT max(position) FROM task WHERE list = ?", list) ?? 0
                let next = Self.position(last, steppedBy: 1)
                bottoms[list] = next
                return next
            }
            // An empty table needs no lookups: every record is new (a uuid given twice is
            // then the unique index's to find).
            let isEmpty = try db.scalar("SELECT count(*) FROM (SELECT 1 FROM task LIMIT 1)") == 0
            // The last id given out, counted as SQLite's AUTOINCREMENT counts it: the larger of
            // its counter and the table's largest id (another tool can lower the counter; read
            // alone, it once made an import give out an id a row held, and fail).
            var lastID = try db.scalar("""
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'task'), 0),
                           coalesce((SELECT max(id) FROM task), 0))
                """) ?? 0
            let firstNewID = lastID + 1
            // So a new task whose id is the one after the last given out is inserted with a
            // NULL id: SQLite gives it the same one, without first looking for a row holding it
            // (2% of the import's writing). New ids only rise: the largest is the last inserted.
            var largestID = lastID
            // A large import indexes its new tasks for search once at the end (existing tasks
            // it updates are reindexed by their trigger).
            let indexedLater = try source.expectedCount >= SearchIndex.deferredFrom ? SearchIndex.deferInserts(db) : nil
            let lookup = try db.prepare("SELECT \(TaskColumn.names) FROM task WHERE uuid = ?")
            var pending: [Task] = []
            var pendingNumbers: [Int] = []
            var created = NewTaskRuns()
            // The records that say their task is deleted (Taskwarrior's `status:deleted`): made
            // or changed as any other, then deleted into their tombstones.
            var deletions: [(task: Task?, id: Int64, uuid: String, at: Timestamp)] = []
            pending.reserveCapacity(Self.rowsPerInsert)
            func firstNumber(ofNew id: Int64) -> Int { created.number(ofID: id) ?? 0 }
            func flush() throws {
                do {
                    try insert(&pending, largestID: largestID)
                } catch let error as SQLiteError where error.code == .constraint {
                    throw try duplicate(in: pending, numbers: pendingNumbers, unit: source.unit, firstOf: firstNumber(ofNew:)) ?? error
                }
                if let last = pending.last { largestID = last.id }
                pending.removeAll(keepingCapacity: true)
                pendingNumbers.removeAll(keepingCapacity: true)
            }
            while let (record, number) = try source.next() {
                var existing: Task?
                // (A uuid given twice among the rows waiting to be inserted is found by the
                // unique index when they are.)
                if let uuid = record.uuid {
                    if !isEmpty {
                        lookup.reset()
                        try lookup.bind(text: uuid, at: 1)
                        if try lookup.step() { existing = TaskColumn.decode(lookup) }
                    }
                    if let made = existing, made.id >= firstNewID {
                        throw TaskFieldError.inRecord(source.unit, number, .duplicateUUID(uuid, first: firstNumber(ofNew: made.id)))
                    }
                }
                var id = Int64(0)
                if existing == nil {
                    // An id the file has never used is kept (a lossless round trip into an
                    // empty file); a used one is never given out again.
                    if let wanted = record.id, wanted > lastID { id = wanted } else { id = lastID + 1 }
                    lastID = id
                }
                let uuid = record.uuid ?? makeUUID()
                let list = record.fields.list
                let deleted = record.fields.isDeleted
                if deleted, existing == nil, try hasTombstone(uuid) {
                    result.unchanged += 1  // deleted here too: its tombstone is left as it is
                    continue
                }
                var task = try (consume record).task(over: existing, id: id, uuid: uuid, bottom: try bottom(of: list), now: time)
                task.isDeleted = false
                if !task.depends.isEmpty { waits = true }
                if deleted { deletions.append((existing == nil || !listening ? nil : task, task.id, task.uuid, task.modified)) }
                if let existing {
                    if task == existing {
                        result.unchanged += deleted ? 0 : 1
                    } else {
                        try overwrite(task)
                        try entry.changed(from: existing, to: task)
                        result.updated += deleted ? 0 : 1
                        if listening { events.append(.update(task)) }
                    }
                } else {
                    created.append(id: task.id, number: number)
                    result.created += deleted ? 0 : 1
                    if listening && !deleted { events.append(.create(task)) }
                    pending.append(consume task)  // moved, not copied: a task is some thirty strings and arrays
                    pendingNumbers.append(number)
                    if pending.count == Self.rowsPerInsert { try flush() }
                }
            }
            try flush()
            // A ring of dependencies is refused as `edit` refuses one (then nothing is imported).
            if waits { try checkNoCycles() }
            if let indexedLater { try SearchIndex.fill(db, fromID: indexedLater) }
            for run in created.idRuns { try entry.created(run: run) }
            for deletion in deletions {
                if let task = deletion.task { events.append(.delete(task)) }  // a listed task now deleted
                try entry.delete(run: deletion.id...deletion.id, uuid: deletion.uuid, tombstone: true, removed: deletion.at)
                result.deleted += 1
            }
            try keep(source.kept)
            let count = result.created + result.updated
            return ((result, events), "imported \(Summary.count(count, "task"))")
        }
    }

    /// Whether the task of `uuid` is deleted: its tombstone kept.
    private func hasTombstone(_ uuid: String) throws -> Bool {
        try db.scalar("SELECT count(*) FROM deleted_task AS d WHERE d.uuid = ? AND \(TaskQuerySQL.tombstone("d"))", arguments: [uuid]) ?? 0 > 0
    }

    /// Which waiting row's uuid is there already (or twice among them), as the error that
    /// names both records; nil when none is (the constraint was another).
    private func duplicate(in pending: [Task], numbers: [Int], unit: String, firstOf: (Int64) -> Int) throws -> TaskFieldError? {
        var seen: [String: Int] = [:]
        let lookup = try db.prepare("SELECT id FROM task WHERE uuid = ?")
        for (index, task) in pending.enumerated() {
            if let first = seen[task.uuid] { return .inRecord(unit, numbers[index], .duplicateUUID(task.uuid, first: first)) }
            seen[task.uuid] = numbers[index]
            lookup.reset()
            try lookup.bind(text: task.uuid, at: 1)
            if try lookup.step() { return .inRecord(unit, numbers[index], .duplicateUUID(task.uuid, first: firstOf(lookup.int64(0)))) }
        }
        return nil
    }
}

/// The tasks an import made, as runs of consecutive ids read from consecutive records: a
/// whole export imported is one run, where an array of ids and numbers took 16 MB a million.
struct NewTaskRuns {
    private var runs: [(id: Int64, number: Int, count: Int64)] = []

    mutating func append(id: Int64, number: Int) {
        if let last = runs.last, last.id + last.count == id, last.number + Int(last.count) == number {
            runs[runs.count - 1].count += 1
        } else {
            runs.append((id, number, 1))
        }
    }

    /// The number of the record that made the task `id`.
    func number(ofID id: Int64) -> Int? {
        guard let run = runs.first(where: { $0.id <= id && id < $0.id + $0.count }) else { return nil }
        return run.number + Int(id - run.id)
    }

    /// The ids, in order, as ranges of consecutive ones (what the history records).
    var idRuns: [ClosedRange<Int64>] {
        var merged: [ClosedRange<Int64>] = []
        for run in runs.sorted(by: { $0.id < $1.id }) {
            let range = run.id...(run.id + run.count - 1)
            if let last = merged.last, last.upperBound + 1 == range.lowerBound {
                merged[merged.count - 1] = last.lowerBound...range.upperBound
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
