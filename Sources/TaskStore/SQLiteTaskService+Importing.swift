import SQLiteDB
import TaskModel

// MARK: - Importing by uuid

extension SQLiteTaskService {
    /// Imports `records` in one transaction; returns what it did and the events to announce.
    /// A record whose uuid is there updates that task (or, the same in every field, is left
    /// alone); any other is inserted, a hundred rows per INSERT, keeping its id when the file
    /// has never used it.
    func importNow(_ records: [TaskRecord]) throws -> (TaskImportResult, [TaskEvent]) {
        try recorded(rows: records.count) { entry in
            let time = now()
            var result = TaskImportResult()
            var events: [TaskEvent] = []
            events.reserveCapacity(records.count)
            var bottoms: [String: Int64] = [:]
            func bottom(of list: String) throws -> Int64 {
                let last = try bottoms[list] ?? db.scalar("SELECT max(position) FROM task WHERE list = ?", list) ?? 0
                bottoms[list] = last + Self.positionGap
                return last + Self.positionGap
            }
            // An empty table needs no lookups: every record is new.
            let isEmpty = try db.scalar("SELECT count(*) FROM (SELECT 1 FROM task LIMIT 1)") == 0
            var lastID = try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'task'") ?? 0
            // A large import indexes its new tasks for search once at the end (existing tasks
            // it updates are reindexed by their trigger).
            let indexedLater = try records.count >= SearchIndex.deferredFrom ? SearchIndex.deferInserts(db) : nil
            let lookup = try db.prepare("SELECT \(TaskColumn.names) FROM task WHERE uuid = ?")
            var pending: [Task] = []
            var createdIDs: [Int64] = []
            pending.reserveCapacity(min(records.count, Self.rowsPerInsert))
            for record in records {
                var existing: Task?
                if !isEmpty, let uuid = record.uuid {
                    lookup.reset()
                    try lookup.bind(text: uuid, at: 1)
                    if try lookup.step() { existing = TaskColumn.decode(lookup) }
                }
                var id = Int64(0)
                if existing == nil {
                    // An id the file has never used is kept (a lossless round trip into an
                    // empty file); a used one is never given out again.
                    if let wanted = record.id, wanted > lastID { id = wanted } else { id = lastID + 1 }
                    lastID = id
                }
                let task = try record.task(over: existing, id: id, uuid: record.uuid ?? makeUUID(),
                                           bottom: try bottom(of: record.fields.list), now: time)
                if let existing {
                    if task == existing {
                        result.unchanged += 1
                    } else {
                        try overwrite(task)
                        try entry.changed(from: existing, to: task)
                        result.updated += 1
                        events.append(.update(task))
                    }
                } else {
                    pending.append(task)
                    createdIDs.append(task.id)
                    result.created += 1
                    events.append(.create(task))
                    if pending.count == Self.rowsPerInsert {
                        try insert(&pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                }
            }
            try insert(&pending)
            if let indexedLater { try SearchIndex.fill(db, fromID: indexedLater) }
            try entry.created(ids: createdIDs)
            let count = result.created + result.updated
            return ((result, events), "imported \(Summary.count(count, "task"))")
        }
    }
}
