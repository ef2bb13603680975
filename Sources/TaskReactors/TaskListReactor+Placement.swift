import QueryLanguage
import ReactorCore
import TaskModel

/// Placing a committed change into the window without reading the result again: the totals
/// count it in or out, and the window takes it in, lets it go, or shifts by one as it lands
/// before, inside or after the rows held.
extension TaskListReactor.State {
    /// Places `event`; false when it cannot: a changed task whose old version lay outside the
    /// window (it may have left the result, or moved across the window), when the window
    /// does not hold the whole result.
    mutating func place(_ event: TaskEvent) -> Bool {
        switch event {
        case .create(let task):
            // The largest id given grows with every new task, shown or not.
            totals.largestID = max(totals.largestID, task.id)
            if let index = window.rows.firstIndex(where: { $0.id == task.id }) {
                // Heard of twice (the change feed after one's own event): the same task again.
                return replace(at: index, with: task)
            }
            enter(task)
            return true
        case .delete(let task):
            // What was counted is the version held, not the row the delete kept (a task done
            // and deleted between two looks is kept done); with the whole result held, a task
            // not held was not in it.
            if let held = window.rows.first(where: { $0.id == task.id }) {
                leave(held)
            } else if !isComplete {
                leave(task)
            }
            return true
        case .update(let task), .move(let task), .markAsDone(let task), .markAsUndone(let task):
            if let index = window.rows.firstIndex(where: { $0.id == task.id }) { return replace(at: index, with: task) }
            // Not held: when the window holds everything, the old version was not in the result.
            guard isComplete else { return false }
            enter(task)
            return true
        case .reread:
            return false
        case .batch(let events):
            var placed = true
            for event in events where !place(event) { placed = false }
            return placed
        }
    }

    /// The held task at `index` becomes `task`: in place when it keeps its spot, else out and in.
    private mutating func replace(at index: Int, with task: Task) -> Bool {
        let old = window.rows[index]
        if query.matches(task) && query.header(for: task) == query.header(for: old) {
            // Read in place: a second reference to the rows would copy them all on the write.
            let afterPrevious = index == 0 || query.precedes(window.rows[index - 1], task)
            let beforeNext = index == window.rows.count - 1 || query.precedes(task, window.rows[index + 1])
            if afterPrevious && beforeNext {
                window.rows[index] = task
                return true
            }
        }
        leave(old)
        enter(task)
        return true
    }

    /// A task joins the result, when it matches: counted, and held when it lands in the window.
    private mutating func enter(_ task: Task) {
        guard query.matches(task) else { return }
        let reachesEnd = window.end >= totals.count
        count(task, by: 1)
        let index = Self.lowerBound(of: task, in: window.rows, for: query)
        if index == 0 && window.start > 0 {
            window.start += 1  // before the window
        } else if index == window.rows.count && !reachesEnd {
            return  // after the window, which does not reach the end
        } else {
            window.rows.insert(task, at: index)
        }
    }

    /// A task leaves the result, when it was in it: uncounted, and dropped or shifted past.
    private mutating func leave(_ task: Task) {
        guard query.matches(task) else { return }
        if let index = window.rows.firstIndex(where: { $0.id == task.id }) {
            window.rows.remove(at: index)
        } else if let first = window.rows.first, query.precedes(task, first) {
            window.start -= 1
        } else if window.rows.isEmpty && window.start > 0 && window.start >= totals.count {
            window.start -= 1  // a window past the end stays at the end
        }
        count(task, by: -1)
    }

    /// Adds `delta` to the count of the result and of the task's section.
    private mutating func count(_ task: Task, by delta: Int) {
        totals.count = max(0, totals.count + delta)
        let header = query.header(for: task)
        if let index = totals.sections.firstIndex(where: { $0.header == header }) {
            totals.sections[index].count += delta
            if totals.sections[index].count <= 0 { totals.sections.remove(at: index) }
        } else if delta > 0 {
            let position = totals.sections.firstIndex { !query.orders(header: $0.header, before: header) } ?? totals.sections.count
            totals.sections.insert(.init(header: header, count: delta), at: position)
        }
        if delta > 0 { totals.largestID = max(totals.largestID, task.id) }
    }

    /// The first index in `rows` whose task does not come before `task` in `query`'s order.
    static func lowerBound(of task: Task, in rows: [Task], for query: TaskQuery) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if query.precedes(rows[middle], task) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension TaskQuery {
    /// Whether `a` comes before `b` in the result: by section, then in the section's order —
    /// the order of the store's SQL.
    public func precedes(_ a: Task, _ b: Task) -> Bool {
        let (x, y) = (header(for: a), header(for: b))
        return x == y ? orders(a, before: b) : orders(header: x, before: y)
    }
}

extension TaskListReactor {
    /// `J`/`K`: past the neighbour in the same list, in manual order.
    func nudge(_ id: Int64, down: Bool) -> Observable<Mutation> {
        let state = currentState
        guard state.query.sort == .manual else { return .just(.setNotice("tasks move one place in manual order only (this list is sorted)")) }
        let rows = state.window.rows
        guard let index = rows.firstIndex(where: { $0.id == id }) else { return .empty() }
        let neighbour = down ? index + 1 : index - 1
        guard rows.indices.contains(neighbour), rows[neighbour].list == rows[index].list else {
            return .just(.setNotice(down ? "already the last of \(rows[index].list)" : "already the first of \(rows[index].list)"))
        }
        let placement: TaskPlacement = down ? .after(rows[neighbour].id) : .before(rows[neighbour].id)
        return reportOnly(service.move(id: id, to: placement))
    }
}
