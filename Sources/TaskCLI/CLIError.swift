#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineKit
import SQLiteDB
import TaskKit

/// Why a command did not do what was asked, as the user reads it: one or two lines on stderr
/// starting `tasks: `, and the exit status of the contract.
struct CLIError: Error, Equatable {
    /// 1: it could not; 2: the command line or its input is wrong.
    let status: Int32
    let message: String
    /// A second line: what to do, or the usage.
    let hint: String?

    static func usage(_ message: String, hint: String? = nil) -> CLIError { CLIError(status: 2, message: message, hint: hint) }
    static func failure(_ message: String, hint: String? = nil) -> CLIError { CLIError(status: 1, message: message, hint: hint) }

    /// The text for stderr.
    var text: String {
        "tasks: " + TerminalText.escapingControls(message) + "\n" + (hint.map { "tasks: " + TerminalText.escapingControls($0) + "\n" } ?? "")
    }
}

/// Turns whatever failed into a `CLIError`: the one place errors get their words and status.
enum ErrorPresenter {
    static func present(_ error: any Error, databasePath: String?) -> CLIError {
        let file = databasePath.map { "'\($0)'" } ?? "the database"
        switch error {
        case let error as CLIError:
            return error
        case let error as UsageError:
            return .usage(error.description)
        case let error as TaskFieldError:
            return .usage(error.description)
        case let error as ServiceFailure:
            return present(error.error, databasePath: databasePath)
        case let error as TaskServiceError:
            switch error {
            case .notFound(let ids):
                let names = ids.map(String.init).joined(separator: ", ")
                return .failure(ids.count == 1 ? "no task with id \(names); nothing was changed" : "no tasks with ids \(names); nothing was changed",
                                hint: "'tasks list --all' shows the ids")
            case .moveRelativeToItself(let id):
                return .usage("task \(id) cannot be moved before or after itself")
            }
        case let error as NewerSchemaError:
            return .failure("\(file) is from a newer version of tasks (schema \(error.found); this one knows up to \(error.supported)); it was left untouched",
                            hint: "use a newer tasks, or another --db")
        case let error as PrivateFile.Failure:
            return .failure("cannot create the database at \(file): \(error.path): \(error.reason)",
                            hint: "give a writable place with --db PATH or TASKS_DB")
        case let error as SQLiteError:
            if error.code == .cantOpen, let path = databasePath, !folderIsWritable(path) {
                return .failure("cannot open \(file): its folder is read-only (\(error.message)); nothing was changed",
                                hint: "SQLite needs to write beside the file; copy it somewhere writable to read it")
            }
            return present(error, file: file)
        default:
            return .failure(String(describing: error))
        }
    }

    private static func folderIsWritable(_ path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        return access(folder.isEmpty ? "/" : folder, W_OK) == 0
    }

    private static func present(_ error: SQLiteError, file: String) -> CLIError {
        switch error.code {
        case .notADatabase:
            return .failure("\(file) is not a tasks database (\(error.message)); it was left untouched",
                            hint: "check the path given by --db or TASKS_DB")
        case .corrupt:
            return .failure("\(file) is damaged (\(error.message)); nothing was changed",
                            hint: "restore it from a backup, or try: sqlite3 FILE '.recover'")
        case .readOnly:
            return .failure("\(file) is read-only; nothing was changed", hint: "check its permissions and its folder's")
        case .cantOpen, .permission:
            return .failure("cannot open \(file) (\(error.message))", hint: "check that its folder exists and is writable")
        case .busy, .locked:
            return .failure("\(file) is locked by another program and stayed locked; nothing was changed",
                            hint: "try again when the other program is done")
        case .full:
            return .failure("the disk holding \(file) is full; nothing was changed")
        case .ioError:
            return .failure("cannot read or write \(file) (\(error.message)); nothing was changed")
        default:
            return .failure("\(file): \(error.message)")
        }
    }
}
