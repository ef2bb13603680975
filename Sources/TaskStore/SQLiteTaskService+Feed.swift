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
            var events: [TaskEvent] = []
            var count = 0
            for entry in entries where !ownEntries.contains(entry.id) {
                count += 1
                if isHeard { events += try self.events(of: entry) }
            }
            if let newest = entries.last?.id {
                lastSeenEntry = newest
                ownEntries = ownEntries.filter { $0 > newest }
            }
            return (count, events)
        }
    }

    /// The events an entry's changes make, from the tasks as they are now (and the rows kept
    /// of those it deleted).
    private func events(of entry: HistoryEntry) throws -> [TaskEvent] {
        var events: [TaskEvent] = []
        for stored in try storedChanges(of: entry.id) {
            let run = stored.change.taskID...stored.change.lastTaskID
            switch stored.change.kind {
            case .created: events += try readTasks(in: run).map(TaskEvent.create)
            case .changed: if let task = try readTask(id: run.lowerBound) { events.append(.update(task)) }
            case .deleted: events += try keptTasks(in: run, keptBy: keeper(ofDeletionsIn: entry)).map(TaskEvent.delete)
            }
        }
        return events
    }
}
