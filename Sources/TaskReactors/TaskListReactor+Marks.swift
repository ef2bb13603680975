import ReactorCore
import TaskModel

/// Marks: the tasks a change key acts on together (the ui's `v`, `V`, `*`). They are ids, so
/// they stay on their tasks while rows come and go; a task deleted anywhere loses its mark.
/// The changes themselves are the actions on ids (`updateTasks`, `toggleTasksDone`, …): one
/// transaction and one history entry for all of them, one `undo`.
extension TaskListReactor {
    public enum MarkRequest: Equatable, Sendable {
        /// Mark the task, or unmark it when marked; either way it anchors the next range.
        case toggle(Int64)
        /// Mark every row from the anchor's (the task marked last) to row `index`, both
        /// included; without an anchor in the result, row `index` alone.
        case range(to: Int)
        /// Mark every row the query selects, or clear the marks when all are marked already.
        case all
        case clear
    }

    /// The most rows one request marks: a mark is eight bytes, so this bounds what `*` or a
    /// range holds at 8 MB of ids (a set of them about twice that), whatever the result's size.
    public static let markLimit = 1_000_000

    func marking(_ request: MarkRequest) -> Observable<Mutation> {
        let state = currentState
        switch request {
        case .toggle(let id):
            var marks = state.marks
            if marks.remove(id) == nil { marks.insert(id) }
            return .just(.setMarks(marks, anchor: id))
        case .clear:
            return .just(.setMarks([], anchor: nil))
        case .all:
            let count = state.totals.count
            if count > 0 && state.marks.count >= count { return .just(.setMarks([], anchor: nil)) }
            return marked(0..<min(count, Self.markLimit), anchor: state.markAnchor)
        case .range(let index):
            let anchor = state.markAnchor
            let anchorIndex: Observable<Int?> = anchor.map { service.position(of: $0, in: state.query) } ?? .just(nil)
            return anchorIndex.flatMap { [weak self] start -> Observable<Mutation> in
                guard let self else { return .empty() }
                let from = start ?? index
                let lower = min(from, index), upper = min(max(from, index) + 1, lower + Self.markLimit)
                return self.marked(lower..<upper, anchor: anchor ?? self.currentState.task(at: index)?.id)
            }.catch(failed)
        }
    }

    /// The marks with the rows at `range` added.
    private func marked(_ range: Range<Int>, anchor: Int64?) -> Observable<Mutation> {
        service.ids(currentState.query, in: range).map { [weak self] ids -> Mutation in
            let marks = (self?.currentState.marks ?? []).union(ids)
            return .setMarks(marks, anchor: anchor)
        }.catch(failed)
    }
}

extension TaskListReactor.State {
    /// The marks of the tasks `event` deleted, removed.
    mutating func unmarkDeleted(_ event: TaskEvent) {
        switch event {
        case .delete(let task):
            marks.remove(task.id)
            if markAnchor == task.id { markAnchor = nil }
        case .batch(let events):
            for event in events { unmarkDeleted(event) }
        default:
            break
        }
    }

    /// The ids a change key acts on: the marked tasks, in id order, or the cursor's task.
    public var targets: [Int64] {
        if !marks.isEmpty { return marks.sorted() }
        return cursorTask.map { [$0.id] } ?? []
    }
}
