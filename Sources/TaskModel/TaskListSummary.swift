/// A list and how many tasks it holds.
public struct TaskListSummary: Equatable, Sendable {
    public var name: String
    public var pending: Int
    public var done: Int

    /// A summary of list `name`.
    public init(name: String, pending: Int, done: Int) {
        self.name = name
        self.pending = pending
        self.done = done
    }
}
