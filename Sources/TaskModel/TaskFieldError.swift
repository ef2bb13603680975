/// Why a task's fields cannot be saved, with a message a person can act on.
public indirect enum TaskFieldError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyTitle
    case multilineTitle
    case emptyList
    /// A list name typed with an empty part between its dots (`Work..Reports`).
    case emptyListPart(String)
    /// A value of a field set through its `FieldEdit` (due, priority, wait…) that cannot be read.
    case badValue(TaskField, String)
    /// A date counted from another of the task's dates that is not set (`--wait due-3d`, no due).
    case dateFromUnsetField(TaskField, base: TaskField, String)
    case badTag(String)
    case titleTooLong(bytes: Int, limit: Int)
    /// The error of the `n`th (1-based) title of a batch, e.g. line 3 of `tasks add -`.
    case inItem(Int, TaskFieldError)
    /// Not a UUID (32 hex digits in 8-4-4-4-12 groups).
    case badUUID(String)
    /// The same uuid twice in one import, first in record `first`.
    case duplicateUUID(String, first: Int)
    /// A completion time on a task that is not done.
    case completedButPending
    /// The error of record (or line) `number` of an import.
    case inRecord(String, Int, TaskFieldError)
    /// A line of input that is not text: why (`holds a NUL byte`).
    case unreadableLine(String)
    /// Not a repeat rule (`every fortnight`).
    case badRepeat(String)

    public var description: String {
        switch self {
        case .emptyTitle: return "the title is empty; give the task a title"
        case .multilineTitle: return "the title has a line break; put further lines in the notes"
        case .emptyList: return "the list name is empty; name a list, or leave it out for Inbox"
        case .emptyListPart(let text):
            return "'\(text)' has an empty part; a dot puts a list under another (Work.Reports), so each part between dots needs a name"
        case .dateFromUnsetField(_, let base, let text):
            return "'\(text)' counts from the task's \(base.rawValue) date, which is not set; set it first or give a day"
        case .badValue(let field, let text):
            let spec = TaskFields.spec(field)
            return "'\(text)' is not \(spec.edit?.noun ?? "a value for \(field.rawValue)"); use \(spec.kind.grammar)"
        case .badTag(let text):
            if let first = text.first, "+-!".contains(first) {
                return "'\(text)' is not a tag; a tag is one word, not starting with +, - or ! (those add, remove and leave out tags)"
            }
            return "'\(text)' is not a tag; a tag is one word without spaces"
        case .titleTooLong(let bytes, let limit):
            return "the title is \(bytes) bytes long; keep it to \(limit) bytes or fewer and put the rest in the notes"
        case .inItem(let number, let error): return "title \(number): \(error)"
        case .badUUID(let text): return "'\(text)' is not a uuid; a uuid is 32 hex digits such as 0190f1e2-7c3a-7b4d-8e5f-123456789abc"
        case .duplicateUUID(let uuid, let first): return "uuid \(uuid) was already used by record \(first); each task once"
        case .completedButPending: return "\"completed\" is set but \"done\" is false; a pending task has no completion time"
        case .inRecord(let unit, let number, let error): return "\(unit) \(number): \(error)"
        case .unreadableLine(let reason): return "the line \(reason)"
        case .badRepeat(let text):
            return "'\(text)' is not an interval; use day, weekday, week, month, year, or a count with d, w, m or y (2w, 3m)"
        }
    }
}
