/// What `tasks stats` shows: counts, rates and averages of the whole file, as `task stats`
/// gives them (Taskwarrior's definitions: a task is pending, waiting, done or deleted; the
/// average time pending counts a done task from its creation to its completion and a pending
/// one to now, a waiting one not at all).
public struct TaskStats: Equatable, Sendable {
    /// Pending and not waiting; waiting (its wait ahead); of the pending ones, repeating.
    public var pending = 0
    public var waiting = 0
    public var repeating = 0
    public var done = 0
    /// Deleted tasks kept (not purged).
    public var deleted = 0
    public var annotations = 0
    /// Distinct tags and lists among all tasks, done and deleted ones too.
    public var tags = 0
    public var lists = 0
    /// Pending tasks waiting on a pending task, and pending tasks one waits on.
    public var blocked = 0
    public var blocking = 0
    /// Tasks with at least one tag.
    public var tagged = 0
    /// The first and the last moment a task was made (nil: none).
    public var oldest: Timestamp?
    public var newest: Timestamp?
    /// Milliseconds pending, summed over the done tasks (creation to completion) and the
    /// pending ones (creation to now).
    public var pendingMilliseconds: Int64 = 0
    /// Characters of the titles, summed.
    public var titleCharacters: Int64 = 0
    /// The database file's bytes (with its write-ahead log), and the history's entries.
    public var fileBytes: Int64 = 0
    public var historyEntries = 0

    public init() {}

    public var total: Int { pending + waiting + done + deleted }

    /// The span from the oldest task to the newest divided among `count` (nil: none), in
    /// seconds. The times came from other machines and files too: a span past Int64 is none.
    func every(_ count: Int) -> Int64? {
        guard count > 0, let oldest, let newest else { return nil }
        let (span, overflow) = newest.millisecondsSince1970.subtractingReportingOverflow(oldest.millisecondsSince1970)
        return overflow ? nil : span / 1000 / Int64(count)
    }

    /// The seconds from the oldest task to the newest.
    public var usedForSeconds: Int64? { every(1) }
    public var addedEverySeconds: Int64? { every(total) }
    public var doneEverySeconds: Int64? { every(done) }
    public var deletedEverySeconds: Int64? { every(deleted) }
    /// The average seconds a task was pending (pending and done ones).
    public var averagePendingSeconds: Int64? {
        pending + done > 0 ? pendingMilliseconds / 1000 / Int64(pending + done) : nil
    }

    /// Milliseconds summed as SQLite's `total()` gives them (a float: a sum past Int64 is no
    /// error there), as a whole number, clamped.
    public static func milliseconds(_ total: Double) -> Int64 {
        total.isNaN ? 0 : Int64(exactly: total.rounded(.towardZero)) ?? (total < 0 ? .min : .max)
    }
    /// The average title's characters, rounded down.
    public var averageTitleCharacters: Int64? { total > 0 ? titleCharacters / Int64(total) : nil }
    /// Tasks tagged, in percent of all, to one decimal.
    public var taggedPercent: Double? { total > 0 ? (Double(tagged) * 1000 / Double(total)).rounded() / 10 : nil }
}
