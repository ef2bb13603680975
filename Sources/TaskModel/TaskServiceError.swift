/// Why a service call failed, in terms a user can act on: the model's own cases, storage
/// failures included, so that nothing above the store sees SQLite. Compared by case.
public enum TaskServiceError: Error, Equatable, Sendable {
    /// These ids do not exist; nothing was changed.
    case notFound(ids: [Int64])
    /// These ids are no deleted task's (`undelete`, `purge`); nothing was changed.
    case notDeleted(ids: [Int64])
    /// A move relative to the task itself.
    case moveRelativeToItself(id: Int64)
    /// A done task cannot be started (`action`: what was asked).
    case notPending(id: Int64, title: String, action: String)
    /// Dependencies that would go round: each id waits on the next, the last on the first.
    case dependencyCycle(ids: [Int64])
    /// Subtasks that would go round: each id a subtask of the next, the last of the first.
    case parentCycle(ids: [Int64])
    /// A hook (`on-launch`, `on-add`, `on-modify`) refused the command, saying `reason`.
    case hookRefused(hook: String, reason: String)
    /// The task has no annotation that `pick` names (its text, or its number from 1).
    case noSuchAnnotation(id: Int64, pick: String)

    // MARK: The history

    /// No command entry is in effect: nothing to undo.
    case nothingToUndo
    /// No entry was undone since the last change: nothing to redo.
    case nothingToRedo
    /// No such entry: never made, or older than the history keeps.
    case noSuchEntry(Int64)
    /// The entry was undone already (by the undo entry `by`), or is itself an undo or redo.
    case notUndoable(entry: Int64, reason: String)
    /// A later entry in effect changed a task this one changed: undo that one first.
    case changedLater(entry: Int64, taskID: Int64, title: String, later: Int64, laterSummary: String)

    // MARK: The store's failures, with the database's path

    /// The file is not a database (SQLite's reason).
    case notADatabase(path: String, reason: String)
    /// The file is damaged (SQLite's reason).
    case damaged(path: String, reason: String)
    /// The file or its folder cannot be written.
    case readOnly(path: String)
    /// Another program held the file locked for the whole busy timeout.
    case locked(path: String)
    /// The disk holding the file is full.
    case diskFull(path: String)
    /// The file is from a newer version of the program.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file, or a folder on its way, could not be made.
    case cannotCreate(path: String, reason: String)
    /// The file could not be opened; `folderIsReadOnly` when SQLite could not write beside it.
    case cannotOpen(path: String, reason: String, folderIsReadOnly: Bool)
    /// Reading or writing the file failed (an I/O error).
    case ioFailure(path: String, reason: String)
    /// Anything else, as described.
    case unexpected(String)

    // MARK: Sync

    /// No remote was named (`--remote`, `TASKS_REMOTE`) and none is remembered.
    case noRemote
    /// A sync with the remote failed; nothing was changed here.
    case remote(RemoteFailure, remote: String)

    /// `error` as a `TaskServiceError`: itself when it is one, else `.unexpected`.
    public init(_ error: any Error) {
        self = error as? TaskServiceError ?? .unexpected(String(describing: error))
    }
}

/// Why an exchange with a remote failed.
public enum RemoteFailure: Equatable, Sendable {
    /// The remote's address is not one the client understands.
    case badAddress(String)
    /// The server could not be reached (the client's reason).
    case unreachable(String)
    /// The server's certificate is not one this machine trusts, or TLS failed (the reason).
    case untrusted(String)
    /// A remote on plain `http://` to another machine: the password would cross the network
    /// in the clear (refused unless the configuration says `insecure = true`).
    case inTheClear(host: String)
    /// A PostgreSQL remote's `tasks_schema` is writable by roles other than its owner (the
    /// helper's message names them and the statement that fixes it).
    case unsafeSchema(String)
    /// The server refused the login.
    case loginRefused(String)
    /// The server has no database of the name the address gives.
    case noSuchDatabase(String)
    /// The role may not read or write the tasks tables (or make them).
    case permissionDenied(String)
    /// The remote's schema is newer than this program knows.
    case newerSchema(found: Int, supported: Int)
    /// The program that talks to the server is not installed.
    case helperMissing(String)
    /// The exchange failed halfway (the server stopped, the connection broke).
    case failed(String)
}
