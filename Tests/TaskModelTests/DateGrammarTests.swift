import Testing
import TaskModel

/// Issue 26: one grammar of dates, against a fixed clock and zone. 2026-12-01 is a Tuesday;
/// the clock reads 10:00 in a zone an hour east of UTC.
@Suite("The date grammar")
struct DateGrammarTests {
    static let today = CalendarDay(year: 2026, month: 12, day: 1) ?? .unixEpoch
    static let zone = LocalTime.fixed(offsetSeconds: 3600)
    static let context = DateContext(now: Timestamp(millisecondsSince1970: Int64(today.daysSince1970) * 86_400_000 + 9 * 3_600_000),
                                     today: today, zone: zone)

    private func resolved(_ text: String, _ context: DateContext = DateGrammarTests.context) -> String? {
        guard let value = try? DateGrammar.resolve(text, in: context) else { return nil }
        switch value {
        case .day(let day): return day.description
        case .instant(let time):
            let (day, seconds) = context.zone.clock(time)
            return "\(day) \(seconds / 3600):\(seconds / 60 % 60 < 10 ? "0" : "")\(seconds / 60 % 60)"
        }
    }

    @Test func everyFormOfTheTable() {
        let cases: [(String, String?)] = [
            ("today", "2026-12-01"), ("tomorrow", "2026-12-02"), ("yesterday", "2026-11-30"), ("now", "2026-12-01 10:00"),
            ("monday", "2026-12-07"), ("tue", "2026-12-08"), ("Wednesday", "2026-12-02"), ("sun", "2026-12-06"),
            ("eod", "2026-12-01"), ("eow", "2026-12-06"), ("sow", "2026-11-30"), ("socw", "2026-11-30"),
            ("eom", "2026-12-31"), ("som", "2026-12-01"), ("socm", "2026-12-01"),
            ("eoq", "2026-12-31"), ("soq", "2026-10-01"), ("socq", "2026-10-01"),
            ("eoy", "2026-12-31"), ("soy", "2026-01-01"), ("socy", "2026-01-01"),
            ("sonw", "2026-12-07"), ("eonw", "2026-12-13"), ("sopw", "2026-11-23"), ("eopm", "2026-11-30"), ("sonq", "2027-01-01"),
            ("eopy", "2025-12-31"), ("sond", "2026-12-02"), ("sopd", "2026-11-30"), ("soww", "2026-11-30"), ("eoww", "2026-12-04"),
            ("jan", "2027-01-01"), ("February", "2027-02-01"), ("dec", "2027-12-01"), ("easter", "2027-03-28"),
            ("goodfriday", "2027-03-26"), ("pentecost", "2027-05-16"), ("midsommar", "2027-06-26"), ("juhannus", "2027-06-25"),
            ("9am", "2026-12-02 9:00"), ("11am", "2026-12-01 11:00"), ("9:30pm", "2026-12-01 21:30"), ("12am", "2026-12-02 0:00"),
            ("12pm", "2026-12-01 12:00"), ("9:00", "2026-12-02 9:00"), ("3d", "2026-12-04"), ("2h", "2026-12-01 12:00"),
            ("1st", "2027-01-01"), ("2nd", "2026-12-02"), ("3rd", "2026-12-03"), ("31st", "2026-12-31"), ("15th", "2026-12-15"),
            ("someday", "9999-12-30"), ("later", "9999-12-30"),
            ("2026-12-25", "2026-12-25"), ("2026-12-25T14:00", "2026-12-25 14:00"), ("2026-12-25t14:00:30", "2026-12-25 14:00"),
            ("2026-12-25T14:00Z", "2026-12-25 15:00"), ("2026-12-25T14:00+05:30", "2026-12-25 9:30"),
            ("+3d", "2026-12-04"), ("-1d", "2026-11-30"), ("+2w", "2026-12-15"), ("+1m", "2027-01-01"), ("+1y", "2027-12-01"),
            ("+4h", "2026-12-01 14:00"), ("+30min", "2026-12-01 10:30"), ("in 3 days", "2026-12-04"), ("3 days ago", "2026-11-28"),
            ("in 2 weeks", "2026-12-15"), ("1 month ago", "2026-11-01"), ("in 90 minutes", "2026-12-01 11:30"),
            ("14:00", "2026-12-01 14:00"), ("tomorrow 9:00", "2026-12-02 9:00"), ("fri 17:30", "2026-12-04 17:30"),
            ("2026-12-25 8:15", "2026-12-25 8:15"), ("eom+1d", "2027-01-01"), ("fri-1d", "2026-12-03"), ("eow+1w", "2026-12-13"),
            ("  TOMORROW  ", "2026-12-02"),
        ]
        for (text, expected) in cases { #expect(resolved(text) == expected, "\(text)") }
    }

    @Test func monthEndsAndLeapYearsAreCalendarArithmetic() {
        func on(_ day: String) -> DateContext {
            var context = DateGrammarTests.context
            context.today = CalendarDay(day) ?? .unixEpoch
            return context
        }
        #expect(resolved("+1m", on("2026-01-31")) == "2026-02-28", "the last day of a shorter month")
        #expect(resolved("+1m", on("2028-01-31")) == "2028-02-29", "a leap year's")
        #expect(resolved("+1y", on("2028-02-29")) == "2029-02-28")
        #expect(resolved("-1m", on("2026-03-31")) == "2026-02-28")
        #expect(resolved("eom", on("2028-02-10")) == "2028-02-29")
        #expect(resolved("31st", on("2026-11-05")) == "2026-12-31", "November has no 31st: the next month that does")
        #expect(resolved("29th", on("2027-01-30")) == "2027-03-29", "February 2027 has no 29th")
        #expect(resolved("eoq", on("2026-05-02")) == "2026-06-30")
        #expect(resolved("soq", on("2026-12-31")) == "2026-10-01")
        #expect(resolved("tomorrow", on("2026-12-31")) == "2027-01-01")
        #expect(resolved("+1d", on("9999-12-31")) == nil, "past the last day there is none")
    }

    @Test func theWeekStartsWhereItIsSet() {
        var sunday = DateGrammarTests.context
        sunday.weekStart = 6
        #expect(resolved("eow") == "2026-12-06" && resolved("eow", sunday) == "2026-12-05")
        #expect(resolved("sow") == "2026-11-30" && resolved("sow", sunday) == "2026-11-29")
        #expect(resolved("sonw", sunday) == "2026-12-06" && resolved("eoww", sunday) == "2026-12-04", "a work week is Monday to Friday")
        #expect(resolved("socw", sunday) == "2026-11-29")
    }

    @Test func aDateCountsFromTheTasksOwn() {
        var context = DateGrammarTests.context
        context.fields = { $0 == .due ? TaskDate("2026-12-24") : nil }
        #expect(resolved("due-3d", context) == "2026-12-21")
        #expect(resolved("due+1w", context) == "2026-12-31")
        #expect(resolved("due", context) == "2026-12-24")
        #expect(throws: DateGrammarError.missingField(.scheduled)) { try DateGrammar.resolve("scheduled-1d", in: context) }
    }

    @Test func anythingElseIsRefused() {
        for text in ["", "soon", "fryday", "+3", "+d", "3x", "+3x", "13am", "0pm", "9:75pm", "janvier", "2026-13-01", "2025-02-29", "25:00", "12:60", "in 3", "3 days",
                     "in three days", "tomorrow at 9", "0th", "32nd", "mo", "+100001d", "2026-12-25T14", "notes-1d", "anchor"] {
            #expect(resolved(text) == nil, "\(text)")
        }
    }

    @Test func aDayAloneTakesDaysAndRefusesATimeRatherThanCutIt() throws {
        #expect(try DateGrammar.day("now", in: DateGrammarTests.context).description == "2026-12-01")
        #expect(throws: DateGrammarError.timeOfDay) { try DateGrammar.day("tomorrow 9:00", in: DateGrammarTests.context) }
        #expect(throws: DateGrammarError.timeOfDay) { try DateGrammar.day("+4h", in: DateGrammarTests.context) }
    }
}

@Suite("TaskDate: a day or a moment, as stored")
struct TaskDateTests {
    @Test func readsAndWritesTheStoredForms() throws {
        let berlin = try #require(TaskDate("2026-12-24T14:00:00+01:00[Europe/Berlin]"))
        #expect(berlin.day.description == "2026-12-24" && !berlin.isDay)
        #expect(berlin.time == TimestampText.parse("2026-12-24T13:00:00Z"))
        #expect(berlin.description == "2026-12-24T14:00:00+01:00[Europe/Berlin]")
        #expect(TaskDate("2026-12-24T13:00Z")?.description == "2026-12-24T13:00:00+00:00", "RFC 3339 is read and normalized")
        #expect(TaskDate("2026-12-24T13:00:05.250-05:30")?.description == "2026-12-24T13:00:05-05:30", "to the second")
        #expect(TaskDate("2026-12-24")?.isDay == true)
        for bad in ["2026-12-24T14:00", "2026-12-24T25:00Z", "2026-12-24T14:00+24:00", "2026-12-24T14:00Z[]", "2026-12-24X", "2026-13-01",
                    "2026-12-24T14:00Z[a b]"] {
            #expect(TaskDate(bad) == nil, "\(bad)")
        }
    }

    @Test func aMomentIsReadOnTheClockOfAZone() throws {
        let time = try #require(TimestampText.parse("2026-12-24T13:00:00Z"))
        var zone = LocalTime.fixed(offsetSeconds: 3600)
        zone.name = "Europe/Berlin"
        #expect(TaskDate(time, in: zone).description == "2026-12-24T14:00:00+01:00[Europe/Berlin]")
        #expect(TaskDate(time, in: .fixed(offsetSeconds: -5 * 3600)).shown(in: .fixed(offsetSeconds: 9 * 3600)) == "2026-12-24 22:00")
        let date = TaskDate(time, in: zone)
        #expect(date.on(try #require(CalendarDay("2027-01-05")), in: zone).description == "2027-01-05T14:00:00+01:00[Europe/Berlin]")
    }

    @Test func pastAndAheadCompareADayWithTodayAndAMomentWithNow() throws {
        let today = try #require(CalendarDay("2026-12-24"))
        let now = "2026-12-24T10:00:00"
        #expect(try #require(TaskDate("2026-12-24T09:00:00+01:00")).isPast(today: today, now: now))
        #expect(!(try #require(TaskDate("2026-12-24")).isPast(today: today, now: now)), "a day is not past on its day")
        #expect(try #require(TaskDate("2026-12-23")).isPast(today: today, now: now))
        #expect(try #require(TaskDate("2026-12-24T11:00:00+01:00")).isAhead(today: today, now: now))
        #expect(!(try #require(TaskDate("2026-12-24")).isAhead(today: today, now: now)))
        #expect(TaskDate("2026-12-24")! < TaskDate("2026-12-24T00:00:00+01:00")!, "a day sorts before its moments")
    }

    @Test func theGrammarGivesAMomentForADateField() throws {
        var context = DateGrammarTests.context
        context.fields = { $0 == .due ? TaskDate("2026-12-24T18:00:00+00:00") : nil }
        #expect(try DateGrammar.date("due-2h", in: context).description == "2026-12-24T17:00:00+01:00", "read in the context's zone")
        #expect(try DateGrammar.date("2026-12-25T14:00+05:00", in: context).description == "2026-12-25T14:00:00+05:00", "the offset given is kept")
        #expect(try DateGrammar.date("tomorrow", in: context).isDay)
    }
}
