#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineKit
import TextFormats
import TaskInterchange
import TaskModel

/// A command line after validation: every id a positive number, every format known, stdin
/// read and checked. Nothing here has touched the database.
enum Command {
    case help([String])
    case version
    case list(TaskQuery)
    case lists
    /// The full-screen list and editor.
    case ui(TaskQuery)
    /// The ranked list: at most `limit` tasks, with their scores explained.
    case next(TaskQuery, explain: Bool)
    case add(titles: [String], fromStdin: Bool, fields: FieldFlags)
    /// `add -`: titles from stdin, one per line, read as the tasks are written (the first line
    /// is read and checked already: bad input there never opens the database).
    case addLines(LineReader, fields: FieldFlags)
    case setDone(ids: [Int64], how: DoneChange)
    case edit(id: Int64, fields: FieldFlags)
    case show(id: Int64)
    case delete(ids: [Int64])
    case move(id: Int64, to: TaskPlacement)
    case export(InterchangeFormat)
    /// A file read and parsed (not yet checked against the task rules), and where it came from.
    case importTasks(ImportedFile, source: String)
    case completions(Shell)
    case undo(entry: Int64?)
    case redo
    case history(HistoryQuery)
    /// Exchange changes with `url`, else the remote remembered; `remember` keeps `url`.
    case sync(url: String?, remember: Bool)

    enum DoneChange { case toggle, done, reopen }

    /// Whether the command changes tasks: only then does a failure say "nothing was changed".
    var changesTasks: Bool {
        switch self {
        case .help, .version, .list, .lists, .next, .show, .export, .completions, .history: return false
        case .ui, .add, .addLines, .setDone, .edit, .delete, .move, .importTasks, .undo, .redo, .sync: return true
        }
    }
}

/// The field flags of `add` and `edit`, as typed; the editor reactor judges them.
struct FieldFlags: Equatable {
    var title: String?
    var notes: String?
    var list: String?
    var due: String?
    var priority: String?
    var addTags: [String] = []
    var removeTags: [String] = []
    /// `every 2w`, `after 3d`, or `''` to stop.
    var repeatRule: String?
    var wait: String?

    var isEmpty: Bool { self == FieldFlags() }
}

/// The output settings of a run.
struct OutputSettings {
    var format: OutputFormat
    /// `--format` was given (not the default for the terminal or pipe).
    var isExplicit: Bool
    var header: Bool
    var quiet: Bool
    var color: Bool
}

/// The shells `tasks completions` writes for.
enum Shell: String {
    case bash, zsh, fish
}
