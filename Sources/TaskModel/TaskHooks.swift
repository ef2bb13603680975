/// What runs beside a command's changes, inside its transaction: Taskwarrior's `on-add` and
/// `on-modify` hooks (`tasks hooks`). Each is shown the task as the command left it and gives
/// it back, changed or not; a refusal (`TaskServiceError.hookRefused`) undoes the whole command.
/// Changes that arrive by sync, import, undo or redo are shown to none.
public protocol TaskHooks: AnyObject {
    /// A task the command made.
    func added(_ task: Task) throws(TaskServiceError) -> Task
    /// A task the command changed, as it was before the command and as the command left it;
    /// a deleted one is `isDeleted` (what a hook gives back for it is not kept).
    func modified(_ before: Task, _ after: Task) throws(TaskServiceError) -> Task
}
