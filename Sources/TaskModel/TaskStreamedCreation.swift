/// New tasks that differ only in their titles, taken one at a time, for a batch too large to
/// hold (`tasks add -` of a million lines): each is `template` with the next title `titles`
/// yields, `nil` at the end. A title that cannot be read throws — a `TaskFieldError` naming its
/// line — and then nothing of the batch is kept.
public struct TaskTitleStream {
    /// Every new task's fields but its title; its uuid is not used (each task gets its own),
    /// nor are its dependencies (a batch with them is given as drafts, to `create(_:)`, which
    /// sets them task by task and checks each for a cycle).
    public let template: TaskDraft
    /// Set when `titles` was read to its end and checked before the call: it yields exactly
    /// this many and throws none, so the store may write them the way a known batch is written.
    public let checkedCount: Int?
    /// The next title, or `nil` at the end.
    public let titles: () throws -> String?

    public init(template: TaskDraft, checkedCount: Int? = nil, titles: @escaping () throws -> String?) {
        self.template = template
        self.checkedCount = checkedCount
        self.titles = titles
    }
}

/// How a streamed batch of new tasks is going.
public enum TaskCreationProgress: Equatable, Sendable {
    /// This many rows are written so far, in the transaction (not committed yet).
    case written(Int)
    /// Committed: `count` tasks with the ids `first…first + count - 1` (one transaction's new
    /// rows take consecutive ids), the first `head` of them whole, for a confirmation.
    case committed(first: Int64, count: Int, head: [Task])
}
