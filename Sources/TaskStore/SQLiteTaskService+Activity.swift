import SQLiteDB
import TaskModel

// MARK: - Start and stop, annotations, dependencies: inside their transactions

extension SQLiteTaskService {
    /// Starts or stops each of `ids` (see `TaskService.setActive`); returns the changes.
    func setActiveNow(ids: [Int64], _ active: Bool, alone: Bool, changing changes: TaskChanges = TaskChanges()) throws -> [TaskEvent] {
        try recorded(rows: ids.count) { entry in
            let time = now()
            let tasks = try readTasks(ids: Self.unique(ids))
            if active, let done = tasks.first(where: \.isDone) {
                throw TaskServiceError.notPending(id: done.id, title: done.title, action: "started")
            }
            var changed: [Task] = []
            if active && alone {
                // The others still running stop now, in this same change.
                let running = try db.query("SELECT \(TaskColumn.names) FROM task WHERE start IS NOT NULL") { TaskColumn.decode($0) }
                for task in running where !ids.contains(task.id) { changed.append(try write(task.stopped(at: time), over: task, entry)) }
            }
            for read in tasks where read.isActive != active {
                let task = changes.isEmpty ? read : try apply(changes, to: read, entry).0
                var next = active ? task : task.stopped(at: time)
                if active { next.start = time }
                changed.append(try write(next, over: task, entry))
            }
            let verb = active ? "started" : "stopped"
            return (changed.map(TaskEvent.update), Summary.of(verb, changed))
        }
    }

    /// `task` written over `before` at this change's time, recorded.
    private func write(_ task: Task, over before: Task, _ entry: EntryRecorder) throws -> Task {
        var task = task
        task.modified = now()
        try overwrite(task, from: before)
        try entry.changed(from: before, to: task)
        return task
    }

    /// `changes`' annotations applied to `task`: added at `time`, removed by text or number.
    func annotate(_ task: inout Task, _ changes: TaskChanges, at time: Timestamp) throws {
        for pick in changes.denotate {
            guard let index = pick.index(in: task.annotations) else { throw TaskServiceError.noSuchAnnotation(id: task.id, pick: pick.description) }
            task.annotations.remove(at: index)
        }
        for text in changes.annotate { task.annotations.append(Annotation(entry: time, text: text)) }
    }

    /// `changes` applied to `task` (stored, or about to be with `task.uuid`) and to the tasks
    /// it names: `task.depends` gains and loses the blockers' uuids; each task it blocks gains
    /// or loses its uuid, written and recorded here. A cycle is refused by the caller's
    /// `checkNoCycle` once every row is written.
    func applyDependencies(_ changes: DependencyChanges, to task: inout Task, _ entry: EntryRecorder) throws {
        guard !changes.isEmpty else { return }
        try applyParent(changes.parent, to: &task, entry)
        for id in changes.blockedBy + changes.blocks where id == task.id { throw TaskServiceError.dependencyCycle(ids: [id]) }
        let added = try readTasks(ids: Self.unique(changes.blockedBy)).map(\.uuid)
        let removed = try readTasks(ids: Self.unique(changes.notBlockedBy)).map(\.uuid)
        task.depends = TagsText.normalized(task.depends.filter { !removed.contains($0) } + added)
        for other in try readTasks(ids: Self.unique(changes.blocks + changes.notBlocks)) {
            var next = other
            if changes.notBlocks.contains(other.id) { next.depends.removeAll { $0 == task.uuid } }
            if changes.blocks.contains(other.id) { next.depends = TagsText.normalized(next.depends + [task.uuid]) }
            if next.depends != other.depends { _ = try write(next, over: other, entry) }
        }
    }

    /// Makes `task` a subtask of the task `update` names, or of none; refused when that task
    /// is `task` or one of its subtasks, at any depth (`parentCycle`). A new subtask goes to
    /// its parent's list, after the parent's subtasks, so that the manual order shows it under
    /// its parent.
    func applyParent(_ update: FieldUpdate<Int64>, to task: inout Task, _ entry: EntryRecorder) throws {
        switch update {
        case .keep: return
        case .clear: task.parent = nil
        case .set(let id):
            if id == task.id { throw TaskServiceError.parentCycle(ids: [id]) }
            guard let parent = try readTask(id: id) else { throw TaskServiceError.notFound(ids: [id]) }
            // Up from the new parent, by uuid, each once (a peer's rows may go round already).
            var path: [Int64] = [task.id, parent.id]
            var seen: Set<String> = [parent.uuid]
            var above = parent.parent
            while let uuid = above, seen.insert(uuid).inserted {
                if uuid == task.uuid { throw TaskServiceError.parentCycle(ids: path) }
                guard let row = try db.query("SELECT id, parent FROM task WHERE uuid = ?", [uuid], row: { ($0.int64(0), $0.optionalString(1)) }).first else { break }
                path.append(row.0)
                above = row.1
            }
            if task.parent != parent.uuid {
                let last = try lastOfSubtree(parent, excluding: task.id)
                task.list = parent.list
                task.position = try position(besides: last, before: false, excluding: task.id, entry: entry)
            }
            task.parent = parent.uuid
        }
    }

    /// The last task of `root`'s subtree in its list's manual order: its subtasks (and theirs)
    /// that follow it there, or `root` itself.
    private func lastOfSubtree(_ root: Task, excluding id: Int64) throws -> Task {
        var inside: Set<String> = [root.uuid]
        var last = root.id
        let rows = try db.query("SELECT id, uuid, parent FROM task WHERE list = ? AND position > ? AND id != ? ORDER BY position, id LIMIT 10000",
                                [root.list, root.position, id]) { ($0.int64(0), $0.string(1), $0.optionalString(2)) }
        for (rowID, uuid, parent) in rows {
            guard let parent, inside.contains(parent) else { break }
            inside.insert(uuid)
            last = rowID
        }
        return try readTask(id: last) ?? root
    }

    /// Throws `dependencyCycle` when a task `task` waits on (through any chain) waits on it.
    func checkNoCycle(from task: Task) throws {
        guard !task.depends.isEmpty else { return }
        // Depth first over the stored rows, by uuid, on a stack of its own (a chain of 100,000
        // tasks an import or a peer made would overflow the thread's); each entry keeps the
        // path that reached it, which names the cycle.
        var seen: Set<String> = []
        var stack: [(uuid: String, path: [Int64])] = task.depends.reversed().map { ($0, [task.id]) }
        while let (uuid, path) = stack.popLast() {
            let rows = try db.query("SELECT id, depends FROM task WHERE uuid = ?", [uuid]) { ($0.int64(0), TagsText.decode($0.string(1))) }
            guard let row = rows.first else { continue }
            if uuid == task.uuid { throw TaskServiceError.dependencyCycle(ids: path) }
            guard seen.insert(uuid).inserted else { continue }
            for next in row.1.reversed() { stack.append((next, path + [row.0])) }
        }
    }

    /// Throws `dependencyCycle` when any tasks wait on each other in a ring (what an import
    /// brought in whole, where each task was not checked as it came): the ids of one ring.
    /// Kahn's order over the tasks that wait on some: whatever cannot be ordered is in a ring
    /// or waits on one, and a walk from such a task along what it waits on finds the ring.
    func checkNoCycles() throws {
        let rows = try db.query("SELECT id, uuid, depends FROM task WHERE depends <> ''") { ($0.int64(0), $0.string(1), TagsText.decode($0.string(2))) }
        guard !rows.isEmpty else { return }
        var ids: [String: Int64] = [:]
        var waitsOn: [String: [String]] = [:]
        for (id, uuid, depends) in rows {
            ids[uuid] = id
            waitsOn[uuid] = depends
        }
        // Only tasks that wait on some can be in a ring.
        var left: [String: Int] = [:]
        var waiting: [String: [String]] = [:]
        for (uuid, depends) in waitsOn {
            let inRing = depends.filter { waitsOn[$0] != nil }
            left[uuid] = inRing.count
            for blocker in inRing { waiting[blocker, default: []].append(uuid) }
        }
        var ready = left.filter { $0.value == 0 }.map(\.key)
        while let uuid = ready.popLast() {
            left[uuid] = nil
            for other in waiting[uuid] ?? [] {
                guard let count = left[other] else { continue }
                left[other] = count - 1
                if count == 1 { ready.append(other) }
            }
        }
        guard let start = left.keys.min() else { return }
        var path: [String] = []
        var at: [String: Int] = [:]
        var current = start
        while at[current] == nil {
            at[current] = path.count
            path.append(current)
            guard let next = waitsOn[current]?.first(where: { left[$0] != nil }) else { return }
            current = next
        }
        let ring = path[(at[current] ?? 0)...]
        throw TaskServiceError.dependencyCycle(ids: ring.compactMap { ids[$0] })
    }

    /// The tasks waiting on `deleted` stop waiting on them, in the same change (undo puts
    /// the dependencies back with the tasks).
    func releaseDependants(of deleted: [Task], _ entry: EntryRecorder) throws {
        for task in deleted {
            let pattern = " \(task.uuid) "
            let waiting = try db.query("SELECT \(TaskColumn.names) FROM task WHERE instr(depends, ?) > 0", [pattern]) { TaskColumn.decode($0) }
            for other in waiting {
                var next = other
                next.depends.removeAll { $0 == task.uuid }
                _ = try write(next, over: other, entry)
            }
        }
    }
}

extension Task {
    /// The task stopped at `time`: the time since its start added to its time spent.
    func stopped(at time: Timestamp) -> Task {
        var task = self
        task.spent = timeSpent(at: time)
        task.start = nil
        return task
    }
}
