import QueryLanguage
import Testing
import TaskModel

private func day(_ text: String) -> CalendarDay { CalendarDay(text) ?? .unixEpoch }

@Suite("Repeating: the rules against a fixed today")
struct RepeatRuleTests {
    @Test func everyIntervalAsTyped() throws {
        #expect(RepeatRule(.every, interval: "day") == RepeatRule(kind: .every, count: 1, unit: .day))
        #expect(RepeatRule(.every, interval: "Weekday") == RepeatRule(kind: .every, count: 1, unit: .weekday))
        #expect(RepeatRule(.every, interval: "weeks") == RepeatRule(kind: .every, count: 1, unit: .week))
        #expect(RepeatRule(.after, interval: "3d") == RepeatRule(kind: .after, count: 3, unit: .day))
        #expect(RepeatRule(.every, interval: "2w")?.description == "every 2w")
        #expect(RepeatRule(.every, interval: "3m")?.description == "every 3m")
        #expect(RepeatRule(.every, interval: "1y")?.description == "every 1y")
        #expect(RepeatRule("after 10d") == RepeatRule(kind: .after, count: 10, unit: .day))
        for bad in ["", "fortnight", "0d", "-1w", "2x", "w2", "99999d", "1.5w", "２w"] {
            #expect(RepeatRule(.every, interval: bad) == nil, "\(bad)")
        }
        #expect(throws: TaskFieldError.badRepeat("fortnight")) { try FieldRules.repeatRule("every fortnight") }
        #expect(try FieldRules.repeatRule("") == nil)
        #expect(try FieldRules.repeatRule("month") == RepeatRule(kind: .every, count: 1, unit: .month))
    }

    @Test func aCountIsOneToFourDigitsWhereverTheRuleComesFrom() throws {
        #expect(RepeatRule(kind: .every, count: 0, unit: .day) == nil)
        #expect(RepeatRule(kind: .every, count: RepeatRule.maxCount + 1, unit: .week) == nil)
        #expect(RepeatRule(kind: .every, count: Int.max, unit: .month) == nil)
        let largest = try #require(RepeatRule(kind: .after, count: RepeatRule.maxCount, unit: .year))
        #expect(RepeatRule(largest.description) == largest, "the largest rule reads back from the text the database keeps")
        #expect(largest.nextDue(after: nil, anchor: nil, doneOn: day("2026-12-01")) == nil, "past year 9999: no next, no trap")
    }

    /// Issue 54: a series that ends (another client's UNTIL or COUNT) makes no occurrence
    /// after its last day, and the end reads back from the text the database keeps.
    @Test func aSeriesWithAnEndMakesNothingAfterIt() throws {
        var rule = try #require(RepeatRule("every weekday"))
        rule.until = day("2020-07-31")
        #expect(rule.description == "every weekday until 2020-07-31" && RepeatRule(rule.description) == rule)
        #expect(try FieldRules.repeatRule("every weekday until 2020-07-31") == rule, "the editor takes the rule as it is kept")
        #expect(rule.nextDue(after: day("2020-07-30"), anchor: nil, doneOn: day("2020-07-30")) == day("2020-07-31"))
        #expect(rule.nextDue(after: day("2020-07-31"), anchor: nil, doneOn: day("2026-12-07")) == nil, "ended: none, however late")
        #expect(RepeatRule("every 1d until") == nil && RepeatRule("every 1d until 2026-13-01") == nil && RepeatRule("every 1d to 2026-12-01") == nil)
    }

    /// A step or a count from another client (an RRULE's COUNT, a Taskwarrior imask) at the
    /// ends of the integers is no day — never a trap — and weekdays jump whole weeks rather
    /// than walking: the same day as stepping one by one, at once for a step of a billion.
    @Test func stepsAtTheEndsOfTheIntegersAreNoDayAndWeekdaysJump() throws {
        let anchor = day("2026-12-02")
        for unit in [RepeatRule.Unit.day, .week, .month, .year, .weekday] {
            let rule = try #require(RepeatRule(kind: .every, count: RepeatRule.maxCount, unit: unit))
            for step in [Int.max, Int.min, Int.max / 2, 1_000_000_000] {
                #expect(rule.date(step, after: anchor) == nil, "\(unit) \(step)")
            }
        }
        #expect(CalendarDay(daysSince1970: Int.max) == nil && CalendarDay(daysSince1970: Int.min) == nil)
        #expect(anchor.adding(days: Int.max) == nil && anchor.adding(months: Int.min) == nil && anchor.adding(months: Int.max) == nil)
        let weekdays = try #require(RepeatRule(kind: .every, count: 1, unit: .weekday))
        for offset in 0..<7 {
            let start = try #require(anchor.adding(days: offset))
            var walked = start, left = 0
            for step in 0...40 {
                while left < step {
                    walked = try #require(walked.adding(days: 1))
                    if walked.weekday < 5 { left += 1 }
                }
                #expect(weekdays.date(step, after: start) == walked, "from \(start), \(step) weekdays")
            }
        }
        #expect(weekdays.date(1_000_000, after: anchor) != nil && weekdays.date(100_000_000, after: anchor) == nil, "past year 9999")
    }

    @Test func weekdaysFromAnOldAnchorJumpCloseAndLandOnTheSameDay() throws {
        let anchor = day("2019-03-01")  // a Friday, years before
        for count in [1, 2, 3, 7] {
            let rule = try #require(RepeatRule(kind: .every, count: count, unit: .weekday))
            let floor = day("2026-12-02")
            // What stepping one by one from the anchor finds.
            var step = 1
            while let date = rule.date(step, after: anchor), date <= floor { step += 1 }
            #expect(rule.nextDue(after: floor, anchor: anchor, doneOn: floor) == rule.date(step, after: anchor), "every \(count) weekdays")
        }
    }

    @Test func monthEndsClampAndComeBack() throws {
        let monthly = try #require(RepeatRule(.every, interval: "month"))
        let anchor = day("2026-01-31")
        var due = anchor
        var seen: [String] = []
        for _ in 0..<4 {
            due = try #require(monthly.nextDue(after: due, anchor: anchor, doneOn: due))
            seen.append(due.description)
        }
        #expect(seen == ["2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"])
        let leap = try #require(RepeatRule(.every, interval: "year"))
        #expect(leap.nextDue(after: day("2024-02-29"), anchor: day("2024-02-29"), doneOn: day("2024-02-29"))?.description == "2025-02-28")
        #expect(leap.nextDue(after: day("2027-02-28"), anchor: day("2024-02-29"), doneOn: day("2027-02-28"))?.description == "2028-02-29",
                "back on the 29th in the next leap year")
    }

    @Test func weekdaysSkipTheWeekend() throws {
        let rule = try #require(RepeatRule(.every, interval: "weekday"))
        // 2026-12-04 is a Friday.
        #expect(rule.nextDue(after: day("2026-12-04"), anchor: day("2026-12-04"), doneOn: day("2026-12-04"))?.description == "2026-12-07")
        #expect(rule.nextDue(after: day("2026-12-07"), anchor: day("2026-12-04"), doneOn: day("2026-12-05"))?.description == "2026-12-08")
    }

    @Test func finishingEarlyOrThreeWeeksLateMakesOneNextOccurrence() throws {
        let weekly = try #require(RepeatRule(.every, interval: "week"))
        let due = day("2026-12-07")  // a Monday
        #expect(weekly.nextDue(after: due, anchor: due, doneOn: day("2026-12-03"))?.description == "2026-12-14", "early: the next on the schedule")
        #expect(weekly.nextDue(after: due, anchor: due, doneOn: day("2026-12-28"))?.description == "2027-01-04",
                "three weeks late: the first Monday after today, not the three missed ones")
        let after = try #require(RepeatRule(.after, interval: "3d"))
        #expect(after.nextDue(after: due, anchor: due, doneOn: day("2026-12-28"))?.description == "2026-12-31", "after: from the day it was done")
        #expect(after.nextDue(after: nil, anchor: nil, doneOn: day("2026-12-30"))?.description == "2027-01-02")
    }

    @Test func aDerivedUUIDDependsOnlyOnItsName() {
        let a = UUIDText.derived(from: "series 2026-12-14")
        #expect(a == UUIDText.derived(from: "series 2026-12-14"))
        #expect(a != UUIDText.derived(from: "series 2026-12-15"))
        #expect(UUIDText.normalized(a) == a, "a well-formed uuid")
        #expect(a.dropFirst(14).first == "8", "version 8")
    }

    @Test func foldingIgnoresCaseInEveryScript() {
        #expect(TaskQuery.foldCase("Ärger") == TaskQuery.foldCase("ärger"))
        #expect(TaskQuery.foldCase("ΣΊΣΥΦΟΣ") == TaskQuery.foldCase("σίσυφος"))
        #expect(TaskQuery.foldCase("Buy MILK") == "buy milk")
        let query = TaskQuery(search: "ärger")
        let task = Task(id: 1, uuid: "u", title: "Viel ÄRGER im Büro", created: Timestamp(millisecondsSince1970: 0),
                        modified: Timestamp(millisecondsSince1970: 0))
        #expect(query.matches(task))
    }

    @Test func theRankAddsItsParts() {
        let today = day("2026-12-01")
        func task(due: String?, priority: Priority?, createdDaysAgo: Int) -> Task {
            let created = Int64(today.daysSince1970 - createdDaysAgo) * 86_400_000
            return Task(id: 1, uuid: "u", title: "t", due: due.map(day), priority: priority,
                        created: Timestamp(millisecondsSince1970: created), modified: Timestamp(millisecondsSince1970: created))
        }
        #expect(TaskRank(task(due: "2026-11-28", priority: .high, createdDaysAgo: 21), today: today).parts.map(\.points) == [106, 40, 3])
        #expect(TaskRank(task(due: "2026-12-01", priority: nil, createdDaysAgo: 0), today: today).score == 90)
        #expect(TaskRank(task(due: "2026-12-03", priority: .low, createdDaysAgo: 200), today: today).score == 70 + 10 + 10)
        #expect(TaskRank(task(due: "2027-01-01", priority: nil, createdDaysAgo: 6), today: today).parts.isEmpty)
        #expect(TaskRank(task(due: "2020-01-01", priority: nil, createdDaysAgo: 0), today: today).score == 160, "lateness counts 30 days at most")
    }
}
