import TaskModel
import Testing

/// Issue 55: what `tasks burndown` and `tasks history --graph` count, by Taskwarrior's rules.
@Suite("TaskActivity")
struct TaskActivityTests {
    func day(_ text: String) -> CalendarDay { CalendarDay(text) ?? .unixEpoch }

    @Test func periodsStartWhereTaskwarriorStartsThem() {
        let thursday = day("2026-12-03")
        #expect(ReportPeriod.weekly.start(of: thursday, weekStart: 0) == day("2026-11-30"))
        #expect(ReportPeriod.weekly.start(of: thursday, weekStart: 6) == day("2026-11-29"), "a Sunday start")
        #expect(ReportPeriod.monthly.start(of: thursday, weekStart: 0) == day("2026-12-01"))
        #expect(ReportPeriod.annual.start(of: thursday, weekStart: 0) == day("2026-01-01"))
        #expect(ReportPeriod.monthly.next(after: day("2026-12-01")) == day("2027-01-01"))
        #expect(ReportPeriod.monthly.previous(before: day("2026-01-01")) == day("2025-12-01"))
        // ISO weeks: a week is its Thursday's year's.
        #expect(day("2026-01-01").isoWeek == 1 && day("2027-01-01").isoWeek == 53 && day("2027-01-03").isoWeek == 53)
        #expect(day("2026-12-28").isoWeek == 53 && day("2025-12-29").isoWeek == 1 && day("2027-01-04").isoWeek == 1)
    }

    /// Pending from the period made in, started from the one started in, done from the one
    /// completed in on; deleted never; a task made before the first bar counts in all.
    @Test func burndownCountsAsTaskwarrior() {
        let activity = TaskActivity(groups: [
            .init(created: day("2026-10-01"), ended: nil, kind: .pending, count: 2),
            .init(created: day("2026-11-25"), ended: day("2026-11-28"), kind: .started, count: 1),
            .init(created: day("2026-11-26"), ended: day("2026-11-29"), kind: .done, count: 3),
            .init(created: day("2026-11-26"), ended: day("2026-11-27"), kind: .deleted, count: 5),
            .init(created: day("2026-12-05"), ended: nil, kind: .pending, count: 1),
        ])
        let bars = activity.burndown(.daily, weekStart: 0, today: day("2026-11-30"), count: 6)
        #expect(bars.map(\.start) == ["2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"].map(day))
        #expect(bars.map(\.pending) == [3, 6, 6, 5, 2, 2])
        #expect(bars.map(\.started) == [0, 0, 0, 1, 1, 1])
        #expect(bars.map(\.done) == [0, 0, 0, 0, 3, 3])
        #expect(activity.history(.monthly, weekStart: 0) == [
            .init(start: day("2026-10-01"), added: 2), .init(start: day("2026-11-01"), added: 9, completed: 3, deleted: 5),
            .init(start: day("2026-12-01"), added: 1),
        ])
        // Peak: every task made by then and not yet ended, the day it ended included.
        #expect(activity.peak(today: day("2026-11-30"))?.count == 11)
        #expect(activity.peak(today: day("2026-11-30"))?.day == day("2026-11-26"))
        #expect(activity.pendingNow == 4)
        #expect(TaskActivity().burndown(.weekly, weekStart: 0, today: day("2026-11-30"), count: 0).isEmpty)
    }

    /// The rate counts from the peak's first moment; too recent a peak, or no fall, converges
    /// to nothing; nothing pending projects nothing.
    @Test func theProjectionFollowsTaskwarriorsRule() {
        let midnight: (CalendarDay) -> Timestamp = { Timestamp(millisecondsSince1970: Int64($0.daysSince1970) * 86_400_000) }
        let now = Timestamp(millisecondsSince1970: Int64(day("2026-11-30").daysSince1970) * 86_400_000 + 36_000_000)
        let falling = TaskActivity(groups: [
            .init(created: day("2026-11-01"), ended: nil, kind: .pending, count: 10),
            .init(created: day("2026-11-01"), ended: day("2026-11-10"), kind: .done, count: 10),
        ])
        guard case .converging(let rate, let completion) = falling.projection(now: now, today: day("2026-11-30"), peakStart: midnight) else {
            Issue.record("a fall over 29 days converges")
            return
        }
        // 10 fewer in 29 days 10 hours: 0.34 a day; 10 left take 29 days 10 hours more.
        #expect(abs(rate - 10 / (29 + 10.0 / 24)) < 1e-9)
        #expect(abs(completion.millisecondsSince1970 - now.millisecondsSince1970 - (29 * 24 + 10) * 3_600_000) <= 1)
        let recent = TaskActivity(groups: [.init(created: day("2026-11-29"), ended: nil, kind: .pending, count: 1),
                                           .init(created: day("2026-11-28"), ended: day("2026-11-29"), kind: .done, count: 1)])
        #expect(recent.projection(now: now, today: day("2026-11-30"), peakStart: midnight) == .noConvergence)
        #expect(TaskActivity().projection(now: now, today: day("2026-11-30"), peakStart: midnight) == .nothingPending)
        // Moments at the ends of time: no overflow, no trap.
        let far = TaskActivity(groups: [.init(created: day("2026-11-01"), ended: nil, kind: .pending, count: 1),
                                        .init(created: day("2026-11-01"), ended: day("2026-11-02"), kind: .done, count: 1)])
        #expect(far.projection(now: Timestamp(millisecondsSince1970: .max), today: day("2026-11-30"), peakStart: midnight) == .noConvergence)
        #expect(far.projection(now: now, today: day("2026-11-30"), peakStart: { _ in Timestamp(millisecondsSince1970: .min) }) == .noConvergence)
    }
}
