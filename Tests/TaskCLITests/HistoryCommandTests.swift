import _TestSupport
import Testing

@Suite("tasks undo, redo, history")
struct HistoryCommandTests {
    /// Three commands: an add, a done, an edit.
    static func seeded() -> CLI {
        let cli = CLI()
        _ = cli.run(["add", "-", "--tag", "errand"], input: "Buy milk\nCall mom\n")
        cli.run("done", "2")
        cli.run("edit", "1", "--title", "Buy oat milk", "--due", "tomorrow")
        return cli
    }

    @Test func undoSaysWhatItRevertedOnATerminalAndNothingInAPipe() {
        let cli = HistoryCommandTests.seeded()
        #expect(cli.run(["undo"], terminal: true) == CLI.Result(status: 0, stdout: "Undid #3: edited 1 \"Buy oat milk\" (title, due)\n", stderr: ""))
        #expect(cli.run("list", "--format", "tsv").stdout == "1\tfalse\tInbox\tBuy milk\t\t\terrand\n")
        #expect(cli.run("undo") == CLI.Result(status: 0, stdout: "", stderr: ""), "in a pipe: nothing")
        #expect(cli.run("list", "--all", "--format", "ids").stdout == "1\n2\n")
        #expect(cli.run(["redo"], terminal: true).stdout == "Redid #2: done 2 \"Call mom\"\n")
        #expect(cli.run("redo", "--format", "tsv").stdout.hasPrefix("3\t2026-11-30T10:00:00.000Z\tcommand\ttasks edit 1 --title 'Buy oat milk' --due tomorrow\t"))
        #expect(cli.run("list", "--format", "tsv").stdout == "1\tfalse\tInbox\tBuy oat milk\t2026-11-30\t\terrand\n")
    }

    @Test func theHistoryInEachFormat() {
        let cli = HistoryCommandTests.seeded()
        cli.run("undo")
        assertGolden(cli.run(["history"], terminal: true, width: 100).stdout, named: "history.table")
        assertGolden(cli.run("history", "--format", "tsv", "--header").stdout, named: "history.tsv")
        assertGolden(cli.run("history", "--format", "json", "--limit", "2").stdout, named: "history.json")
        #expect(cli.run("history", "--task", "2", "--format", "ids").stdout == "2\n1\n")
        #expect(cli.run("history", "--limit", "1", "--format", "ids").stdout == "4\n")
    }

    @Test func whatCannotBeUndoneChangesNothingAndSaysWhy() {
        let cli = HistoryCommandTests.seeded()
        let before = cli.snapshot()
        #expect(cli.run("undo", "1") == CLI.Result(status: 1, stdout: "", stderr: """
            tasks: cannot undo #1: task 2 "Call mom" was changed later by #2 (done 2 "Call mom"); nothing was changed
            tasks: undo #2 first; 'tasks history --task 2' shows its changes

            """))
        #expect(cli.snapshot() == before, "the file is as it was")
        for (words, message) in [
            (["undo", "abc"], "tasks: 'abc' is not a history entry; an entry is a number such as 12 or #12 ('tasks history' lists them)\n"),
            (["undo", "99999999"], "tasks: there is no history entry #99999999 (the history keeps the last 1,000 entries and 30 days)\ntasks: 'tasks history' lists the entries\n"),
            (["undo", "1", "2"], "tasks: 'undo' takes no further argument '2'; see 'tasks help undo'\n"),
            (["history", "--limit", "x"], "tasks: 'x' is not a count; give a whole number such as 20\n"),
        ] {
            #expect(cli.run(words) == CLI.Result(status: 2, stdout: "", stderr: message), "\(words)")
        }
        #expect(cli.snapshot() == before)
    }

    @Test func nothingToUndoOrRedoIsStatusOne() {
        let cli = CLI()
        #expect(cli.run("undo") == CLI.Result(status: 1, stdout: "", stderr: """
            tasks: nothing to undo: no change is in effect
            tasks: 'tasks history' shows what was done and undone

            """))
        cli.run("add", "a")
        #expect(cli.run("redo").status == 1)
        #expect(cli.run("undo", "#1").status == 0)
        #expect(cli.run("undo").status == 1)
        #expect(cli.run(["history"], terminal: true).stdout.contains("(undone by #2)"))
    }
}

@Suite("tasks undo through the binary", .enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
struct HistoryBinaryTests {
    @Test func aThousandLineAddIsUndoneInOneStepAndTwoProcessesUndoTwoEntries() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            seq 1 1000 | sed 's/^/line /' | tasks add - > /dev/null
            tasks add one > /dev/null && tasks add two > /dev/null
            tasks undo & tasks undo & wait
            tasks history --format tsv | cut -f1,3,5,7
            tasks undo && tasks list --format ids | wc -l
            """, in: folder)
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        // Two undos, each of a different entry (the newest when each ran), in either order.
        #expect(Set(lines[0...1].map { String($0.split(separator: "\t")[2]) }) == ["undid #3", "undid #2"])
        let undoOf = { (entry: String) in lines[0...1].first { $0.contains("undid #" + entry) }.map { String($0.prefix(1)) } ?? "?" }
        #expect(Array(lines[2...4]) == ["3\tcommand\tadded 1002 \"two\"\t" + undoOf("3"),
                                         "2\tcommand\tadded 1001 \"one\"\t" + undoOf("2"),
                                         "1\tcommand\tadded 1,000 tasks\t"])
        #expect(lines[5] == "0", "the thousand lines went in one undo")
    }
}
