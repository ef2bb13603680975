import QueryLanguage
import ReactorCore
import TaskModel

extension FakeTaskService {
    /// The counts `tasks stats` shows, from the tasks held (no waiting, history or file here).
    public func stats() -> Observable<TaskStats> {
        .deferred { [unowned self] in
            var stats = TaskStats()
            stats.pending = tasks.filter { !$0.isDone }.count
            stats.repeating = tasks.filter { !$0.isDone && $0.repeat != nil }.count
            stats.done = tasks.filter(\.isDone).count
            stats.tags = Set(tasks.flatMap(\.tags)).count
            stats.lists = Set(tasks.map(\.list)).count
            stats.tagged = tasks.filter { !$0.tags.isEmpty }.count
            stats.oldest = tasks.map(\.created).min()
            stats.newest = tasks.map(\.created).max()
            stats.titleCharacters = Int64(tasks.reduce(0) { $0 + $1.title.count })
            return .just(stats)
        }
    }
}
