#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Making a database file that only its owner can read: the folders it needs (0700) and an
/// empty file (0600), before SQLite opens it. SQLite gives its -wal and -shm files the same
/// permissions as the database file.
public enum PrivateFile {
    /// A failure to make the folder or the file, with the path and the system's reason.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The path that could not be made.
        public let path: String
        /// The `errno` value.
        public let errorNumber: Int32
        /// The system's text for it.
        public var reason: String { String(cString: strerror(errorNumber)) }
        public var description: String { "\(path): \(reason)" }
    }

    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether `path` is a symbolic link to an empty file: someone else's file (an empty file
    /// this program made is reached by its own name), which SQLite would take as an empty
    /// database and write into.
    public static func linksToAnEmptyFile(_ path: String) -> Bool {
        var link = stat()
        var target = stat()
        guard lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, stat(path, &target) == 0 else { return false }
        return (target.st_mode & S_IFMT) == S_IFREG && target.st_size == 0
    }

    /// Creates `path` (and missing parent folders) unless it exists. Returns whether it created it.
    @discardableResult
    public static func createIfMissing(_ path: String) throws -> Bool {
        if exists(path) { return false }
        try createFolders(for: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return false }
            throw Failure(path: path, errorNumber: errno)
        }
        close(descriptor)
        return true
    }

    private static func createFolders(for path: String) throws {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast()
        var current = path.hasPrefix("/") ? "" : "."
        for component in components where !component.isEmpty {
            current += "/" + component
            if exists(current) { continue }
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw Failure(path: current, errorNumber: errno)
            }
        }
    }
}
