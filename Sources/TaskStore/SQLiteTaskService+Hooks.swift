import SQLiteDB
import TaskModel

extension SQLiteTaskService {
    /// Shows each task the command made or changed to the hooks, in the order it touched them,
    /// inside the command's transaction: what a hook gives back is written and recorded in the
    /// same history entry (so `undo` takes it back with the command); a refusal throws, and the
    /// transaction — the whole command — is rolled back.
    func runHooks(_ hooks: any TaskHooks, _ entry: EntryRecorder) throws {
        for (id, before) in entry.touched {
            guard let after = try readTask(id: id) else {
                // Deleted by the command: shown deleted, at the moment it went.
                if let before {
                    var gone = before
                    gone.isDeleted = true
                    gone.modified = now()
                    _ = try hooks.modified(before, gone)
                }
                continue
            }
            if let before, before == after { continue }
            var made = try before.map { try hooks.modified($0, after) } ?? hooks.added(after)
            made.id = after.id
            made.uuid = after.uuid
            made.isDeleted = false
            guard made != after else { continue }
            if made.list != after.list { made.position = try bottomPosition(of: made.list) }
            made.modified = now()
            try overwrite(made, from: after)
            try checkNoCycle(from: made)
            try entry.changed(from: after, to: made)
        }
    }
}
