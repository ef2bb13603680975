/// New tasks one at a time, for a batch too large to hold (`tasks add -` of a million lines):
/// the next draft, or `nil` at the end. A draft that cannot be made throws — a
/// `TaskFieldError` naming its line — and then nothing of the batch is kept.
public typealias TaskDraftSource = () throws -> TaskDraft?

/// How a streamed batch of new tasks is going.
public enum TaskCreationProgress: Equatable, Sendable {
    /// This many rows are written so far, in the transaction (not committed yet).
    case written(Int)
    /// Committed: `count` tasks with the ids `first…first + count - 1` (one transaction's new
    /// rows take consecutive ids), the first `head` of them whole, for a confirmation.
    case committed(first: Int64, count: Int, head: [Task])
}
