import TaskModel
import _TestSupport
import Testing

/// Repeating, waiting, ranking and finding, as a user meets them: each rule of CLI.md's
/// "Repeating, waiting, ranking, finding" against a fixed today (2026-11-29, a Sunday).
@Suite("tasks: repeating, waiting, next, and search in every script")
struct RepeatingTests {
    private func tsv(_ cli: CLI, _ arguments: String...) -> String { cli.run(arguments + ["--format", "tsv"]).stdout }

    @Test func doneMakesTheNextOccurrenceInTheSameEntryAndUndoTakesItBack() {
        let cli = CLI()
        cli.run("add", "Pay rent", "--every", "month", "--due", "2026-01-31", "-p", "H", "-t", "bills")
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("repeat\tevery 1m\n"))
        #expect(cli.run("list").stdout == "1\tfalse\tInbox\tPay rent\t2026-01-31\tH\tbills\n")
        #expect(cli.run("done", "1").status == 0)
        // Done late (today is 2026-11-29): the next date of the schedule after today, not the ten missed ones.
        #expect(tsv(cli, "list", "--all") == "1\ttrue\tInbox\tPay rent\t2026-01-31\tH\tbills\n2\tfalse\tInbox\tPay rent\t2026-11-30\tH\tbills\n")
        #expect(cli.run("history", "--format", "tsv").stdout.contains("done 1 \"Pay rent\""))
        #expect(cli.run("undo").status == 0)
        #expect(tsv(cli, "list", "--all") == "1\tfalse\tInbox\tPay rent\t2026-01-31\tH\tbills\n", "undo removed the occurrence the done made")
    }

    @Test func monthEndsThroughTheCommandLine() {
        let cli = CLI()
        cli.today = CalendarDay("2026-01-31") ?? .unixEpoch
        cli.run("add", "Report", "--every", "month", "--due", "2026-01-31")
        var dues: [String] = []
        for id in 1...3 {
            cli.today = CalendarDay(cli.run("show", "\(id)", "--format", "tsv").stdout.split(separator: "\n")
                .first { $0.hasPrefix("due\t") }.map { String($0.dropFirst(4)) } ?? "") ?? .unixEpoch
            #expect(cli.run("done", "\(id)").status == 0)
            dues.append(String(tsv(cli, "list").split(separator: "\t")[4]))
        }
        #expect(dues == ["2026-02-28", "2026-03-31", "2026-04-30"])
    }

    @Test func reopenRemovesTheOccurrenceUnlessItWasChanged() {
        let cli = CLI()
        cli.run("add", "Water plants", "--after", "3d")
        cli.run("done", "1")
        #expect(tsv(cli, "list") == "2\tfalse\tInbox\tWater plants\t2026-12-02\t\t\n", "after: three days after the day it was done")
        cli.run("reopen", "1")
        #expect(tsv(cli, "list") == "1\tfalse\tInbox\tWater plants\t\t\t\n")
        cli.run("done", "1")
        cli.run("edit", "3", "--notes", "the ficus too")
        cli.run("reopen", "1")
        #expect(tsv(cli, "list").split(separator: "\n").count == 2, "an occurrence changed since is kept")
    }

    @Test func stoppingTheSeriesAndDeletingAnOccurrence() {
        let cli = CLI()
        cli.run("add", "Standup", "--every", "weekday")
        #expect(cli.run("edit", "1", "--every", "").status == 0)
        cli.run("done", "1")
        #expect(tsv(cli, "list") == "", "--every '' stops it: done makes nothing")
        cli.run("add", "Gym", "--every", "2d")
        cli.run("delete", "2")
        #expect(tsv(cli, "list", "--all").split(separator: "\n").count == 1, "deleting an occurrence ends the series")
    }

    @Test func aBadRuleIsAUsageErrorThatAddsNothing() {
        let cli = CLI()
        #expect(cli.run("add", "x", "--every", "fortnight") == CLI.Result(status: 2, stdout: "", stderr: """
            tasks: 'fortnight' is not an interval; use day, weekday, week, month, year, or a count with d, w, m or y (2w, 3m)

            """))
        #expect(cli.run("add", "x", "--every", "week", "--after", "3d").stderr == "tasks: give --every or --after, not both\n")
        #expect(!PrivateFileProbe.exists(cli.db))
    }

    @Test func waitingIsDecidedWhenListing() {
        let cli = CLI()
        cli.run("add", "Now")
        cli.run("add", "Later", "--wait", "2026-12-05", "--due", "2026-12-10")
        let warned = cli.run("add", "Odd", "--wait", "2026-12-20", "--due", "2026-12-10")
        #expect(warned.stderr == "tasks: warning: task 3 waits until 2026-12-20, after its due date 2026-12-10: it stays hidden until then\n")
        #expect(tsv(cli, "list") == "1\tfalse\tInbox\tNow\t\t\t\n")
        #expect(tsv(cli, "list", "--waiting").split(separator: "\n").map { $0.prefix(1) } == ["2", "3"])
        #expect(tsv(cli, "list", "--all").split(separator: "\n").count == 3)
        #expect(cli.run("show", "2", "--format", "tsv").stdout.contains("wait\t2026-12-05\n"))
        cli.today = CalendarDay("2026-12-05") ?? .unixEpoch
        #expect(tsv(cli, "list").split(separator: "\n").map { $0.prefix(1) } == ["1", "2"], "back on its day")
        cli.run("edit", "3", "--wait", "")
        #expect(tsv(cli, "list").split(separator: "\n").count == 3)
    }

    @Test func nextRanksAndExplains() {
        let cli = CLI()
        cli.run("add", "Someday")
        cli.run("add", "Overdue report", "--due", "2026-11-20", "-p", "M")
        cli.run("add", "Due today", "--due", "today")
        cli.run("add", "Soon", "--due", "+3d", "-p", "H")
        cli.run("add", "Hidden", "--due", "2026-11-01", "--wait", "2026-12-24")
        cli.run("add", "Done already", "--due", "2026-11-01")
        cli.run("done", "6")
        assertGolden(cli.run(["next", "--explain"], terminal: true).stdout, named: "next-explain.txt")
        assertGolden(cli.run("next", "--explain", "--header").stdout, named: "next-explain.tsv")
        #expect(cli.run("next", "-n", "2", "--format", "ids").stdout == "2\n4\n")
        #expect(cli.run("next", "--explain", "--format", "json").status == 2)
    }

    @Test(arguments: [("ärger", "Viel ÄRGER im Büro"), ("σίσυφος", "ΣΊΣΥΦΟΣ και ο βράχος"), ("ΣΊΣΥΦΟΣ", "ο σίσυφος"),
                      ("büro", "Viel ÄRGER im BÜRO"), ("ß", "Straße"), ("ÖL", "Öl wechseln")])
    func searchIgnoresCaseInEveryScript(needle: String, title: String) {
        let cli = CLI()
        _ = cli.run(["add", "-"], input: title + "\nSomething else\n")
        #expect(tsv(cli, "list", "--search", needle).split(separator: "\t").dropFirst(3).first.map(String.init) == title, "\(needle)")
        #expect(tsv(cli, "list", "--search", needle).split(separator: "\n").count == 1)
    }

    @Test func searchFindsNotesAndSubstringsAndNothingElse() {
        let cli = CLI()
        cli.run("add", "Call mom", "--notes", "about the 한국 trip")
        cli.run("add", "100% done? 'quoted' \"double\"")
        #expect(tsv(cli, "list", "--search", "한국").hasPrefix("1\t"))
        #expect(tsv(cli, "list", "--search", "국 t").hasPrefix("1\t"))
        #expect(tsv(cli, "list", "--search", "\"double\"").hasPrefix("2\t"))
        #expect(tsv(cli, "list", "--search", "100%").hasPrefix("2\t"))
        #expect(tsv(cli, "list", "--search", "zzz") == "")
        #expect(tsv(cli, "list", "mom", "trip").hasPrefix("1\t"), "filter words are ANDed: one in the title, one in the notes")
        #expect(tsv(cli, "list", "trip", "mom").hasPrefix("1\t"), "in any order")
        #expect(tsv(cli, "list", "mom trip") == "", "a quoted phrase is one word")
    }
}
