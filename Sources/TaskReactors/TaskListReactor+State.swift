import QueryLanguage
import ReactorCore
import TaskModel

extension TaskListReactor {
    public struct State: Equatable {
        public var query: TaskQuery
        /// What the query selects, summed up: the count, per section too.
        public var totals = TaskQueryTotals()
        /// The rows held: a part of the result, or all of it (`isComplete`).
        public var window = TaskWindow()
        public var isLoading = false
        /// An event changed a task the window could not place (its old place was outside the
        /// window); the totals and the window are being read again.
        public var isStale = false
        /// Whether `totals` counts the whole result; false between `open` and `count`, when
        /// they sum up only the rows held.
        public var isCounted = true
        /// A service call failed.
        @Pulse public var failure: TaskServiceError?
        /// The lists with their counts, once loaded.
        public var lists: [TaskListSummary]?
        /// The tags with their counts, once loaded.
        public var tags: [TaskListSummary]?
        /// Records kept for another tool (`loadKept`).
        public var kept: [KeptRecord] = []
        /// Each committed change as it arrives, whether or not it touches the window: what a
        /// view confirms after a toggle, a delete or a move.
        @Pulse public var applied: TaskEvent?
        /// What the last change this reactor was sent committed (`toggleTasksDone`, …), as the
        /// service returned it: what `tasks toggle` confirms.
        @Pulse public var change: TaskEvent?
        /// An undo or redo went through.
        @Pulse public var step: HistoryStep?
        /// The row of the result the cursor is on, and its task (when the window holds it).
        public var cursor = 0
        public var cursorID: Int64?
        /// A delete waiting for its confirmation.
        public var pendingDelete: Task?
        /// An undo of a change made elsewhere, waiting for its confirmation.
        public var undoQuestion: HistoryEntry?
        /// The tasks a filter chose for a change (`choose`), all of them, in the query's order.
        public var chosen: [Task]?
        /// Why an action did nothing (a nudge past the end of a list, in another order).
        @Pulse public var notice: String?

        /// The tasks marked (the ui's `v`, `V`, `*`): a change key acts on all of them at once.
        public var marks: Set<Int64> = []
        /// The task marked last, where `V`'s range starts.
        public var markAnchor: Int64?

        public init(query: TaskQuery) { self.query = query }

        /// The rows held, in order.
        public var tasks: [Task] { window.rows }
        /// The rows held, in sections (a section's `items` are those of its rows in the window;
        /// its whole count is in `totals.sections`).
        public var sections: [TaskSection] { query.sections(from: window.rows) }
        /// Whether the window holds the whole result.
        public var isComplete: Bool { window.start == 0 && window.rows.count == totals.count }
        /// The task under the cursor, when the window holds it.
        public var cursorTask: Task? { task(at: cursor) }

        /// Row `index` of the result, when the window holds it.
        public func task(at index: Int) -> Task? {
            let offset = index - window.start
            return window.rows.indices.contains(offset) ? window.rows[offset] : nil
        }

        /// The cursor back on its task after the rows changed: by id when the window holds it,
        /// else on the same row (the next task takes the place of one that left).
        mutating func pinCursor() {
            if let id = cursorID, let offset = window.rows.firstIndex(where: { $0.id == id }) {
                cursor = window.start + offset
                return
            }
            cursor = max(0, min(cursor, totals.count - 1))
            cursorID = task(at: cursor)?.id
        }
    }
}
