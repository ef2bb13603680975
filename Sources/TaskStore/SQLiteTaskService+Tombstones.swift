import QueryLanguage
import ReactorCore
import SQLiteDB
import TaskModel

// MARK: - Deleted tasks, kept

/// A deleted task is kept as its tombstone — the row its delete kept (`deleted_task`, with
/// `tombstone = 1`) — as Taskwarrior keeps deleted tasks until they are purged: read by a
/// filter that names `status:deleted` (`TaskQuerySQL.source`), brought back by `undelete`,
/// let go by `purge`. Each is one history entry, which `undo` reverts.
extension SQLiteTaskService {
    public func undelete(ids: [Int64]) -> Observable<[Task]> {
        change { service in
            let tasks = try service.undeleteNow(ids: ids)
            return (tasks, tasks.map(TaskEvent.create))
        }
    }

    public func purge(ids: [Int64]) -> Observable<[Task]> {
        change { service in (try service.purgeNow(ids: ids), []) }
    }

    /// Brings each of `ids` back from its tombstone, or — when one has none — nothing.
    func undeleteNow(ids: [Int64]) throws -> [Task] {
        try recorded(rows: ids.count) { entry in
            var tasks: [Task] = []
            for (id, keeper) in try tombstones(Self.unique(ids)) {
                try entry.undelete(id: id, keptBy: keeper)
                if let task = try readTask(id: id) { tasks.append(task) }
            }
            return (tasks, Summary.of("undeleted", tasks))
        }
    }

    /// Purges the tombstones of each of `ids`, or — when one has none — nothing.
    func purgeNow(ids: [Int64]) throws -> [Task] {
        try recorded(rows: ids.count) { entry in
            var tasks: [Task] = []
            for (id, keeper) in try tombstones(Self.unique(ids)) {
                guard var task = try keptTasks(in: id...id, keptBy: keeper).first else { continue }
                try entry.purge(id: id, uuid: task.uuid)
                task.isDeleted = true
                tasks.append(task)
            }
            return (tasks, Summary.of("purged", tasks))
        }
    }

    /// The entry that keeps each id's tombstone, in the order given; `notDeleted` naming those
    /// that have none (deleted tasks are found with `status:deleted`).
    private func tombstones(_ ids: [Int64]) throws -> [(id: Int64, keeper: Int64)] {
        var found: [(Int64, Int64)] = []
        var missing: [Int64] = []
        for id in ids {
            let keeper = try db.scalar("SELECT d.entry FROM deleted_task AS d WHERE d.id = ? AND \(TaskQuerySQL.tombstone("d"))",
                                       arguments: [id])
            if let keeper { found.append((id, keeper)) } else { missing.append(id) }
        }
        if !missing.isEmpty { throw TaskServiceError.notDeleted(ids: missing) }
        return found
    }
}
