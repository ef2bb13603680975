/// The span a chart's bar or a history row covers, as Taskwarrior's `.daily`, `.weekly`,
/// `.monthly` and `.annual` reports cut time: local days, weeks from the configured first day,
/// calendar months and years.
public enum ReportPeriod: String, CaseIterable, Sendable {
    case daily, weekly, monthly, annual

    /// The first day of the period holding `day` (`weekStart`: 0 Monday … 6 Sunday).
    public func start(of day: CalendarDay, weekStart: Int) -> CalendarDay {
        switch self {
        case .daily: return day
        case .weekly: return day.adding(days: -((day.weekday - weekStart + 7) % 7)) ?? day
        case .monthly: return CalendarDay(year: day.year, month: day.month, day: 1) ?? day
        case .annual: return CalendarDay(year: day.year, month: 1, day: 1) ?? day
        }
    }

    /// The first day of the period after the one starting on `start` (nil: past the calendar).
    public func next(after start: CalendarDay) -> CalendarDay? {
        switch self {
        case .daily: return start.adding(days: 1)
        case .weekly: return start.adding(days: 7)
        case .monthly: return start.month == 12 ? CalendarDay(year: start.year + 1, month: 1, day: 1) : CalendarDay(year: start.year, month: start.month + 1, day: 1)
        case .annual: return CalendarDay(year: start.year + 1, month: 1, day: 1)
        }
    }

    /// The first day of the period before the one starting on `start`.
    public func previous(before start: CalendarDay) -> CalendarDay? {
        switch self {
        case .daily: return start.adding(days: -1)
        case .weekly: return start.adding(days: -7)
        case .monthly: return start.month == 1 ? CalendarDay(year: start.year - 1, month: 12, day: 1) : CalendarDay(year: start.year, month: start.month - 1, day: 1)
        case .annual: return CalendarDay(year: start.year - 1, month: 1, day: 1)
        }
    }
}

/// When tasks were added, started, completed and deleted, counted by day: what `tasks burndown`
/// and `tasks history --graph` draw, read from the file in one aggregate query (a group per
/// day a task was made, day it ended or started, and what it is now).
public struct TaskActivity: Equatable, Sendable {
    /// What a task is now: pending (waiting too) and not started, pending and started,
    /// completed, deleted.
    public enum Kind: Int, Sendable { case pending = 0, started, done, deleted }

    /// `count` tasks of `kind` made on `created`; `ended` the day a done or deleted one ended,
    /// or a started one started (never before `created`).
    public struct Group: Equatable, Sendable {
        public var created: CalendarDay
        public var ended: CalendarDay?
        public var kind: Kind
        public var count: Int

        public init(created: CalendarDay, ended: CalendarDay?, kind: Kind, count: Int) {
            self.created = created
            self.ended = ended.map { max($0, created) }
            self.kind = kind
            self.count = count
        }
    }

    public var groups: [Group]

    public init(groups: [Group] = []) { self.groups = groups }

    /// One row of `history`: what was added, completed and deleted in the period from `start`.
    public struct PeriodCounts: Equatable, Sendable {
        public var start: CalendarDay
        public var added = 0
        public var completed = 0
        public var deleted = 0
        public var net: Int { added - completed - deleted }

        public init(start: CalendarDay, added: Int = 0, completed: Int = 0, deleted: Int = 0) {
            (self.start, self.added, self.completed, self.deleted) = (start, added, completed, deleted)
        }
    }

    /// The periods in which anything was added, completed or deleted, oldest first, as
    /// Taskwarrior's `history` and `ghistory` list them (a period with nothing is left out).
    public func history(_ period: ReportPeriod, weekStart: Int) -> [PeriodCounts] {
        var rows: [CalendarDay: PeriodCounts] = [:]
        func add(_ day: CalendarDay, _ change: (inout PeriodCounts) -> Void) {
            let start = period.start(of: day, weekStart: weekStart)
            change(&rows[start, default: PeriodCounts(start: start)])
        }
        for group in groups {
            add(group.created) { $0.added += group.count }
            guard let ended = group.ended else { continue }
            switch group.kind {
            case .done: add(ended) { $0.completed += group.count }
            case .deleted: add(ended) { $0.deleted += group.count }
            case .pending, .started: break
            }
        }
        return rows.values.sorted { $0.start < $1.start }
    }

    /// Tasks pending, started and done in the period from `start`, at its end.
    public struct Bar: Equatable, Sendable {
        public var start: CalendarDay
        public var pending = 0
        public var started = 0
        public var done = 0
        public var total: Int { pending + started + done }
    }

    /// `count` bars, the last the period holding `today`, as Taskwarrior's burndown counts
    /// them: a pending task is pending from the period it was made in, started from the one
    /// it was started in; a completed one pending until the period it was completed in, done
    /// from then on (cumulative); a deleted one not at all.
    public func burndown(_ period: ReportPeriod, weekStart: Int, today: CalendarDay, count: Int) -> [Bar] {
        guard count > 0 else { return [] }
        var starts = [period.start(of: today, weekStart: weekStart)]
        while starts.count < count, let earlier = period.previous(before: starts[0]) { starts.insert(earlier, at: 0) }
        let end = period.next(after: starts[starts.count - 1])
        /// The first bar that ends after `day`: the one holding it, or the first when it is
        /// before them all, or none (`starts.count`) when after.
        func bar(_ day: CalendarDay) -> Int {
            if let end, day >= end { return starts.count }
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= day { low = middle + 1 } else { high = middle }
            }
            return max(0, low - 1)
        }
        // Changes at each bar, summed from the left.
        var pending = [Int](repeating: 0, count: starts.count + 1)
        var started = pending, done = pending
        for group in groups {
            let made = bar(group.created)
            switch group.kind {
            case .pending:
                pending[made] += group.count
            case .started, .done:
                let ended = bar(group.ended ?? group.created)
                pending[made] += group.count
                pending[ended] -= group.count
                if group.kind == .started { started[ended] += group.count } else { done[ended] += group.count }
            case .deleted:
                break
            }
        }
        var bars: [Bar] = []
        var sums = (0, 0, 0)
        for (index, start) in starts.enumerated() {
            sums = (sums.0 + pending[index], sums.1 + started[index], sums.2 + done[index])
            bars.append(Bar(start: start, pending: sums.0, started: sums.1, done: sums.2))
        }
        return bars
    }

    /// The most tasks pending on one day (made by then and not yet completed or deleted; a
    /// task counts on the day it ended too), the first day it was reached, and how many are
    /// pending now: what Taskwarrior's burndown rates count from.
    public func peak(today: CalendarDay) -> (day: CalendarDay, count: Int)? {
        var changes: [CalendarDay: Int] = [:]
        for group in groups {
            changes[group.created, default: 0] += group.count
            if group.kind == .done || group.kind == .deleted, let ended = group.ended, let after = ended.adding(days: 1) {
                changes[after, default: 0] -= group.count
            }
        }
        var peak: (day: CalendarDay, count: Int)?
        var running = 0
        for day in changes.keys.sorted() where day <= today {
            running += changes[day] ?? 0
            if running > (peak?.count ?? 0) { peak = (day, running) }
        }
        return peak
    }

    /// Tasks pending now (started or not).
    public var pendingNow: Int {
        groups.reduce(0) { $0 + ($1.kind == .pending || $1.kind == .started ? $1.count : 0) }
    }
}

extension TaskActivity {
    /// Where the pending tasks are heading, as Taskwarrior's burndown says it under the chart.
    public enum Projection: Equatable, Sendable {
        /// Nothing is pending: nothing to project.
        case nothingPending
        /// Fewer are pending than at the peak, which was over three days ago: so many fewer a
        /// day, and the moment none would be left at that rate.
        case converging(perDay: Double, completion: Timestamp)
        /// As many or more are pending than ever, or the peak is too recent to tell.
        case noConvergence
    }

    /// The net fix rate since the peak (`peakStart`: the moment its day began) and the
    /// completion it leads to, at `now`.
    public func projection(now: Timestamp, today: CalendarDay, peakStart: (CalendarDay) -> Timestamp) -> Projection {
        let current = pendingNow
        guard current > 0 else { return .nothingPending }
        guard let peak = peak(today: today), peak.count > current else { return .noConvergence }
        let (elapsed, overflow) = now.millisecondsSince1970.subtractingReportingOverflow(peakStart(peak.day).millisecondsSince1970)
        guard !overflow, elapsed > 3 * 86_400_000 else { return .noConvergence }
        let perMillisecond = Double(peak.count - current) / Double(elapsed)
        let ahead = Double(current) / perMillisecond
        guard let milliseconds = Int64(exactly: ahead.rounded(.down)) else { return .noConvergence }
        let (completion, past) = now.millisecondsSince1970.addingReportingOverflow(milliseconds)
        guard !past else { return .noConvergence }
        return .converging(perDay: perMillisecond * 86_400_000, completion: Timestamp(millisecondsSince1970: completion))
    }
}
