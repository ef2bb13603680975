import QueryLanguage
import SQLiteDB
import TaskModel

// MARK: - Repeating tasks: the next occurrence, made with the done

extension SQLiteTaskService {
    /// The occurrence after `done` (just marked done), inserted in the same transaction: due on
    /// the rule's next date after both its due date and today; the same title, notes, list,
    /// priority, tags, rule, series and wait offset; a uuid derived from the series and the
    /// due date. When a task with that uuid exists already (the same occurrence completed by
    /// another process, or brought by a sync), nothing is made; nor when the series has a
    /// pending occurrence due after this one (Taskwarrior makes its instances ahead of time:
    /// that one is the next, and a second would be a duplicate there).
    func makeNextOccurrence(after done: Task, entry: EntryRecorder) throws -> Task? {
        guard let rule = done.repeat else { return nil }
        let series = done.series ?? done.uuid
        if let day = done.due?.day {
            if try db.scalar("""
                SELECT count(*) FROM task WHERE series = ? AND done = 0 AND id != ? AND substr(due, 1, 10) > ?
                """, series, done.id, day.description) ?? 0 > 0 {
                return nil
            }
        }
        let today = today()
        guard let nextDay = rule.nextDue(after: done.due?.day, anchor: done.anchor, doneOn: today) else { return nil }
        if let parent = ExtrasText.value("parent", in: done.extras), try hasTaskwarriorInstance(of: parent, from: nextDay, besides: done.id) {
            return nil
        }
        let due = done.due?.on(nextDay, in: localTime) ?? TaskDate(nextDay)
        let uuid = UUIDText.derived(from: "\(series) \(nextDay)")
        if try db.scalar("SELECT count(*) FROM task WHERE uuid = ?", uuid) ?? 0 > 0 { return nil }
        var next = done
        next.id = 0
        next.uuid = uuid
        next.isDone = false
        next.completed = nil
        next.due = due
        next.series = series
        next.anchor = done.anchor ?? done.due?.day ?? today
        if let wait = done.wait, let oldDue = done.due {
            next.wait = nextDay.adding(days: wait.day.daysSince1970 - oldDue.day.daysSince1970).map { wait.on($0, in: localTime) }
        } else {
            next.wait = nil
        }
        next.extras = Self.nextInstanceMask(of: done, rule: rule, nextDay: nextDay)
        next.position = try bottomPosition(of: next.list)
        let time = done.completed ?? now()
        next.created = time
        next.modified = time
        var made = [next]
        try insert(&made)
        try entry.created(ids: made.map(\.id))
        return made[0]
    }

    /// Whether Taskwarrior's series `parent` (its kept JSON text) already holds an instance on
    /// `day` or after, done, deleted or pending: Taskwarrior has been past that place, and one
    /// made here would be a second instance there. A stopped instance (its rule removed here:
    /// no series here, its kept `parent` still names it) is looked for on `day` only, through
    /// the due index (`+id` keeps the planner on it): 0.8 ms at 100,000 tasks.
    func hasTaskwarriorInstance(of parent: String, from day: CalendarDay, besides id: Int64) throws -> Bool {
        guard parent.count > 2, parent.hasPrefix("\""), parent.hasSuffix("\""), let dayAfter = day.adding(days: 1) else { return false }
        let series = String(parent.dropFirst().dropLast())
        return try db.scalar("""
            SELECT (SELECT count(*) FROM task WHERE series = ?1 AND id != ?2 AND substr(due, 1, 10) >= ?3)
                 + (SELECT count(*) FROM task WHERE due >= ?3 AND due < ?4 AND +id != ?2 AND instr(extras, ?5) > 0)
                 + (SELECT count(*) FROM deleted_task AS d WHERE d.series = ?1 AND substr(d.due, 1, 10) >= ?3 AND \(TaskQuerySQL.tombstone("d")))
            """, series, id, day.description, dayAfter.description, "\"parent\":" + parent) ?? 0 > 0
    }

    /// `done`'s extras for its next occurrence: an instance of a Taskwarrior series counts its
    /// place in the series (`imask`) — the one after `done`'s by the rule's steps to `nextDay`,
    /// so that Taskwarrior never sees two instances in one place; without a count to make, the
    /// bookkeeping is not carried (Taskwarrior's `rtype` stays).
    static func nextInstanceMask(of done: Task, rule: RepeatRule, nextDay: CalendarDay) -> String {
        guard let kept = ExtrasText.value("imask", in: done.extras) else { return done.extras }
        // Steps from the series' anchor (the rule counts from it) to a day: nil when none lands on it.
        func steps(to day: CalendarDay, from start: CalendarDay) -> Int? {
            if day == start { return 0 }
            for step in 1...10_000 {
                guard let reached = rule.date(step, after: start), reached <= day else { return nil }
                if reached == day { return step }
            }
            return nil
        }
        var index: Int?
        if let kept = Double(kept), kept >= 0, kept < 1_000_000, let due = done.due?.day {
            let start = done.anchor ?? due
            if let before = steps(to: due, from: start), let after = steps(to: nextDay, from: start), after > before {
                index = Int(kept) + after - before
            }
        }
        return ExtrasText.setting("imask", to: index.map(String.init), in: done.extras)
    }

    /// When `reopened` (done until now) made an occurrence that nobody has touched since — same
    /// series, pending, created with the completion, and no change to it in the history —
    /// removes it, kept in the history like any delete. Returns it.
    func removeOccurrence(madeBy reopened: Task, entry: EntryRecorder) throws -> Task? {
        guard let completed = reopened.completed else { return nil }
        let series = reopened.series ?? reopened.uuid
        let changed = HistoryChange.Kind.changed.rawValue
        let sql = "SELECT \(TaskColumn.names) FROM task WHERE series = ? AND done = 0 AND id <> ? AND created = ? "
            + "AND NOT EXISTS (SELECT 1 FROM history h, json_each(h.changes) c "
            + "WHERE h.lo <= task.id AND h.hi >= task.id AND c.value ->> 0 = \(changed) AND c.value ->> 1 = task.id) "
            + "AND NOT EXISTS (SELECT 1 FROM history_part p, json_each(p.changes) c "
            + "WHERE p.lo <= task.id AND p.hi >= task.id AND c.value ->> 0 = \(changed) AND c.value ->> 1 = task.id)"
        let found = try db.query(sql, [series, reopened.id, completed.millisecondsSince1970]) { TaskColumn.decode($0) }
        guard let made = found.first else { return nil }
        try entry.delete(run: made.id...made.id, uuid: made.uuid, tombstone: false)
        return made
    }
}

extension Task {
    /// Starts, changes or stops repeating: a series begins with this task (its uuid), counted
    /// from its due date — today when a fixed schedule has none; `nil` ends the series.
    mutating func setRepeat(_ rule: RepeatRule?, today: CalendarDay) {
        self.repeat = rule
        guard let rule else {
            series = nil
            anchor = nil
            return
        }
        if rule.kind == .every && due == nil { due = TaskDate(today) }
        if series == nil { series = uuid }
        if anchor == nil || rule.kind == .every { anchor = due?.day }
    }
}
