import TaskModel
/// Why a query leaves a task out, in a few words a person can act on: what `tasks ui` says
/// when a task it added or changed is not on the screen (`Added 21 — hidden by the filter
/// priority:M`), so that a task leaving the view is never a surprise.
extension TaskQuery {
    /// The first reason `matches` gives for leaving `task` out, or nil when it selects it. The
    /// checks run in `matches`' order, so the reason is the one that decided.
    public func whyHidden(_ task: Task, world: FilterWorld = .unknown) -> String? {
        guard !matches(task, world: world) else { return nil }
        switch status {
        case .pending where task.isDone: return "done"
        case .done where !task.isDone: return "not done"
        default: break
        }
        if active && !task.isActive { return "not started" }
        if let today {
            let now = clockReading ?? today.description
            if waiting == .hidden, task.isWaiting(on: today, at: now), let wait = task.wait {
                return "waiting until \(wait.description) (f: the waiting report)"
            }
            if expired == .hidden, task.isExpired(on: today, at: now) { return "expired (tasks list --expired)" }
        }
        if let filter, let term = filter.deciding(task, clock: filterClock, world: world) { return "hidden by the filter \(term)" }
        if let search, !search.isEmpty { return "hidden by the search '\(search)'" }
        return "hidden by this view"
    }
}

extension TaskFilter {
    /// The part of the filter that leaves `task` out, on one line: the first failing word of an
    /// `and`, or the whole of an `or`, `not` or `xor` that fails. Nil when `task` passes.
    func deciding(_ task: Task, clock: FilterClock, world: FilterWorld) -> String? {
        guard !matches(task, clock: clock, world: world) else { return nil }
        switch self {
        case .and(let parts):
            return parts.lazy.compactMap { $0.deciding(task, clock: clock, world: world) }.first ?? oneLine
        default:
            return oneLine
        }
    }

    /// The tree on one line: `+a`, `not +b`, `(+a or +b)`.
    public var oneLine: String {
        switch self {
        case .term(let term): return term.description
        case .not(let inner): return "not " + inner.oneLine
        case .and(let parts): return parts.count == 1 ? parts[0].oneLine : "(" + parts.map(\.oneLine).joined(separator: " and ") + ")"
        case .or(let parts): return parts.isEmpty ? "nothing" : "(" + parts.map(\.oneLine).joined(separator: " or ") + ")"
        case .xor(let a, let b): return "(\(a.oneLine) xor \(b.oneLine))"
        }
    }
}
