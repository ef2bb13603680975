import SQLiteDB
import TaskModel

// MARK: - History entries: one per command, or one for several (`tasks mcp`)

extension SQLiteTaskService {
    /// Runs `body` in one write transaction of `rows` rows with the history entry that records
    /// it (`tasks undo` reverts it whole); `body` says what it did. Inside `asOneEntry` the
    /// change joins that call's entry instead.
    func recorded<T>(rows: Int = 1, streamed: Bool = false, _ body: (EntryRecorder) throws -> (T, summary: String)) throws -> T {
        try bulkWrite(rows: rows, streamed: streamed) {
            if let shared {
                let (result, summary) = try body(shared.entry)
                if !summary.isEmpty { self.shared?.summaries.append(summary) }
                return result
            }
            let entry = EntryRecorder(db: try db, kind: .command, command: commandText, time: now(), watches: hooks != nil)
            let (result, summary) = try body(entry)
            if let hooks { try runHooks(hooks, entry) }
            try entry.finish(summary: summary)
            if let id = entry.id { noteOwn(id) }
            return result
        }
    }

    /// Remembers an entry this service wrote, so that `catchUp` does not announce it.
    func noteOwn(_ entry: Int64) {
        if entry == lastSeenEntry + 1 {
            lastSeenEntry = entry
        } else {
            ownEntries.insert(entry)
        }
    }

    /// Runs `body` — any number of changes, through the reactors as commands make them — as one
    /// command: one write transaction and one history entry (its summaries joined), so one
    /// `tasks undo` reverts it all; then `reading` with the entry's number (nil: nothing
    /// changed), inside the same transaction. `rehearsal` rolls everything back after
    /// `reading`: what the changes would do, and nothing written (`tasks mcp`'s plans). A
    /// failure anywhere rolls back the whole (and takes away a file it made); no hook runs. A
    /// rehearsal never makes the file; one may run inside another call's `body` (a savepoint).
    public func asOneEntry<T>(rehearsal: Bool, _ body: () throws -> Void, reading: (_ entry: Int64?) throws -> T) throws -> T {
        do {
            let db = try open(creatingFile: !rehearsal)
            let savedHooks = hooks, outer = shared
            hooks = nil
            defer { hooks = savedHooks }
            var written: Int64?
            let run = { () throws -> T in
                let entry = EntryRecorder(db: db, kind: .command, command: self.commandText, time: self.now())
                self.shared = (entry, [])
                // A rehearsal inside another call's entry (a savepoint) gives it back after.
                defer { self.shared = outer }
                try body()
                try entry.finish(summary: (self.shared?.summaries ?? []).joined(separator: "; "))
                written = entry.id
                return try reading(entry.id)
            }
            if rehearsal { return try db.rehearse(run) }
            do {
                let result = try db.write(run)
                if let written { noteOwn(written) }
                return result
            } catch {
                // A call refused after it made the file leaves no file behind.
                if outer == nil { removeCreatedFile() }
                throw error
            }
        } catch let error as SQLiteError {
            throw StorageFailure.translate(error, path: path)
        }
    }

    /// Runs `body` in one write transaction, kept when it returns (`tasks mcp`'s undo and redo:
    /// checked and done under one lock).
    public func inOneTransaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try open(creatingFile: false).write(body)
        } catch let error as SQLiteError {
            throw StorageFailure.translate(error, path: path)
        }
    }
}
