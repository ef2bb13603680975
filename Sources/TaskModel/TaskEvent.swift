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
}
