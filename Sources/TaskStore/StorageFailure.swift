#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SQLiteDB
import TaskModel

/// SQLite's failures, and the file's, in the model's words: the one place the store turns an
/// error of its own into a `TaskServiceError`.
enum StorageFailure {
    static func translate(_ error: any Error, path: String) -> TaskServiceError {
        switch error {
        case let error as TaskServiceError:
            return error
        case let error as NewerSchemaError:
            return .newerSchema(path: path, found: error.found, supported: error.supported)
        case let error as PrivateFile.Failure:
            return .cannotCreate(path: path, reason: "\(error.path): \(error.reason)")
        case let error as SQLiteError:
            return translate(error, path: path)
        default:
            return TaskServiceError(error)
        }
    }

    private static func translate(_ error: SQLiteError, path: String) -> TaskServiceError {
        switch error.code {
        case .notADatabase: return .notADatabase(path: path, reason: error.message)
        case .corrupt: return .damaged(path: path, reason: error.message)
        case .readOnly: return .readOnly(path: path)
        case .cantOpen, .permission:
            return .cannotOpen(path: path, reason: error.message, folderIsReadOnly: !folderIsWritable(path))
        case .busy, .locked: return .locked(path: path)
        case .full: return .diskFull(path: path)
        case .ioError: return .ioFailure(path: path, reason: error.message)
        default: return .unexpected("\(path): \(error.message)")
        }
    }

    private static func folderIsWritable(_ path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        return access(folder.isEmpty ? "/" : folder, W_OK) == 0
    }
}
