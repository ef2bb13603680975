/// Why a service call failed, in terms a user can act on: the model's own cases, storage
/// failures included, so that nothing above the store sees SQLite. Compared by case.
public enum TaskServiceError: Error, Equatable, Sendable {
    /// These ids do not exist; nothing was changed.
    case notFound(ids: [Int64])
    /// A move relative to the task itself.
    case moveRelativeToItself(id: Int64)

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

    /// `error` as a `TaskServiceError`: itself when it is one, else `.unexpected`.
    public init(_ error: any Error) {
        self = error as? TaskServiceError ?? .unexpected(String(describing: error))
    }
}
