import ReactorCore
import SQLiteDB
import TaskModel

// MARK: - Undo, redo, and reading the history

extension SQLiteTaskService {
    public func undo(entry: Int64?) -> Observable<HistoryEntry> {
        change { try $0.undoNow(entry: entry) }
    }

    public func redo() -> Observable<HistoryEntry> {
        change { try $0.redoNow() }
    }

    public func history(_ query: HistoryQuery) -> Observable<[HistoryEntry]> {
        .deferred { [unowned self] in
            do {
                return .just(try db.read { try readHistory(query) })
            } catch {
                throw StorageFailure.translate(error, path: path)
            }
        }
    }

    /// Reverts `entry` (the newest command entry in effect when `nil`) as an undo entry of its
    /// own, in one transaction; returns the entry reverted, and the events of what changed.
    func undoNow(entry wanted: Int64?) throws -> (HistoryEntry, [TaskEvent]) {
        let size = try wanted.map(taskCount(of:)) ?? 1
        return try bulkWrite(rows: size) {
            var target: HistoryEntry
            if let wanted {
                guard let found = try readEntry(wanted) else { throw TaskServiceError.noSuchEntry(wanted) }
                guard found.kind == .command else {
                    throw TaskServiceError.notUndoable(entry: wanted, reason: "it is itself an \(found.kind == .undo ? "undo" : "redo")")
                }
                if let undone = found.undoneBy {
                    throw TaskServiceError.notUndoable(entry: wanted, reason: "it was undone already, by #\(undone)")
                }
                target = found
            } else {
                guard let newest = try db.scalar("SELECT max(id) FROM history WHERE kind = 0 AND undone_by IS NULL"),
                      let found = try readEntry(newest) else { throw TaskServiceError.nothingToUndo }
                target = found
            }
            let changes = try storedChanges(of: target.id)
            try refuseIfChangedLater(target, changes)
            let undo = EntryRecorder(db: try db, kind: .undo, command: commandText, time: now(), target: target.id)
            var events: [TaskEvent] = []
            for stored in changes.reversed() {
                let run = stored.change.taskID...stored.change.lastTaskID
                switch stored.change.kind {
                case .created:
                    let gone = isHeard ? try readTasks(in: run) : []
                    try undo.delete(run: run, uuid: stored.change.uuid, tombstone: false)
                    events += gone.map(TaskEvent.delete)
                case .changed:
                    if let task = try setFields(of: stored, toBefore: true, in: target, recordingInto: undo) { events.append(.update(task)) }
                case .deleted:
                    try undo.restore(run: run, keptBy: target.id)
                    if isHeard { events += try readTasks(in: run).map(TaskEvent.create) }
                case .purged:
                    try undo.unpurge(run: run, purgedBy: target.id)
                }
            }
            let undoID = try undo.begin()
            try undo.finish(summary: "undid #\(target.id)")
            try db.run("UPDATE history SET undone_by = ?, redoable = 1 WHERE id = ?", undoID, target.id)
            noteOwn(undoID)
            target.undoneBy = undoID
            return (target, events)
        }
    }

    /// Applies again the entry undone last, when no command came after it.
    func redoNow() throws -> (HistoryEntry, [TaskEvent]) {
        guard let targetID = try db.scalar("SELECT id FROM history WHERE redoable = 1 ORDER BY undone_by DESC LIMIT 1") else {
            throw TaskServiceError.nothingToRedo
        }
        return try bulkWrite(rows: try taskCount(of: targetID)) {
            guard var target = try readEntry(targetID), let undoneBy = target.undoneBy, target.kind == .command else {
                throw TaskServiceError.nothingToRedo
            }
            let redo = EntryRecorder(db: try db, kind: .redo, command: commandText, time: now(), target: target.id,
                                     keepDeletedUnder: target.id)
            var events: [TaskEvent] = []
            for stored in try storedChanges(of: target.id) {
                let run = stored.change.taskID...stored.change.lastTaskID
                switch stored.change.kind {
                case .created:
                    try redo.restore(run: run, keptBy: undoneBy)
                    if isHeard { events += try readTasks(in: run).map(TaskEvent.create) }
                case .changed:
                    if let task = try setFields(of: stored, toBefore: false, in: target, recordingInto: redo) { events.append(.update(task)) }
                case .deleted:
                    let gone = isHeard ? try readTasks(in: run) : []
                    try redo.delete(run: run, uuid: stored.change.uuid, tombstone: true)
                    events += gone.map(TaskEvent.delete)
                case .purged:
                    try redo.purge(id: run.lowerBound, uuid: stored.change.uuid ?? "")
                }
            }
            let redoID = try redo.begin()
            try redo.finish(summary: "redid #\(target.id)")
            try db.run("UPDATE history SET undone_by = NULL, redoable = 0 WHERE id = ?", target.id)
            noteOwn(redoID)
            target.undoneBy = nil
            return (target, events)
        }
    }

    // MARK: - Applying one change

    /// Sets the fields of one recorded change back (`toBefore`) or forward, after checking that
    /// each still holds the value the change left (or found); records it into `entry`.
    private func setFields(of stored: StoredChange, toBefore: Bool, in target: HistoryEntry,
                           recordingInto entry: EntryRecorder) throws -> Task? {
        let id = stored.change.taskID
        var assignments: [(TaskField, before: SQLiteValue, after: SQLiteValue)] = []
        for (name, before, after) in stored.fields {
            guard let field = TaskField(rawValue: name) else { continue }
            let (expected, wanted) = toBefore ? (after, before) : (before, after)
            let current = try db.query("SELECT \(field.rawValue) FROM task WHERE id = ?", [id]) { $0.value(0) }.first
            guard current == expected else { throw try conflict(target, taskID: id) }
            assignments.append((field, expected, wanted))
        }
        if assignments.isEmpty { return nil }
        for (field, _, wanted) in assignments {
            try db.run("UPDATE task SET \(field.rawValue) = ?, modified = ? WHERE id = ?", wanted, now().millisecondsSince1970, id)
        }
        try entry.changed(taskID: id, uuid: stored.change.uuid ?? "", fields: assignments)
        return isHeard ? try readTask(id: id) : nil
    }

    /// Throws when an entry after `target`, in effect, changed a task `target` changed: the
    /// runs the later entries touch, sorted by their first id with the furthest reach so far,
    /// answer for each of `target`'s runs whether one overlaps it.
    private func refuseIfChangedLater(_ target: HistoryEntry, _ changes: [StoredChange]) throws {
        let later = try db.query(PackedChanges.runs(where: "h.id > ?1 AND h.kind = 0 AND h.undone_by IS NULL"), [target.id]) { $0.int64(0)...max($0.int64(0), $0.int64(1)) }.sorted { $0.lowerBound < $1.lowerBound }
        if later.isEmpty { return }
        var reach: [ClosedRange<Int64>] = []   // reach[i]: of later[0...i], the run reaching furthest
        reach.reserveCapacity(later.count)
        for run in later { reach.append(reach.last.map { $0.upperBound >= run.upperBound ? $0 : run } ?? run) }
        for stored in changes {
            let (first, last) = (stored.change.taskID, stored.change.lastTaskID)
            // The runs starting at or before `last`: later[0..<end].
            var (low, end) = (0, later.count)
            while low < end {
                let middle = (low + end) / 2
                if later[middle].lowerBound <= last { low = middle + 1 } else { end = middle }
            }
            if low > 0, reach[low - 1].upperBound >= first {
                throw try conflict(target, taskID: max(reach[low - 1].lowerBound, first))
            }
        }
    }

    /// The refusal of undoing `target`, naming the task and the latest entry that changed it since.
    private func conflict(_ target: HistoryEntry, taskID: Int64) throws -> TaskServiceError {
        let later = try db.query("""
            SELECT h.id, h.summary FROM history h
            WHERE h.id > ?2 AND h.kind = 0 AND h.undone_by IS NULL AND \(PackedChanges.touchesTask)
            ORDER BY h.id DESC LIMIT 1
            """, [taskID, target.id]) { ($0.int64(0), $0.string(1)) }.first
        let title = try readTask(id: taskID)?.title
            ?? db.query("SELECT title FROM deleted_task WHERE id = ? ORDER BY entry DESC LIMIT 1", [taskID]) { $0.string(0) }.first
            ?? ""
        return .changedLater(entry: target.id, taskID: taskID, title: title, later: later?.0 ?? target.id, laterSummary: later?.1 ?? "")
    }

    // MARK: - Reading

    /// A change as stored: the fields of a change, as their columns held them before and after.
    struct StoredChange {
        var change: HistoryChange
        var fields: [(name: String, before: SQLiteValue, after: SQLiteValue)] = []
    }

    func readEntry(_ id: Int64) throws -> HistoryEntry? {
        try db.query("SELECT \(Self.entryColumns) FROM history WHERE id = ?", [id], row: Self.decodeEntry).first
    }

    static let entryColumns = "id, time, command, summary, kind, target, undone_by"

    static func decodeEntry(_ row: Statement) -> HistoryEntry {
        HistoryEntry(id: row.int64(0), time: Timestamp(millisecondsSince1970: row.int64(1)), command: row.string(2),
                     summary: row.string(3), kind: HistoryEntry.Kind(rawValue: Int(row.int64(4))) ?? .command,
                     target: row.optionalInt64(5), undoneBy: row.optionalInt64(6))
    }

    /// An entry's changes in order, with their fields (`PackedChanges.entrySQL`: a row per field).
    func storedChanges(of entry: Int64) throws -> [StoredChange] {
        var changes: [StoredChange] = []
        var current: (part: Int64, index: Int64)?
        let statement = try db.prepare(PackedChanges.entrySQL)
        try statement.bind(integer: entry, at: 1)
        while try statement.step() {
            let place = (statement.int64(0), statement.int64(1))
            if current.map({ $0 != place }) ?? true {
                current = place
                let first = statement.int64(3)
                changes.append(StoredChange(change: HistoryChange(
                    kind: HistoryChange.Kind(rawValue: Int(statement.int64(2))) ?? .changed, taskID: first,
                    lastTaskID: max(first, statement.int64(4)), uuid: statement.optionalString(5))))
            }
            if let name = statement.optionalString(6) {
                changes[changes.count - 1].fields.append((name, PackedChanges.value(statement, 7), PackedChanges.value(statement, 10)))
            }
        }
        return changes
    }

    /// How many tasks an entry touched: how large its undo or redo will be.
    private func taskCount(of entry: Int64) throws -> Int {
        try db.query(PackedChanges.runs(where: "h.id = ?1"), [entry]) { Int($0.int64(1) - $0.int64(0) + 1) }.reduce(0, +)
    }

    /// The tasks with ids in `run` that exist now.
    func readTasks(in run: ClosedRange<Int64>) throws -> [Task] {
        try db.query("SELECT \(TaskColumn.names) FROM task WHERE id BETWEEN ? AND ? ORDER BY id", [run.lowerBound, run.upperBound]) {
            TaskColumn.decode($0)
        }
    }

    /// The rows `keeper` kept of the tasks in `run`.
    func keptTasks(in run: ClosedRange<Int64>, keptBy keeper: Int64) throws -> [Task] {
        try db.query("SELECT \(TaskColumn.names) FROM deleted_task WHERE entry = ? AND id BETWEEN ? AND ? ORDER BY id",
                     [keeper, run.lowerBound, run.upperBound]) { TaskColumn.decode($0) }
    }

    private func readHistory(_ query: HistoryQuery) throws -> [HistoryEntry] {
        var sql = "SELECT \(Self.entryColumns) FROM history"
        var arguments: [(any SQLiteBindable)?] = []
        if let taskID = query.taskID {
            sql += " h WHERE \(PackedChanges.touchesTask)"
            arguments.append(taskID)
        }
        if let since = query.since {
            sql += (query.taskID == nil ? " WHERE" : " AND") + " time >= ?\(arguments.count + 1)"
            arguments.append(since.millisecondsSince1970)
        }
        if let entry = query.entry {
            sql += (query.taskID == nil && query.since == nil ? " WHERE" : " AND") + " id = ?\(arguments.count + 1)"
            arguments.append(entry)
        }
        sql += " ORDER BY id DESC"
        if let limit = query.limit { sql += " LIMIT \(max(0, limit))" }
        var entries = try db.query(sql, arguments, row: Self.decodeEntry)
        if query.withChanges {
            for index in entries.indices { entries[index].changes = try changesWithFields(of: entries[index]) }
        }
        return entries
    }

    /// An entry's changes with their fields: a change's before and after; a single task created
    /// or deleted, every field it had (as it is now, or as it was kept).
    private func changesWithFields(of entry: HistoryEntry) throws -> [HistoryChange] {
        try storedChanges(of: entry.id).map { stored in
            var change = stored.change
            switch change.kind {
            case .changed:
                change.fields = stored.fields.map { name, before, after in
                    let spec = TaskFields.spec(TaskField(rawValue: name) ?? .title)
                    return FieldChange(field: spec.field, before: spec.typed(before), after: spec.typed(after))
                }.sorted { $0.field.index < $1.field.index }
            case .created where change.taskCount == 1:
                if let task = try readTask(id: change.taskID) {
                    change.uuid = task.uuid
                    change.fields = TaskFields.recorded.map { FieldChange(field: $0.field, before: .none, after: $0.value(of: task)) }
                }
            case .deleted where change.taskCount == 1:
                if let task = try keptTasks(in: change.taskID...change.taskID, keptBy: keeper(ofDeletionsIn: entry)).first {
                    change.fields = TaskFields.recorded.map { FieldChange(field: $0.field, before: $0.value(of: task), after: .none) }
                }
            case .created, .deleted, .purged:
                break
            }
            return change
        }
    }

    /// Where the rows an entry deleted are kept: a redo keeps them under its target.
    func keeper(ofDeletionsIn entry: HistoryEntry) -> Int64 {
        entry.kind == .redo ? entry.target ?? entry.id : entry.id
    }
}
