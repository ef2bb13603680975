import ReactorCore
import SQLiteDB
import TaskModel

// MARK: - The change feed: other processes' commits, as events

extension SQLiteTaskService {
    public func catchUp() -> Observable<Int> {
        .deferred { [unowned self] in
            let (count, committed): (Int, [TaskEvent])
            do {
                (count, committed) = try catchUpNow()
            } catch {
                throw StorageFailure.translate(error, path: path)
            }
            announce(committed)
            return .just(count)
        }
    }

    /// The entries other connections committed since this service last looked, as events:
    /// `PRAGMA data_version` (which changes only with another connection's commit) says
    /// whether to look at all, without reading a row; then the entries after the last one seen
    /// are read in one snapshot and their changes turned into the events they would have made.
    func catchUpNow() throws -> (Int, [TaskEvent]) {
        let version = try db.scalar("PRAGMA data_version") ?? 0
        if version == lastDataVersion { return (0, []) }
        lastDataVersion = version
        return try db.read {
            let entries = try db.query("SELECT \(Self.entryColumns) FROM history WHERE id > ? ORDER BY id", [lastSeenEntry],
                                       row: Self.decodeEntry)
            var changes: [(entry: HistoryEntry, change: HistoryChange)] = []
            var count = 0
            for entry in entries where !ownEntries.contains(entry.id) {
                count += 1
                if isHeard { changes += try storedChanges(of: entry.id).map { (entry, $0.change) } }
            }
            // A burst (another process's `add -` of 200,000 tasks, an import, a first sync) is
            // not replayed task by task: one reread of the window and the totals says it all,
            // in the time and memory of a screen just opened.
            var touched = 0
            for (_, change) in changes {
                let (span, overflow) = change.lastTaskID.subtractingReportingOverflow(change.taskID)
                touched = touched.addingReportingOverflow(overflow ? Self.burstTasks : Int(clamping: max(0, span)) + 1).partialValue
                if touched > Self.burstTasks { break }
            }
            let events = touched > Self.burstTasks ? [TaskEvent.reread] : try netEvents(of: changes)
            if let newest = entries.last?.id {
                lastSeenEntry = newest
                ownEntries = ownEntries.filter { $0 > newest }
            }
            return (count, events)
        }
    }

    /// More tasks than this touched between two looks make one `.reread` instead of an event
    /// each (a list reads its window again; nothing is held per task).
    static let burstTasks = 2_000

    /// The events that take a list from what it held before `changes` to the tasks as they are
    /// now. When no task is touched twice, each change is its own event (a bulk add stays one
    /// read of its run). Otherwise each task touched makes one event from what it was before
    /// (absent, when its first change here made it) and what it is now: replayed change by
    /// change from the tasks as they are now, a task added and undone between two looks gave a
    /// delete without its create, and the counts drifted below the rows (`Work (0)` above four
    /// Work rows).
    func netEvents(of changes: [(entry: HistoryEntry, change: HistoryChange)]) throws -> [TaskEvent] {
        let runs = changes.map { $0.change.taskID...$0.change.lastTaskID }.sorted { $0.lowerBound < $1.lowerBound }
        if !zip(runs, runs.dropFirst()).contains(where: { $0.upperBound >= $1.lowerBound }) {
            return try changes.flatMap { try events(of: $0.change, in: $0.entry) }
        }
        var existedBefore: [Int64: Bool] = [:]
        var order: [Int64] = []
        var deletedIn: [Int64: HistoryEntry] = [:]
        var touches: [Int64: Int] = [:]
        for (entry, change) in changes {
            for id in change.taskID...change.lastTaskID {
                touches[id, default: 0] += 1
                if existedBefore[id] == nil {
                    existedBefore[id] = change.kind != .created
                    order.append(id)
                }
                if change.kind == .deleted { deletedIn[id] = entry }
            }
        }
        var net: [TaskEvent] = []
        var unsaid = false
        for id in order {
            switch (existedBefore[id] ?? true, try readTask(id: id)) {
            case (true, let task?): net.append(.update(task))
            case (false, let task?): net.append(.create(task))
            case (true, nil):
                if let entry = deletedIn[id] { net += try keptTasks(in: id...id, keptBy: keeper(ofDeletionsIn: entry)).map(TaskEvent.delete) }
                // Changed before it was deleted: the row kept is not what a list counted.
                if touches[id, default: 0] > 1 { unsaid = true }
            case (false, nil): break
            }
        }
        if unsaid { net.append(.reread) }
        return net
    }

    /// The events one change makes, from the tasks as they are now (and the rows `entry` kept
    /// of those it deleted).
    private func events(of change: HistoryChange, in entry: HistoryEntry) throws -> [TaskEvent] {
        let run = change.taskID...change.lastTaskID
        switch change.kind {
        case .created: return try readTasks(in: run).map(TaskEvent.create)
        case .changed: return try readTask(id: run.lowerBound).map { [.update($0)] } ?? []
        case .deleted: return try keptTasks(in: run, keptBy: keeper(ofDeletionsIn: entry)).map(TaskEvent.delete)
        case .purged: return []  // a tombstone is in no listing
        }
    }
}
