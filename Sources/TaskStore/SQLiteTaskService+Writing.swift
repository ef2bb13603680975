import SQLiteDB
import TaskModel

// MARK: - The writes inside their transactions (the public calls announce them)

extension SQLiteTaskService {
    /// Creates `drafts` in one transaction, a hundred rows per INSERT.
    func createNow(_ drafts: [TaskDraft]) throws -> [Task] {
        try recorded(rows: drafts.count) { entry in
            let time = now()
            var bottoms: [String: Int64] = [:]
            var created: [Task] = []
            created.reserveCapacity(drafts.count)
            for draft in drafts { created.append(try newTask(draft, at: time, bottoms: &bottoms)) }
            try insert(&created)
            try entry.created(ids: created.map(\.id))
            for (index, draft) in drafts.enumerated() where !draft.dependencies.isEmpty {
                let before = created[index]
                try applyDependencies(draft.dependencies, to: &created[index], entry)
                if created[index].depends != before.depends || created[index].parent != before.parent { try overwrite(created[index]) }
                try checkNoCycle(from: created[index])
                for id in draft.dependencies.blocks { if let other = try readTask(id: id) { try checkNoCycle(from: other) } }
            }
            return (created, Summary.of("added", created))
        }
    }

    /// The task `draft` makes, not inserted yet (id 0), at the bottom of its list: `bottoms`
    /// holds each list's bottom position so far in this transaction.
    func newTask(_ draft: TaskDraft, at time: Timestamp, bottoms: inout [String: Int64]) throws -> Task {
        var task = draft.fields
        let position = try bottoms[task.list].map { Self.position($0, steppedBy: 1) } ?? bottomPosition(of: task.list)
        bottoms[task.list] = position
        task.id = 0
        task.uuid = draft.uuid ?? makeUUID()
        task.completed = task.isDone ? time : nil  // `tasks log`: added done
        task.tags = TagsText.normalized(task.tags)
        task.position = position
        task.created = time
        task.modified = time
        task.repeat = nil
        task.series = nil
        task.anchor = nil
        if let rule = draft.fields.repeat { task.setRepeat(rule, today: today()) }
        return task
    }

    /// Inserts `tasks`, a hundred rows per statement; a task with id 0 gets the next id,
    /// written back into it.
    ///
    /// `largestID`, when given, is the largest id in the table (and the AUTOINCREMENT counter
    /// is not above it), and the tasks' ids rise: then a task whose id is one more than the one
    /// before it (the first task: than `largestID`) is bound NULL, and SQLite gives it that same
    /// id without first looking for a row holding it. The last row's id is checked after each
    /// INSERT, so that a wrong one rolls the write back.
    func insert(_ tasks: inout [Task], largestID: Int64? = nil) throws {
        var start = 0
        while start < tasks.count {
            let end = min(start + Self.rowsPerInsert, tasks.count)
            let first = try insertRows(end - start) { index, insert, parameter in
                let at = start + index
                let automatic = largestID.map { tasks[at].id == (at == 0 ? $0 : tasks[at - 1].id) + 1 } ?? false
                try TaskColumn.bind(tasks[at], to: insert, from: parameter, automaticID: automatic)
            }
            let last = first + Int64(end - start) - 1
            if tasks[start].id == 0 {
                for index in start..<end { tasks[index].id = first + Int64(index - start) }
            } else if largestID != nil, last != tasks[end - 1].id {
                throw SQLiteError(extendedCode: SQLiteError.Code.internal.rawValue, message: "a new task was given id \(last), not \(tasks[end - 1].id)")
            }
            start = end
        }
    }

    /// Inserts `count` rows (at most `rowsPerInsert`) with one INSERT, `bind` binding the
    /// columns of the row at each index from the parameter it is given; returns the first
    /// row's id. The rows of one INSERT get consecutive ids, the last of them the last insert
    /// rowid.
    func insertRows(_ count: Int, bind: (Int, Statement, Int32) throws -> Void) throws -> Int64 {
        let insert = try db.prepareToBindAll(Self.insertSQL(rows: count))
        var parameter: Int32 = 1
        for index in 0..<count {
            try bind(index, insert, parameter)
            parameter += TaskColumn.count
        }
        try insert.run()
        insert.rewind()
        return try db.lastInsertRowID - Int64(count) + 1
    }

    /// `INSERT INTO task (every column) VALUES (…), (…)` for `rows` rows.
    static func insertSQL(rows: Int) -> String {
        rows == rowsPerInsert ? fullInsertSQL : makeInsertSQL(rows: rows)
    }

    /// The statement of a full batch, made once (made for each batch, it was 3% of an import).
    private static let fullInsertSQL = makeInsertSQL(rows: rowsPerInsert)

    private static func makeInsertSQL(rows: Int) -> String {
        "INSERT INTO task (\(TaskColumn.names)) VALUES " + Array(repeating: TaskColumn.parameterRow, count: rows).concatenated(separator: ", ")
    }

    /// Writes the columns of `task` that differ from `before` (its row as read in this
    /// transaction) over the row: an annotation or a start leaves the title and notes alone,
    /// so the search index's trigger (`AFTER UPDATE OF title, notes`) does not rewrite them.
    func overwrite(_ task: Task, from before: Task) throws {
        let changed = TaskFields.all.filter { $0.stored(task) != $0.stored(before) }
        guard !changed.isEmpty else { return }
        let update = try db.prepare("UPDATE task SET " + changed.map { $0.column + " = ?" }.joined(separator: ", ") + " WHERE id = ?")
        for (index, field) in changed.enumerated() { try TaskColumn.bind(field.stored(task), to: update, at: Int32(index + 1)) }
        try update.bind(integer: task.id, at: Int32(changed.count + 1))
        try update.run()
        update.reset()
    }

    /// Writes every column of `task` over the row with its id.
    func overwrite(_ task: Task) throws {
        let assignments = TaskColumn.names.split(separator: ", ").enumerated().map { "\($0.element) = ?\($0.offset + 1)" }.joined(separator: ", ")
        let update = try db.prepare("UPDATE task SET \(assignments) WHERE id = ?1")
        try TaskColumn.bind(task, to: update, from: 1)
        try update.run()
        update.reset()
    }

    /// One write transaction of `rows` rows. A large batch keeps its index pages in memory (a
    /// ceiling, not an allocation) rather than spilling them mid-transaction; reads keep
    /// SQLite's small default. A bulk load writes its pages once through a rollback journal
    /// instead of twice (into the WAL, then into the file at checkpoint): half the time for
    /// 100,000 tasks. Still one atomic transaction; other processes wait for it (busy timeout)
    /// instead of reading beside it. When another connection holds the file open in WAL mode
    /// the switch is refused and the batch goes through the WAL as usual.
    ///
    /// A `streamed` write (an import read while it writes, which may fail at its last record)
    /// stays in WAL mode: the switch to a rollback journal and back bumps the file's change
    /// counter, so a failed bulk load would not leave the file byte for byte as it was. Its
    /// cost measured nothing beyond noise for 300,000 tasks (4.2–5.9 s either way); its page
    /// cache is 16 MB, not 64, which made no difference either (uuids come nearly in order)
    /// and keeps a million-task import under 64 MB.
    func bulkWrite<T>(rows: Int, streamed: Bool = false, _ body: () throws -> T) throws -> T {
        // Statement journals (each multi-row INSERT can be undone alone) go to memory, not to a
        // temporary file: with uuids in no order (todo.txt's are name-based) each INSERT touches
        // a hundred index pages, and 100,000 rows wrote 250,000 pages to that file.
        let db = try db
        if rows >= 1000 { try db.execute("PRAGMA cache_size = \(streamed ? -16384 : -65536); PRAGMA temp_store = MEMORY") }
        defer { if rows >= 1000 { try? db.execute("PRAGMA cache_size = -2000; PRAGMA temp_store = DEFAULT") } }
        let bulk = !streamed && rows >= Self.bulkLoadThreshold && db.path != ":memory:"
            && (try? db.execute("PRAGMA journal_mode = DELETE")) != nil
            && (try? db.scalarString("PRAGMA journal_mode")) == "delete"
        defer {
            if bulk {
                try? db.execute("PRAGMA journal_mode = WAL")
                // Open and close one read in WAL mode: until then the connection refuses a
                // checkpoint with SQLITE_LOCKED.
                _ = try? db.scalar("SELECT count(*) FROM sqlite_schema")
            }
        }
        return try db.write(body)
    }

    /// Changes the fields `changes` names, in one transaction.
    func updateNow(id: Int64, _ changes: TaskChanges) throws -> Task {
        try recorded { entry in
            guard let task = try readTask(id: id) else { throw TaskServiceError.notFound(ids: [id]) }
            if changes.isEmpty { return (task, "") }
            let (changed, fields) = try apply(changes, to: task, entry)
            return (changed, Summary.of("edited", [changed]) + " (" + fields.joined(separator: ", ") + ")")
        }
    }

    /// The same changes to each of `ids` in one transaction and one history entry; returns the
    /// tasks that changed (a task the changes leave as it was is not written).
    func updateNow(ids: [Int64], _ changes: TaskChanges) throws -> [Task] {
        try recorded(rows: ids.count) { entry in
            let unique = Self.unique(ids)
            let tasks = try readTasks(ids: unique)
            if tasks.count < unique.count {
                let found = Set(tasks.map(\.id))
                throw TaskServiceError.notFound(ids: unique.filter { !found.contains($0) })
            }
            var changed: [Task] = []
            var names: [String] = []
            for task in tasks where !changes.isEmpty {
                let (after, fields) = try apply(changes, to: task, entry)
                if fields.isEmpty { continue }
                changed.append(after)
                for name in fields where !names.contains(name) { names.append(name) }
            }
            return (changed, changed.isEmpty ? "" : Summary.of("edited", changed) + " (" + names.joined(separator: ", ") + ")")
        }
    }

    /// `changes` applied to `task` (its row as read in this transaction) and written, with the
    /// entry's record; returns the task and the names of the fields that changed.
    func apply(_ changes: TaskChanges, to before: Task, _ entry: EntryRecorder) throws -> (Task, [String]) {
        var task = before
        if let title = changes.title { task.title = title }
        if let notes = changes.notes { task.notes = notes }
        if let list = changes.list, list != task.list {
            task.list = list
            task.position = try bottomPosition(of: list)
        }
        changes.applyingValues(to: &task)
        try annotate(&task, changes, at: now())
        task.extras = CustomValue.applying(changes.customs, to: task.extras)
        try applyDependencies(changes.dependencies, to: &task, entry)
        if !changes.repeat.isKeep { task.setRepeat(changes.repeat.applied(to: nil), today: today()) }
        task.tags = TagsText.normalized(task.tags.filter { !changes.removeTags.contains($0) } + changes.addTags)
        if task == before { return (task, []) }
        task.modified = now()
        try overwrite(task, from: before)
        try checkNoCycle(from: task)
        for id in changes.dependencies.blocks { if let other = try readTask(id: id) { try checkNoCycle(from: other) } }
        let fields = try entry.changed(from: before, to: task).map { $0.name }
        return (task, fields)
    }

    /// Deletes all of `ids` or, when one is missing, none; returns the tasks as they were.
    func deleteNow(ids: [Int64]) throws -> [Task] {
        try recorded(rows: ids.count) { entry in
            let tasks = try readTasks(ids: Self.unique(ids))
            for task in tasks {
                entry.watch(task.id, before: task)
                try entry.delete(run: task.id...task.id, uuid: task.uuid, tombstone: true)
            }
            try releaseDependants(of: tasks, entry)
            return (tasks, Summary.of("deleted", tasks))
        }
    }

    /// Sets each of `ids` done or pending as `isDone` says, `changes` made first to each one
    /// that changes; returns the tasks that changed.
    func setDoneNow(ids: [Int64], changing changes: TaskChanges = TaskChanges(),
                    _ isDone: (Task) -> Bool) throws -> (changed: [Task], events: [TaskEvent]) {
        try recorded(rows: ids.count) { entry in
            var events: [TaskEvent] = []
            let changed = try readTasks(ids: Self.unique(ids)).compactMap { read -> Task? in
                let done = isDone(read)
                if read.isDone == done { return nil }
                let before = changes.isEmpty ? read : try apply(changes, to: read, entry).0
                var task = before
                let time = now()
                // Done, an active task stops: its time since the start counts as spent.
                if done && task.isActive { task = task.stopped(at: time) }
                task.isDone = done
                task.completed = done ? time : nil
                task.modified = time
                try db.run("UPDATE task SET done = ?, completed = ?, modified = ?, start = ?, spent = ? WHERE id = ?",
                           done, task.completed?.millisecondsSince1970, time.millisecondsSince1970, task.start?.millisecondsSince1970,
                           task.spent, task.id)
                try entry.changed(from: before, to: task)
                events.append(.doneChanged(task))
                if task.repeat != nil {
                    if done {
                        if let next = try makeNextOccurrence(after: task, entry: entry) { events.append(.create(next)) }
                    } else if let made = try removeOccurrence(madeBy: before, entry: entry) {
                        events.append(.delete(made))
                    }
                }
                return task
            }
            let allDone = changed.allSatisfy(\.isDone), allReopened = changed.allSatisfy { !$0.isDone }
            return ((changed, events), Summary.of(allDone ? "done" : allReopened ? "reopened" : "toggled", changed))
        }
    }

    /// The position after the last task of `list`.
    func bottomPosition(of list: String) throws -> Int64 {
        Self.position(try db.scalar("SELECT max(position) FROM task WHERE list = ?", list) ?? 0, steppedBy: 1)
    }

    static func unique(_ ids: [Int64]) -> [Int64] {
        // The usual one or few ids without a set: a set's first use in a process is a run-time
        // metadata look-up that costs more than the command's own statement.
        if ids.count <= 16 {
            var kept: [Int64] = []
            for id in ids where !kept.contains(id) { kept.append(id) }
            return kept
        }
        var seen = Set<Int64>()
        return ids.filter { seen.insert($0).inserted }
    }
}
