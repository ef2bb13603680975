import _TestSupport
import Testing

/// Issue 54: subtasks — `--parent ID` makes one, placed under its parent in the manual order
/// and shown indented there; `parent:ID`, `+CHILD` and `+PARENT` find them; a ring of
/// subtasks is refused.
@Suite("Subtasks on the command line")
struct SubtaskCommandTests {
    static func seeded() -> CLI {
        let cli = CLI()
        _ = cli.run(["add", "-"], input: "Trip\nGroceries\n")
        cli.run("add", "Book flight", "--parent", "1")
        cli.run("add", "Pack", "--parent", "1")
        cli.run("add", "Socks", "--parent", "4")
        cli.run("add", "Milk 우유 🥛", "--parent", "2")
        return cli
    }

    @Test func aSubtaskIsListedIndentedUnderItsParent() {
        let cli = Self.seeded()
        #expect(cli.run(["list"], terminal: true, width: 40).stdout == """
            Inbox (6)
               1  [ ]  Trip
               3  [ ]    Book flight
               4  [ ]    Pack
               5  [ ]      Socks
               2  [ ]  Groceries
               6  [ ]    Milk 우유 🥛

            """)
        #expect(cli.run("list", "--format", "ids").stdout == "1\n3\n4\n5\n2\n6\n", "the manual order keeps them under their parents")
        #expect(cli.run("show", "3", "--format", "tsv").stdout.contains("parent\t00000000-0000-7000-8000-000000000001\n"))
        #expect(cli.run("export").stdout.contains(#""annotations":[],"parent":"00000000-0000-7000-8000-000000000001"}"#))
    }

    @Test func filtersFindSubtasksAndTheirParents() {
        let cli = Self.seeded()
        #expect(cli.run("list", "parent:1", "--format", "ids").stdout == "3\n4\n")
        #expect(cli.run("list", "parent:1,4", "--format", "ids").stdout == "3\n4\n5\n")
        #expect(cli.run("list", "parent:00000000-0000-7000-8000-000000000002", "--format", "ids").stdout == "6\n")
        #expect(cli.run("list", "+CHILD", "--format", "ids").stdout == "3\n4\n5\n6\n")
        #expect(cli.run("list", "+PARENT", "--format", "ids").stdout == "1\n4\n2\n")
        #expect(cli.run("list", "-CHILD", "--format", "ids").stdout == "1\n2\n")
        #expect(cli.run("count", "parent:", "--format", "ids").stdout == "2\n", "no parent")
    }

    @Test func aRingIsRefusedAndAParentCanBeTakenAwayAndUndone() {
        let cli = Self.seeded()
        let before = cli.snapshot()
        for (words, message) in [
            (["edit", "1", "--parent", "5"], "tasks: that would make tasks subtasks of each other in a circle (1 → 5 → 4 → 1, each under the next); nothing was changed\n"),
            (["edit", "4", "--parent", "4"], "tasks: task 4 cannot be a subtask of itself; nothing was changed\n"),
            (["edit", "4", "--parent", "x"], "tasks: '--parent x': 'x' is not a task id; give one id, or '' for no parent\n"),
        ] {
            #expect(cli.run(words) == CLI.Result(status: 2, stdout: "", stderr: message), "\(words)")
        }
        #expect(cli.run("edit", "4", "--parent", "99").status == 1)
        #expect(cli.snapshot() == before, "nothing was changed")
        #expect(cli.run("modify", "4", "--parent", "").status == 0)
        #expect(cli.run("list", "parent:1", "--format", "ids").stdout == "3\n")
        #expect(cli.run("undo").status == 0)
        #expect(cli.run("list", "parent:1", "--format", "ids").stdout == "3\n4\n")
    }
}
