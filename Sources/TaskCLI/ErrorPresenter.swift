import CommandLineKit
import TaskModel

/// Turns whatever failed into a `CLIError`: the one place errors get their words and status.
/// `changes` says whether the command that failed changes tasks: only such a command's
/// failure says "nothing was changed" (a read that fails changed nothing by being a read).
enum ErrorPresenter {
    static func present(_ error: any Error, changes: Bool = true) -> CLIError {
        switch error {
        case let error as CLIError: return error
        case let error as UsageError: return .usage(error.description)
        case let error as TaskFieldError: return .usage(error.description)
        case let error as TaskServiceError: return present(error, changes: changes)
        default: return .failure(String(describing: error))
        }
    }

    static func present(_ error: TaskServiceError, changes: Bool = true) -> CLIError {
        let unchanged = changes ? "; nothing was changed" : ""
        let untouched = changes ? "; it was left untouched" : ""
        switch error {
        case .notFound(let ids):
            let names = ids.map(String.init).joined(separator: ", ")
            return .failure(ids.count == 1 ? "no task with id \(names)\(unchanged)" : "no tasks with ids \(names)\(unchanged)",
                            hint: "'tasks list --all' shows the ids")
        case .notDeleted(let ids):
            let names = ids.map(String.init).joined(separator: ", ")
            return .failure(ids.count == 1 ? "task \(names) is not a deleted task\(unchanged)" : "tasks \(names) are not deleted tasks\(unchanged)",
                            hint: "'tasks list status:deleted' lists the deleted tasks")
        case .moveRelativeToItself(let id):
            return .usage("task \(id) cannot be moved before or after itself")
        case .notPending(let id, let title, let action):
            return .failure("task \(id) \"\(title)\" is done, so it cannot be \(action)\(unchanged)", hint: "reopen it first: tasks reopen \(id)")
        case .dependencyCycle(let ids):
            let path = (ids + ids.prefix(1)).map(String.init).joined(separator: " → ")
            return .usage(ids.count == 1 ? "task \(ids[0]) cannot wait on itself\(unchanged)"
                          : "that would make tasks wait on each other in a circle (\(path), each waiting on the next)\(unchanged)")
        case .parentCycle(let ids):
            let path = (ids + ids.prefix(1)).map(String.init).joined(separator: " → ")
            return .usage(ids.count == 1 ? "task \(ids[0]) cannot be a subtask of itself\(unchanged)"
                          : "that would make tasks subtasks of each other in a circle (\(path), each under the next)\(unchanged)")
        case .hookRefused(let hook, let reason):
            return .failure("the hook \(hook) refused it: \(reason)\(unchanged)", hint: "'tasks hooks' lists the hooks; --no-hooks runs without them")
        case .noSuchAnnotation(let id, let pick):
            return .failure("task \(id) has no annotation '\(pick)'\(unchanged)", hint: "'tasks show \(id)' lists its annotations, numbered from 1")
        case .nothingToUndo:
            return .failure("nothing to undo: no change is in effect", hint: "'tasks history' shows what was done and undone")
        case .nothingToRedo:
            return .failure("nothing to redo: nothing was undone since the last change", hint: "'tasks history' shows what was done and undone")
        case .noSuchEntry(let entry):
            return .usage("there is no history entry #\(entry) (the history keeps the last 1,000 entries and 30 days)",
                          hint: "'tasks history' lists the entries")
        case .notUndoable(let entry, let reason):
            return .failure("cannot undo #\(entry): \(reason)\(unchanged)")
        case .changedLater(let entry, let taskID, let title, let later, let laterSummary):
            return .failure("cannot undo #\(entry): task \(taskID) \"\(title)\" was changed later by #\(later) (\(laterSummary))\(unchanged)",
                            hint: "undo #\(later) first; 'tasks history --task \(taskID)' shows its changes")
        case .notADatabase(let path, let reason):
            return .failure("'\(path)' is not a tasks database (\(reason))\(untouched)", hint: "check the path given by --db or TASKS_DB")
        case .damaged(let path, let reason):
            return .failure("'\(path)' is damaged (\(reason))\(unchanged)", hint: "restore it from a backup, or try: sqlite3 FILE '.recover'")
        case .readOnly(let path):
            return .failure("'\(path)' is read-only\(unchanged)", hint: "check its permissions and its folder's")
        case .locked(let path):
            return .failure("'\(path)' is locked by another program and stayed locked\(unchanged)",
                            hint: "try again when the other program is done")
        case .diskFull(let path):
            return .failure("the disk holding '\(path)' is full\(unchanged)")
        case .newerSchema(let path, let found, let supported):
            return .failure("'\(path)' is from a newer version of tasks (schema \(found); this one knows up to \(supported))\(untouched)",
                            hint: "use a newer tasks, or another --db")
        case .cannotCreate(let path, let reason):
            return .failure("cannot create the database at '\(path)': \(reason)", hint: "give a writable place with --db PATH or TASKS_DB")
        case .cannotOpen(let path, let reason, let folderIsReadOnly):
            if folderIsReadOnly {
                return .failure("cannot open '\(path)': its folder is read-only (\(reason))\(unchanged)",
                                hint: "SQLite needs to write beside the file; copy it somewhere writable to read it")
            }
            return .failure("cannot open '\(path)' (\(reason))", hint: "check that its folder exists and is writable")
        case .ioFailure(let path, let reason):
            return .failure("cannot read or write '\(path)' (\(reason))\(unchanged)")
        case .unexpected(let description):
            return .failure(description)
        case .noRemote:
            return .usage("no remote to sync with", hint: "name one: tasks sync --remote postgresql://HOST/DB (or set TASKS_REMOTE)")
        case .remote(let failure, let remote):
            return present(failure, remote: remote)
        }
    }

    static func present(_ failure: RemoteFailure, remote: String) -> CLIError {
        let unchanged = "nothing was changed here"
        if remote.hasPrefix("http://") || remote.hasPrefix("https://") { return presentCalDAV(failure, remote: remote, unchanged: unchanged) }
        switch failure {
        case .badAddress(let reason):
            return .usage("'\(remote)' is not a PostgreSQL address (\(reason))", hint: "postgresql://[USER@]HOST[:PORT]/DATABASE, or 'host=… dbname=…'")
        case .unreachable(let reason):
            return .failure("cannot reach the remote \(remote) (\(reason)); \(unchanged)", hint: "check the address and that the server runs; run sync again later")
        case .loginRefused(let reason):
            return .failure("the remote \(remote) refused the login (\(reason)); \(unchanged)",
                            hint: "passwords come from ~/.pgpass or PGPASSWORD, as for psql")
        case .noSuchDatabase(let reason):
            return .failure("the remote \(remote) has no such database (\(reason)); \(unchanged)",
                            hint: "create it first (createdb NAME, or ask its owner), or check the name in the address")
        case .permissionDenied(let reason):
            return .failure("the remote \(remote) refused access to the tasks tables (\(reason)); \(unchanged)",
                            hint: "its owner can allow a role: GRANT SELECT ON tasks_schema TO ROLE; GRANT SELECT, INSERT ON tasks_change TO ROLE; GRANT USAGE ON SEQUENCE tasks_change_seq_seq TO ROLE")
        case .newerSchema(let found, let supported):
            return .failure("the remote \(remote) was set up by a newer tasks (remote schema \(found); this one knows up to \(supported)); \(unchanged)",
                            hint: "use a newer tasks")
        case .untrusted(let reason):
            return .failure("the remote \(remote) failed the TLS check (\(reason)); \(unchanged)", hint: "see sslmode and sslrootcert in libpq's documentation")
        case .inTheClear(let host):
            return .failure("the remote \(remote) would carry your password to \(host) unencrypted; \(unchanged)", hint: "use TLS")
        case .unsafeSchema(let reason):
            return .failure("the remote \(remote) is not safe to sync with: \(reason); \(unchanged)",
                            hint: "a teammate needs SELECT on tasks_schema and SELECT, INSERT on tasks_change (docs/sync.md, Setting up a shared list)")
        case .helperMissing(let reason):
            return .failure("cannot sync: \(reason); \(unchanged)", hint: "tasks-postgres is built and installed beside tasks (swift build --product tasks-postgres)")
        case .failed(let reason):
            return .failure("the sync with \(remote) failed halfway (\(reason)); \(unchanged); the remote kept nothing of it",
                            hint: "run sync again: it carries on where it stopped")
        }
    }

    /// A CalDAV server's failures: what it said, and where a password comes from.
    static func presentCalDAV(_ failure: RemoteFailure, remote: String, unchanged: String) -> CLIError {
        switch failure {
        case .badAddress(let reason):
            return .usage("'\(remote)' is not a CalDAV address (\(reason))", hint: "https://[USER@]HOST[:PORT]/PATH, the server's address or your calendars'")
        case .unreachable(let reason):
            return .failure("cannot reach the CalDAV server \(remote) (\(reason)); \(unchanged)", hint: "check the address and that the server runs; run sync again later")
        case .inTheClear(let host):
            return .failure("plain http:// would send your password to \(host) in the clear; nothing was sent and \(unchanged)",
                            hint: "use https://; or, for a network you trust, set insecure = true in its [remote.NAME] (docs/sync.md)")
        case .untrusted(let reason):
            return .failure("the CalDAV server \(remote) has a certificate this machine does not trust (\(reason)); \(unchanged)",
                            hint: "for a server with a certificate of its own, name it in [remote.NAME] ca = \"/path/to/cert.pem\" (docs/sync.md)")
        case .loginRefused(let reason):
            return .failure("the CalDAV server \(remote) refused the login (\(reason)); \(unchanged)",
                            hint: "the password comes from ~/.netrc, or from [remote.NAME] password-command in the configuration")
        case .noSuchDatabase(let reason):
            return .failure("the CalDAV server \(remote) has no calendars there (\(reason)); \(unchanged)",
                            hint: "give the server's address, your principal's or your calendar home's")
        case .permissionDenied(let reason):
            return .failure("the CalDAV server \(remote) refused access (\(reason)); \(unchanged)", hint: "check that this account may write these calendars")
        case .newerSchema, .failed, .unsafeSchema:
            let reason: String
            if case .failed(let text) = failure { reason = text } else { reason = "an unexpected answer" }
            return .failure("the sync with \(remote) failed halfway (\(reason)); \(unchanged); what reached the server is merged again by the next sync",
                            hint: "run sync again: it carries on where it stopped")
        case .helperMissing(let reason):
            return .failure("cannot sync: \(reason); \(unchanged)", hint: "tasks-caldav is built and installed beside tasks (swift build --product tasks-caldav)")
        }
    }
}
