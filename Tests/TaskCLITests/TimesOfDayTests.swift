import TaskModel
import _TestSupport
import Testing

/// Issue 26's times of day, in-process with the harness's zone (UTC-5, no name) and a clock
/// the test sets: a moment is kept to the second, shown on the local clock, and compared with
/// the moment — overdue once passed, waiting until it comes, expired after it.
@Suite("tasks: due, wait and until at a time of day")
struct TimesOfDayTests {
    /// 2026-11-30 at `hour`:`minute` in UTC-5.
    private func at(_ cli: CLI, _ hour: Int, _ minute: Int = 0) {
        cli.today = CalendarDay("2026-11-30") ?? .unixEpoch
        cli.now = Timestamp(millisecondsSince1970: (Int64(CalendarDay("2026-11-30")?.daysSince1970 ?? 0) * 86_400 + Int64(hour + 5) * 3600 + Int64(minute) * 60) * 1000)
    }

    private func ids(_ cli: CLI, _ arguments: String...) -> [String] {
        cli.run(arguments + ["--format", "ids"]).stdout.split(separator: "\n").map(String.init)
    }

    @Test func aMomentIsKeptWithItsOffsetAndShownOnTheLocalClock() {
        let cli = CLI()
        at(cli, 8)
        cli.run("add", "Standup", "--due", "tomorrow 9:30")
        cli.run("add", "Call Berlin", "--due", "2026-12-01T15:00+01:00")
        cli.run("add", "All day", "--due", "tomorrow")
        #expect(cli.run("list", "--format", "tsv").stdout == """
            1\tfalse\tInbox\tStandup\t2026-12-01T09:30:00-05:00\t\t
            2\tfalse\tInbox\tCall Berlin\t2026-12-01T15:00:00+01:00\t\t
            3\tfalse\tInbox\tAll day\t2026-12-01\t\t

            """)
        #expect(cli.run("list", "--format", "table").stdout == """
            Inbox (3)
               1  [ ]  Standup      2026-12-01 09:30
               2  [ ]  Call Berlin  2026-12-01 09:00
               3  [ ]  All day      2026-12-01

            """, "read on the local clock; the column widens for a time")
        #expect(cli.run("show", "2", "--format", "table").stdout.contains("due          2026-12-01 09:00 (given as 2026-12-01T15:00:00+01:00)\n"))
        #expect(cli.run("list", "--sort", "due", "--format", "ids").stdout == "3\n1\n2\n",
                "by the stored text: the day's all-day task first, then by the clock as given (docs/architecture.md, Times of day)")
    }

    @Test func overdueWaitingAndExpiredCompareWithTheMoment() {
        let cli = CLI()
        at(cli, 8)
        cli.run("add", "At nine", "--due", "9:00")
        cli.run("add", "Today, all day", "--due", "today")
        cli.run("add", "Hidden till ten", "--wait", "10:00")
        cli.run("add", "Offer ends at noon", "--until", "12:00")
        #expect(ids(cli, "list", "--overdue").isEmpty)
        #expect(ids(cli, "list") == ["1", "2", "4"])
        at(cli, 9, 1)
        #expect(ids(cli, "list", "--overdue") == ["1"], "a moment is overdue once passed; a day only from the next day")
        at(cli, 10)
        #expect(ids(cli, "list") == ["1", "2", "3", "4"], "a wait ends at its moment, not at the end of its day")
        at(cli, 12, 1)
        #expect(ids(cli, "list") == ["1", "2", "3"])
        #expect(ids(cli, "list", "--expired") == ["4"], "an until at a moment expires after it, the same day")
        #expect(ids(cli, "list", "--due-before", "today 9:30") == ["1", "2"], "a bound at a moment: a day is before its moments")
        #expect(ids(cli, "list", "--due-before", "tomorrow") == ["1", "2"])
    }

    @Test func aMomentRoundTripsThroughJSONAndTheHistory() throws {
        let cli = CLI()
        at(cli, 8)
        cli.run("add", "Meet", "--due", "2026-12-03T14:30:15+09:00", "--scheduled", "due-1d")
        let exported = cli.run("export").stdout
        #expect(exported.contains(#""due":"2026-12-03T14:30:15+09:00""#))
        #expect(exported.contains(#""scheduled":"2026-12-02T00:30:15-05:00""#), "a step of days keeps the reading, in the local zone")
        cli.run("edit", "1", "--due", "")
        cli.run("undo")
        #expect(cli.run("export").stdout == exported, "undo restores the moment to the second")
        let other = CLI()
        other.run(["import", "-"], stdin: Array(exported.utf8))
        #expect(other.run("export").stdout == exported)
    }

    @Test func aRepeatingTaskKeepsItsTimeOfDay() {
        let cli = CLI()
        at(cli, 8)
        cli.run("add", "Standup", "--due", "9:00", "--every", "day")
        cli.run("done", "1")
        #expect(cli.run("list", "--format", "tsv").stdout == "2\tfalse\tInbox\tStandup\t2026-12-01T09:00:00-05:00\t\t\n")
    }
}
