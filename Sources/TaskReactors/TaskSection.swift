import QueryLanguage
import TaskModel

/// A header and its tasks, as a list shows them: one list, or one status.
public struct TaskSection: Equatable, Sendable {
    /// The list's name, `Pending`/`Done` when grouped by status, empty when not grouped.
    public var header: String
    /// The tasks, in the query's order.
    public var items: [Task]

    /// A section.
    public init(header: String, items: [Task]) {
        self.header = header
        self.items = items
    }
}

extension TaskQuery {
    /// The section header `task` falls under in this query's grouping.
    public func header(for task: Task) -> String {
        switch grouping {
        case .byList: return task.list
        case .byStatus: return task.isDone ? "Done" : "Pending"
        case .none: return ""
        }
    }

    /// Whether section `a` comes before section `b` (the store's SQL orders them the same way).
    public func orders(header a: String, before b: String) -> Bool {
        switch grouping {
        case .byList: return a < b
        case .byStatus: return a == "Pending" && b == "Done"
        case .none: return false
        }
    }

    /// Splits tasks in this query's order into sections: each section's items are one
    /// exact-size copy, and a single section takes the array itself (no copy at all).
    public func sections(from tasks: consuming [Task]) -> [TaskSection] {
        var bounds: [(header: String, start: Int)] = []
        for index in tasks.indices {
            let header = header(for: tasks[index])
            if bounds.last?.header != header { bounds.append((header, index)) }
        }
        if bounds.count == 1 { return [TaskSection(header: bounds[0].header, items: tasks)] }
        var sections: [TaskSection] = []
        sections.reserveCapacity(bounds.count)
        for (number, bound) in bounds.enumerated() {
            let end = number + 1 < bounds.count ? bounds[number + 1].start : tasks.count
            sections.append(TaskSection(header: bound.header, items: Array(tasks[bound.start..<end])))
        }
        return sections
    }
}
