/// Some consecutive rows of what a query selects, in its order: what a list holds of a result
/// too large to hold whole — the rows a screen shows, or the batch `tasks list` is printing.
public struct TaskWindow: Equatable, Sendable {
    /// The index, in the whole result, of the first row.
    public var start: Int
    public var rows: [Task]

    public init(start: Int = 0, rows: [Task] = []) {
        self.start = start
        self.rows = rows
    }

    /// The index after the last row.
    public var end: Int { start + rows.count }
}

/// Which rows of a query's result to read: by position, or next to a row already shown (which
/// stays cheap at any depth: the store seeks to it by its sort keys).
public enum TaskRowRequest: Equatable, Sendable {
    /// The first `count` rows.
    case first(Int)
    /// The last `count` rows.
    case last(Int)
    /// `count` rows from index `offset`.
    case at(offset: Int, count: Int)
    /// The `count` rows after `task`, in the query's order.
    case after(Task, count: Int)
    /// The `count` rows before `task`.
    case before(Task, count: Int)
}

/// What a query selects, summed up before its rows are read: how many, how many per section,
/// and what a table needs to lay its columns out.
public struct TaskQueryTotals: Equatable, Sendable {
    /// How many tasks.
    public var count: Int
    /// Each section's header and how many tasks it holds, in order.
    public var sections: [SectionCount]
    /// The widest title and tags (space-separated), in terminal cells as a terminal shows them
    /// (controls escaped); 0 unless asked for.
    public var titleCells: Int
    public var tagsCells: Int
    /// Whether any task has a due date, a priority (when cells were measured; else false).
    public var anyDue: Bool
    public var anyPriority: Bool
    /// Whether any due date is a moment, not a day (when cells were measured).
    public var anyDueTime = false
    /// The largest id: of the rows when cells were measured, else the largest the store ever
    /// gave.
    public var largestID: Int64

    public init(count: Int = 0, sections: [SectionCount] = [], titleCells: Int = 0, tagsCells: Int = 0, anyDue: Bool = false,
                anyPriority: Bool = false, largestID: Int64 = 0) {
        self.count = count
        self.sections = sections
        self.titleCells = titleCells
        self.tagsCells = tagsCells
        self.anyDue = anyDue
        self.anyPriority = anyPriority
        self.largestID = largestID
    }

    /// A section's header and its number of tasks.
    public struct SectionCount: Equatable, Sendable {
        public var header: String
        public var count: Int

        public init(header: String, count: Int) {
            self.header = header
            self.count = count
        }
    }
}

/// Which of a task's fields a read fills in.
public enum TaskFieldSet: Equatable, Sendable {
    /// Every field.
    case all
    /// What a list shows and sorts by — id, done, list, title, due, priority, tags, position,
    /// created — with the uuid, the notes and the completion and modification times left
    /// empty: a third less to read and decode for `tasks list`.
    case listed
    /// The id and these fields, the others left empty: what a record of `tsv`, `csv` or
    /// `ids` prints. A listing of a million tasks reads and decodes no column it does not
    /// print (its order is SQL's).
    case only([TaskField])
}
