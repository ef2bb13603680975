import SQLiteDB
import TaskModel

// MARK: - Manual order: positions with gaps, renumbered only when a gap is used up

extension SQLiteTaskService {
    /// Moves one task, in one transaction with its history entry.
    func moveNow(id: Int64, to placement: TaskPlacement) throws -> Task {
        try recorded { entry in
            let moved = try moveInTransaction(id: id, to: placement, entry: entry)
            return (moved, Summary.of("moved", [moved]))
        }
    }

    private func moveInTransaction(id: Int64, to placement: TaskPlacement, entry: EntryRecorder) throws -> Task {
        guard var task = try readTask(id: id) else { throw TaskServiceError.notFound(ids: [id]) }
        let before = task
        switch placement {
        case .top:
            let first = try db.scalar("SELECT min(position) FROM task WHERE list = ? AND id != ?", task.list, id)
            task.position = Self.position(first ?? 0, steppedBy: -1)
        case .bottom:
            let last = try db.scalar("SELECT max(position) FROM task WHERE list = ? AND id != ?", task.list, id)
            task.position = Self.position(last ?? 0, steppedBy: 1)
        case .list(let list):
            if list != task.list {
                task.list = list
                task.position = try bottomPosition(of: list)
            }
        case .before(let otherID), .after(let otherID):
            if otherID == id { throw TaskServiceError.moveRelativeToItself(id: id) }
            guard let other = try readTask(id: otherID) else { throw TaskServiceError.notFound(ids: [otherID]) }
            task.list = other.list
            let isBefore: Bool
            if case .before = placement { isBefore = true } else { isBefore = false }
            task.position = try position(besides: other, before: isBefore, excluding: id, entry: entry)
        }
        task.modified = now()
        try db.run("UPDATE task SET list = ?, position = ?, modified = ? WHERE id = ?",
                   task.list, task.position, task.modified.millisecondsSince1970, task.id)
        try entry.changed(from: before, to: task)
        return task
    }

    /// A free position next to `other`: the midpoint of the gap. When the gap is used up, the
    /// list is numbered afresh (rare: each halving of a 65,536 gap survives 16 moves into it).
    func position(besides other: Task, before: Bool, excluding id: Int64, entry: EntryRecorder) throws -> Int64 {
        for _ in 0..<2 {
            let anchor = try db.scalar("SELECT position FROM task WHERE id = ?", other.id) ?? other.position
            let neighbour = before
                ? try db.scalar("SELECT max(position) FROM task WHERE list = ? AND position < ? AND id != ?", other.list, anchor, id)
                : try db.scalar("SELECT min(position) FROM task WHERE list = ? AND position > ? AND id != ?", other.list, anchor, id)
            guard let neighbour else {
                return Self.position(anchor, steppedBy: before ? -1 : 1)
            }
            let (low, high) = before ? (neighbour, anchor) : (anchor, neighbour)
            // Positions a peer sent may lie further apart than an Int64 can count.
            let (gap, overflowed) = high.subtractingReportingOverflow(low)
            if overflowed { return low / 2 + high / 2 }
            if gap >= 2 { return low + gap / 2 }
            try renumber(list: other.list, entry: entry)
        }
        throw SQLiteError(extendedCode: 1, message: "no free position in list \(other.list) after renumbering")
    }

    /// Spreads a list's positions out again, keeping their order (recorded, so that undoing a
    /// move puts every task back exactly).
    private func renumber(list: String, entry: EntryRecorder) throws {
        let positions = { () throws -> [(id: Int64, uuid: String, position: Int64)] in
            try self.db.query("SELECT id, uuid, position FROM task WHERE list = ? ORDER BY id", [list]) {
                ($0.int64(0), $0.string(1), $0.int64(2))
            }
        }
        let before = try positions()
        try db.run("""
            UPDATE task SET position = (
                SELECT ranked.rank * ?1 FROM (
                    SELECT id AS rid, row_number() OVER (ORDER BY position, id) AS rank FROM task WHERE list = ?2
                ) AS ranked WHERE ranked.rid = task.id)
            WHERE list = ?2
            """, Self.positionGap, list)
        for (old, new) in zip(before, try positions()) where old.position != new.position {
            try entry.changed(taskID: old.id, uuid: old.uuid, fields: [(.position, .integer(old.position), .integer(new.position))])
        }
    }
}
