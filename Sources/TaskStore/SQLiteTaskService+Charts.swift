import QueryLanguage
import ReactorCore
import SQLiteDB
import TaskModel

extension SQLiteTaskService {
    public func activity(_ query: TaskQuery) -> Observable<TaskActivity> {
        call { try $0.activityNow(query) }
    }

    /// `TaskActivity` in one pass over the tasks and the tombstones the query chooses: each
    /// row's moment made, moment ended (or started) and kind handed to `tasks_tally`, which
    /// counts them by local day in Swift — a GROUP BY's sort of every row took most of 130 ms
    /// at 100,000 tasks. A day's span is asked of the zone once (`LocalDays`).
    func activityNow(_ query: TaskQuery) throws -> TaskActivity {
        let days = LocalDays(localTime)
        struct Key: Hashable { var made: Int64, ended: Int64?, kind: Int64 }
        var counts: [Key: Int] = [:]
        try db.defineTally("tasks_tally") { made, ended, kind in
            guard let made, let kind else { return }
            counts[Key(made: days.day(containing: made), ended: ended.map(days.day(containing:)), kind: kind), default: 0] += 1
        }
        var query = query
        query.withDeleted = true
        let condition = TaskQuerySQL.whereClause(query)
        // Without a filter only the columns counted are read (the tombstones' `modified` is
        // when they were deleted, as in `TaskQuerySQL.source`); with one, every column it may name.
        let source = query.filter == nil && query.search == nil
            ? """
              (SELECT created, completed, modified, start, done, 0 AS deleted FROM task UNION ALL \
              SELECT d.created, d.completed, coalesce(d.removed, d.modified), d.start, d.done, 1 \
              FROM deleted_task AS d WHERE \(TaskQuerySQL.tombstone("d"))) AS task
              """
            : TaskQuerySQL.source(query)
        _ = try db.query("""
            SELECT count(tasks_tally(created,
                CASE WHEN deleted = 1 THEN modified WHEN done = 1 THEN coalesce(completed, modified) ELSE start END,
                CASE WHEN deleted = 1 THEN 3 WHEN done = 1 THEN 2 WHEN start IS NOT NULL THEN 1 ELSE 0 END))
            FROM \(source)\(condition.sql)
            """, condition.arguments) { _ in }
        let groups = counts.compactMap { key, count -> TaskActivity.Group? in
            guard let made = CalendarDay(daysSince1970: Int(key.made)), let kind = TaskActivity.Kind(rawValue: Int(key.kind)) else { return nil }
            return TaskActivity.Group(created: made, ended: key.ended.flatMap { CalendarDay(daysSince1970: Int($0)) }, kind: kind, count: count)
        }
        return TaskActivity(groups: groups)
    }
}

/// The local day of a moment, each day's span kept once the zone has told it: moments come
/// in runs of the same day, and a day is asked of the zone once.
final class LocalDays {
    private let zone: LocalTime
    /// Spans `[low, high)` in milliseconds, by `low`, with their day's number.
    private var spans: [(low: Int64, high: Int64, day: Int64)] = []

    init(_ zone: LocalTime) { self.zone = zone }

    /// The span found last: the next moment is most often in it.
    private var last = 0

    func day(containing milliseconds: Int64) -> Int64 {
        if last < spans.count, spans[last].low <= milliseconds, milliseconds < spans[last].high { return spans[last].day }
        var low = 0, high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].low <= milliseconds { low = middle + 1 } else { high = middle }
        }
        if low > 0, milliseconds < spans[low - 1].high {
            last = low - 1
            return spans[low - 1].day
        }
        let day = zone.day(Timestamp(millisecondsSince1970: milliseconds))
        let start = zone.midnight(day).millisecondsSince1970
        // A day the zone cannot bound (the calendar's ends, a gap) is answered, not kept.
        if let next = day.adding(days: 1), start <= milliseconds, milliseconds < zone.midnight(next).millisecondsSince1970 {
            spans.insert((start, zone.midnight(next).millisecondsSince1970, Int64(day.daysSince1970)), at: low)
        }
        return Int64(day.daysSince1970)
    }
}

extension SQLiteTaskService {
    public func dueCounts(_ query: TaskQuery) -> Observable<[CalendarDay: Int]> {
        call { service in
            // The day a due is written on (a moment's own day, as it shows), by the due index.
            let condition = TaskQuerySQL.whereClause(query)
            var counts: [CalendarDay: Int] = [:]
            _ = try service.db.query("SELECT substr(due, 1, 10), count(*) FROM \(TaskQuerySQL.source(query))\(condition.sql) GROUP BY 1",
                                     condition.arguments) { row in
                if let day = CalendarDay(row.string(0)) { counts[day, default: 0] += Int(row.int64(1)) }
            }
            return counts
        }
    }
}
