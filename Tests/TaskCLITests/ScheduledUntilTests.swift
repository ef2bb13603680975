import TaskModel
import _TestSupport
import Testing

/// Issue 26's first two fields, `scheduled` and `until`, as a user meets them against a fixed
/// today (2026-11-29, a Sunday). They are entries of the field table and nothing more: the
/// flags, `show`, JSON, the history and undo come from the entry.
@Suite("tasks: scheduled and until")
struct ScheduledUntilTests {
    private func ids(_ cli: CLI, _ arguments: String...) -> [String] {
        cli.run(arguments + ["--format", "ids"]).stdout.split(separator: "\n").map(String.init)
    }

    @Test func untilExpiresAPendingTaskOutOfTheListsAndKeepsIt() {
        let cli = CLI()
        cli.run("add", "Always")
        cli.run("add", "Sale ends", "--until", "2026-12-01")
        cli.run("add", "Done before", "--until", "2026-11-30")
        cli.run("done", "3")
        #expect(ids(cli, "list") == ["1", "2"], "not expired yet: until is the last day it is wanted")
        cli.today = CalendarDay("2026-12-02") ?? .unixEpoch
        #expect(ids(cli, "list") == ["1"], "expired: out of the default list")
        #expect(ids(cli, "list", "--expired") == ["2"], "and found by --expired")
        #expect(ids(cli, "list", "--all") == ["1", "2", "3"], "--all shows every task, expired or done")
        #expect(ids(cli, "list", "--done") == ["3"], "a done task never expires")
        #expect(cli.run("list", "--expired", "--done").status == 2)
        #expect(cli.run("show", "2", "--format", "tsv").stdout.contains("until\t2026-12-01\n"))
        cli.run("edit", "2", "--until", "")
        #expect(ids(cli, "list") == ["1", "2"], "until cleared: back")
    }

    @Test func aDateCountsFromTheTasksOtherDates() {
        let cli = CLI()
        cli.run("add", "Trip", "--due", "2026-12-24", "--wait", "due-1w", "--scheduled", "due-3d", "--until", "due+1m")
        let shown = cli.run("show", "1", "--format", "tsv").stdout
        #expect(shown.contains("wait\t2026-12-17\n") && shown.contains("scheduled\t2026-12-21\n") && shown.contains("until\t2027-01-24\n"))
        cli.run("edit", "1", "--due", "2027-01-10", "--wait", "due-1d")
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("wait\t2027-01-09\n"), "the new due, given in the same edit")
        cli.run("edit", "1", "--scheduled", "due")
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("scheduled\t2027-01-10\n"), "the task's own due")
        #expect(cli.run("add", "x", "--due", "eow").status == 0, "the named dates the issue found refused")
    }

    @Test func scheduledIsSetShownExportedAndUndone() {
        let cli = CLI()
        #expect(cli.run("add", "Plan", "--scheduled", "fri", "--until", "+2w").status == 0)
        let json = cli.run("show", "1", "--format", "json").stdout
        #expect(json.contains(#""wait":null,"scheduled":"2026-12-04","until":"2026-12-13","extras":{}"#), "friday after Sunday 29th; two weeks on")
        #expect(cli.run("edit", "1", "--scheduled", "2026-12-24").status == 0)
        #expect(cli.run("history", "--format", "tsv").stdout.contains("(scheduled)"), "the history names the one field changed")
        cli.run("undo")
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("scheduled\t2026-12-04\n"), "undo restores it")
        let exported = cli.run("export", "--format", "taskwarrior").stdout
        #expect(exported.contains(#""scheduled":"#) && exported.contains(#""until":"#))
    }

    @Test func aBadDayIsRefusedNamingTheFieldAndChangesNothing() {
        let cli = CLI()
        cli.run("add", "Plan")
        let before = cli.snapshot()
        let result = cli.run("edit", "1", "--scheduled", "someday soon")
        #expect(result.status == 2)
        #expect(result.stderr == "tasks: 'someday soon' is not a date to schedule; use \(DateGrammar.forms)\n")
        #expect(cli.run("edit", "1", "--wait", "due-3d").stderr == "tasks: 'due-3d' counts from the task's due date, which is not set; set it first or give a day\n")
        #expect(cli.run("add", "x", "--until", "13th of never").stderr.contains("is not a date to expire after"))
        #expect(cli.snapshot() == before)
    }
}

/// `tasks date` through the built binary, in real zones (the C library's zone files), across
/// both changes of daylight saving time in Berlin and New York.
@Suite("tasks date in real zones", .enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
struct DateCommandTests {
    private func date(_ zone: String, _ words: String, now: String, weekStart: String = "") throws -> ShellResult {
        try tasksShell("TZ=\(zone) TASKS_WEEK_START='\(weekStart)' tasks date \(words) --now \(now)", in: TemporaryFolder())
    }

    @Test func theTablesExampleAndTheWeekStart() throws {
        #expect(try date("Europe/Berlin", "eow", now: "2026-12-01T10:00").stdout == "2026-12-06\n")
        #expect(try date("Europe/Berlin", "eow", now: "2026-12-01T10:00", weekStart: "sunday").stdout == "2026-12-05\n")
        let bad = try date("Europe/Berlin", "eow", now: "2026-12-01T10:00", weekStart: "someday")
        #expect(bad.status == 2 && bad.stderr.contains("TASKS_WEEK_START"))
        #expect(try date("UTC", "-1d", now: "2026-12-01T10:00").stdout == "2026-11-30\n", "a dash and a digit is a word")
    }

    @Test func daylightSavingTimeNeverMovesADayOrAClockReading() throws {
        let cases: [(String, String, String, String)] = [
            // Berlin: clocks go 02:00 → 03:00 on 2026-03-29 and 03:00 → 02:00 on 2026-10-25.
            ("Europe/Berlin", "+1d", "2026-03-28T12:00", "2026-03-29\n"),
            ("Europe/Berlin", "tomorrow 12:00", "2026-03-28T12:00", "2026-03-29T12:00:00+02:00\n"),
            ("Europe/Berlin", "+24h", "2026-03-28T12:00", "2026-03-29T13:00:00+02:00\n"),
            ("Europe/Berlin", "2026-03-29T02:30", "2026-03-28T12:00", "2026-03-29T03:30:00+02:00\n"),
            ("Europe/Berlin", "tomorrow 0:00", "2026-10-24T12:00", "2026-10-25T00:00:00+02:00\n"),
            ("Europe/Berlin", "+1d", "2026-10-25T23:30", "2026-10-26\n"),
            ("Europe/Berlin", "2026-10-25T12:00Z", "2026-10-24T12:00", "2026-10-25T13:00:00+01:00\n"),
            // New York: 2026-03-08 and 2026-11-01.
            ("America/New_York", "+1d", "2026-03-07T23:30", "2026-03-08\n"),
            ("America/New_York", "tomorrow 9:00", "2026-03-07T09:00", "2026-03-08T09:00:00-04:00\n"),
            ("America/New_York", "2026-03-08T02:30", "2026-03-07T09:00", "2026-03-08T03:30:00-04:00\n"),
            ("America/New_York", "in 1 day", "2026-10-31T00:00", "2026-11-01\n"),
            ("America/New_York", "sun 18:00", "2026-10-30T09:00", "2026-11-01T18:00:00-05:00\n"),
        ]
        for (zone, words, now, expected) in cases {
            let result = try date(zone, words, now: now)
            #expect(result.stdout == expected, "\(zone) \(words) at \(now): \(result)")
        }
    }

    @Test func aBadExpressionIsStatusTwoWithTheGrammarInOneLine() throws {
        let result = try date("UTC", "next blue moon", now: "2026-12-01T10:00")
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tasks: 'next blue moon' is not a date; use YYYY-MM-DD, today,") && result.stderr.split(separator: "\n").count == 1)
    }
}
