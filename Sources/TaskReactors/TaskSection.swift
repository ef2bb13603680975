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
    func orders(header a: String, before b: String) -> Bool {
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

extension Array where Element == TaskSection {
    /// Where the task with `id` is, if it is shown.
    public func indexPath(of id: Int64) -> (section: Int, item: Int)? {
        for (sectionIndex, section) in enumerated() {
            if let itemIndex = section.items.firstIndex(where: { $0.id == id }) { return (sectionIndex, itemIndex) }
        }
        return nil
    }

    /// Takes the task with `id` out, dropping its section when it empties.
    mutating func remove(id: Int64) {
        guard let (section, item) = indexPath(of: id) else { return }
        self[section].items.remove(at: item)
        if self[section].items.isEmpty { remove(at: section) }
    }

    /// The first index in `items` whose task does not come before `task` in `query`'s order.
    private static func lowerBound(of task: Task, in items: [Task], for query: TaskQuery) -> Int {
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if query.orders(items[middle], before: task) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Puts `task` where `query` orders it: in its section (made if missing), by binary search.
    mutating func insert(_ task: Task, for query: TaskQuery) {
        let header = query.header(for: task)
        if let section = firstIndex(where: { $0.header == header }) {
            let index = Self.lowerBound(of: task, in: self[section].items, for: query)
            self[section].items.insert(task, at: index)
        } else {
            let position = firstIndex { !query.orders(header: $0.header, before: header) } ?? count
            insert(TaskSection(header: header, items: [task]), at: position)
        }
    }

    /// Puts a new task where `query` orders it; when the same task is already there (heard of
    /// twice), replaces it. O(log n).
    mutating func insertOrReplace(_ task: Task, for query: TaskQuery) {
        let header = query.header(for: task)
        if let section = firstIndex(where: { $0.header == header }) {
            let index = Self.lowerBound(of: task, in: self[section].items, for: query)
            if index < self[section].items.count, self[section].items[index].id == task.id {
                self[section].items[index] = task
                return
            }
        }
        insert(task, for: query)
    }

    /// Replaces the task with `task.id` in place when it stays in the same spot, else moves it;
    /// removes it when it no longer matches `query`.
    mutating func place(_ task: Task, for query: TaskQuery) {
        // Fast path, O(log n): a change that keeps the task's sort keys (a toggle in a list of
        // all tasks, an edit of the notes) finds the old version where the new one sorts.
        let header = query.header(for: task)
        if let section = firstIndex(where: { $0.header == header }) {
            let index = Self.lowerBound(of: task, in: self[section].items, for: query)
            if index < self[section].items.count, self[section].items[index].id == task.id {
                if query.matches(task) {
                    self[section].items[index] = task
                } else {
                    self[section].items.remove(at: index)
                    if self[section].items.isEmpty { remove(at: section) }
                }
                return
            }
        }
        if let (section, item) = indexPath(of: task.id), query.matches(task), self[section].header == query.header(for: task) {
            let items = self[section].items
            let afterPrevious = item == 0 || query.orders(items[item - 1], before: task)
            let beforeNext = item == items.count - 1 || query.orders(task, before: items[item + 1])
            if afterPrevious && beforeNext {
                self[section].items[item] = task
                return
            }
        }
        remove(id: task.id)
        if query.matches(task) { insert(task, for: query) }
    }
}
