/// A committed change, as `TaskService.event` announces it.
public enum TaskEvent: Equatable, Sendable {
    case create(Task)
    case update(Task)
    /// The task as it was when deleted.
    case delete(Task)
    case move(Task)
    case markAsDone(Task)
    case markAsUndone(Task)
    /// Several changes committed together, in order.
    case batch([TaskEvent])
    /// Tasks changed in a way no event above can say to a list that does not hold them (one
    /// changed, then deleted, by another process between two looks: what it was before is not
    /// the row kept): a list reads its totals and rows again.
    case reread
}

extension TaskEvent {
    /// The events of one commit as one event: the event itself when there is one, else a
    /// batch (empty when nothing changed).
    public static func of(_ committed: [TaskEvent]) -> TaskEvent {
        committed.count == 1 ? committed[0] : .batch(committed)
    }

    /// What an event did to a task, as a confirmation names it.
    public enum Outcome: Sendable { case made, changed, removed }

    /// The tasks the event is about, in order, each with what happened to it.
    public var outcomes: [(Outcome, Task)] {
        switch self {
        case .create(let task): return [(.made, task)]
        case .update(let task), .move(let task), .markAsDone(let task), .markAsUndone(let task): return [(.changed, task)]
        case .delete(let task): return [(.removed, task)]
        case .batch(let events): return events.flatMap { $0.outcomes }
        case .reread: return []
        }
    }

    /// The tasks it changed (not those it made or removed), in order.
    public var changedTasks: [Task] { outcomes.compactMap { $0.0 == .changed ? $0.1 : nil } }
}
