import QueryLanguage
import ReactorCore
import TaskModel

extension FakeTaskService {
    /// The tasks held, counted by their UTC days (the fake keeps no deleted tasks).
    public func activity(_ query: TaskQuery) -> Observable<TaskActivity> {
        .deferred { [unowned self] in
            let zone = LocalTime.fixed(offsetSeconds: 0)
            let groups = tasks.filter { query.matches($0) }.map { task in
                let kind: TaskActivity.Kind = task.isDone ? .done : task.start != nil ? .started : .pending
                let ended = task.isDone ? (task.completed ?? task.modified) : task.start
                return TaskActivity.Group(created: zone.day(task.created), ended: ended.map(zone.day), kind: kind, count: 1)
            }
            return .just(TaskActivity(groups: groups))
        }
    }
}

extension FakeTaskService {
    public func dueCounts(_ query: TaskQuery) -> Observable<[CalendarDay: Int]> {
        .deferred { [unowned self] in
            var counts: [CalendarDay: Int] = [:]
            for task in tasks where query.matches(task) {
                if let due = task.due { counts[due.day, default: 0] += 1 }
            }
            return .just(counts)
        }
    }
}

extension FakeTaskService {
    public func keptRecords(format: String) -> Observable<[KeptRecord]> {
        .deferred { [unowned self] in .just(kept.values.filter { $0.format == format }.sorted { $0.uuid < $1.uuid }) }
    }
}
