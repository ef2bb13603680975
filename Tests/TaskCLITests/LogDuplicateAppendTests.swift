import TaskModel
import _TestSupport
import Testing

/// Issue 26's small commands, each one file under Commands/ and one line of the registry.
@Suite("tasks log, duplicate, append, prepend")
struct LogDuplicateAppendTests {
    private func tsv(_ cli: CLI, _ arguments: String...) -> String { cli.run(arguments + ["--format", "tsv"]).stdout }

    @Test func logAddsTasksDoneInOneEntry() {
        let cli = CLI()
        #expect(cli.run(["log", "-", "-l", "Home"], stdin: Array("Paid rent\nCalled mom\n".utf8), terminal: true).stdout == "Logged 1: Paid rent\nLogged 2: Called mom\n")
        #expect(tsv(cli, "list").isEmpty, "done: out of the pending list")
        #expect(tsv(cli, "list", "--done") == "1\ttrue\tHome\tPaid rent\t\t\t\n2\ttrue\tHome\tCalled mom\t\t\t\n")
        #expect(cli.run("show", "1", "--format", "json").stdout.contains(#""done":true,"completed":"2026-11-30T10:00:00.000Z""#))
        #expect(cli.run("log", "x", "--every", "week").stderr.hasPrefix("tasks: a repeating task cannot be logged"))
        cli.run("undo")
        #expect(tsv(cli, "list", "--all").isEmpty, "one entry, undone whole")
    }

    @Test func duplicateCopiesTheFieldsIntoANewPendingTaskOfNoSeries() {
        let cli = CLI()
        cli.run("add", "Water plants", "--due", "fri", "-t", "home", "--every", "week", "--scheduled", "thu", "-n", "the ferns too")
        cli.run("done", "1")  // makes occurrence 2 of the series
        #expect(cli.run(["duplicate", "1", "-p", "H"], terminal: true).stdout == "Duplicated 3: Water plants\n")
        let copy = cli.run("show", "3", "--format", "json").stdout
        #expect(copy.contains(#""notes":"the ferns too","list":"Inbox","done":false,"completed":null,"due":"2026-12-04","priority":"H","tags":["home"]"#))
        let uuid = cli.run("show", "3", "--format", "tsv").stdout.split(separator: "\n").first { $0.hasPrefix("uuid\t") }?.dropFirst(5) ?? ""
        #expect(!uuid.isEmpty && copy.contains(#""repeat":"every 1w","series":"\#(uuid)""#), "a series of its own: its own uuid")
        #expect(!cli.run("show", "1", "--format", "json").stdout.contains(#""uuid":"\#(uuid)""#))
        #expect(copy.contains(#""scheduled":"2026-12-03""#))
        let missing = cli.run("duplicate", "9")
        #expect(missing.status == 1 && missing.stderr.hasPrefix("tasks: no task with id 9; nothing was changed"))
    }

    @Test func appendAndPrependChangeTheTitleAndAreUndone() {
        let cli = CLI()
        cli.run("add", "Buy milk")
        #expect(cli.run(["append", "1", "and", "bread"], terminal: true).stdout == "Changed 1: Buy milk and bread\n")
        #expect(cli.run(["prepend", "1", "🥛 우유"], terminal: true).stdout == "Changed 1: 🥛 우유 Buy milk and bread\n")
        cli.run("undo")
        #expect(tsv(cli, "list") == "1\tfalse\tInbox\tBuy milk and bread\t\t\t\n")
        let before = cli.snapshot()
        #expect(cli.run("append", "1").status == 2)
        #expect(cli.run("append", "1", String(repeating: "x", count: 5000)).status == 2, "the title's limit holds")
        #expect(cli.run("append", "7", "x").status == 1)
        #expect(cli.snapshot() == before)
    }
}
