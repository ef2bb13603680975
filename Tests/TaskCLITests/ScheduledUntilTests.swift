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

    @Test func scheduledIsSetShownExportedAndUndone() {
        let cli = CLI()
        #expect(cli.run("add", "Plan", "--scheduled", "fri", "--until", "+2w").status == 0)
        let json = cli.run("show", "1", "--format", "json").stdout
        #expect(json.contains(#""wait":null,"scheduled":"2026-12-04","until":"2026-12-13"}"#), "friday after Sunday 29th; two weeks on")
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
        #expect(result.stderr == "tasks: 'someday soon' is not a day to schedule; use YYYY-MM-DD, today, tomorrow, yesterday, +3d, +2w or a weekday name\n")
        #expect(cli.run("add", "x", "--until", "13th of never").stderr.contains("is not a day to expire after"))
        #expect(cli.snapshot() == before)
    }
}
