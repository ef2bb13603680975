import TaskModel
import TextFormats
import _TestSupport
import Testing

@Suite("tasks: each command, in-process")
struct CommandTests {
    /// A file with tasks in two lists, one done, with every field somewhere.
    static func seeded() -> CLI {
        let cli = CLI()
        cli.run("add", "Buy milk", "--due", "2026-12-01", "-p", "H", "-t", "errand", "-t", "+shop")
        cli.run("add", "Call mom", "--notes", "about Sunday\nand the trip")
        cli.run("add", "Write report", "-l", "Work", "--due", "2026-11-20", "-p", "m")
        cli.run("add", "Review PR", "-l", "Work", "-t", "code")
        cli.run("done", "4")
        return cli
    }

    @Test func addPrintsNewIdsInAPipeAndSaysWhatItAddedOnATerminal() {
        let cli = CLI()
        #expect(cli.run(["add", "-"], input: "Buy milk\nCall mom\n") == CLI.Result(status: 0, stdout: "1\n2\n", stderr: ""))
        #expect(cli.run(["add", "Water plants"], terminal: true) == CLI.Result(status: 0, stdout: "Added 3: Water plants\n", stderr: ""))
        #expect(cli.run("add", "-q", "Quiet one").stdout == "")
        #expect(cli.run("--format", "tsv").stdout == "1\tfalse\tInbox\tBuy milk\t\t\t\n2\tfalse\tInbox\tCall mom\t\t\t\n3\tfalse\tInbox\tWater plants\t\t\t\n4\tfalse\tInbox\tQuiet one\t\t\t\n")
    }

    @Test func addReadsOneTitlePerLineFromStdinInOneBatch() {
        let cli = CLI()
        #expect(cli.run(["add", "-", "--list", "Work", "--tag", "x"], input: "first\r\nsecond\n  third  ").stdout == "1\n2\n3\n")
        #expect(cli.run("list", "--format", "tsv").stdout == "1\tfalse\tWork\tfirst\t\t\tx\n2\tfalse\tWork\tsecond\t\t\tx\n3\tfalse\tWork\tthird\t\t\tx\n")
    }

    @Test func addTakesTitlesThatStartWithADashAfterDoubleDash() {
        let cli = CLI()
        #expect(cli.run("add", "--", "-5 degrees", "--not-a-flag").stdout == "1\n")
        #expect(cli.run("list", "--format", "tsv").stdout.contains("-5 degrees --not-a-flag\t"), "the words are one title")
    }

    @Test func listIsTheDefaultCommandAndPrintsSectionsAsATable() {
        let cli = CommandTests.seeded()
        let table = cli.run([], terminal: true)
        #expect(table.status == 0)
        assertGolden(table.stdout, named: "list-table.txt")
        #expect(cli.run(["list"], terminal: true) == table)
        #expect(cli.run(["--all"], terminal: true).stdout.contains("[x]  Review PR"))
    }

    @Test(arguments: ["tsv", "csv", "json", "ids"])
    func listFormatsMatchTheirGoldenFiles(format: String) {
        let cli = CommandTests.seeded()
        let result = cli.run("list", "--all", "--format", format)
        #expect(result.status == 0 && result.stderr == "")
        assertGolden(result.stdout, named: "list-all.\(format)")
    }

    @Test func tsvHeaderAndEscapes() {
        let cli = CLI()
        cli.run("add", "tab\there back\\slash")
        #expect(cli.run("list", "--header").stdout == "id\tdone\tlist\ttitle\tdue\tpriority\ttags\n1\tfalse\tInbox\ttab\\there back\\\\slash\t\t\t\n")
    }

    @Test func koreanAndEmojiTitlesLineUpInTheTable() {
        let cli = CLI()
        cli.run("add", "우유 사기", "--due", "2026-12-01", "-t", "장보기")
        cli.run("add", "🎉 Party 🎂", "-p", "H")
        cli.run("add", "plain ascii title", "--due", "2026-11-30")
        cli.run("add", "日本語のタスク", "-t", "work")
        let table = cli.run([], terminal: true).stdout
        assertGolden(table, named: "list-wide-characters.txt")
        // Every row's due column starts at the same terminal cell.
        let rows = table.split(separator: "\n").dropFirst().filter { $0.contains("2026-") }
        let columns = Set(rows.map { row in TerminalTextProbe.cells(before: "2026-", in: String(row)) })
        #expect(rows.count == 2 && columns.count == 1)
    }

    @Test func longTitlesAreCutToTheTerminalWidthOnlyOnATerminal() {
        let cli = CLI()
        let long = String(repeating: "very long title ", count: 10)
        cli.run("add", long, "-t", "tag")
        let narrow = cli.run([], terminal: true, width: 40).stdout
        #expect(narrow.split(separator: "\n").allSatisfy { TerminalTextProbe.width(String($0)) <= 40 })
        #expect(narrow.contains("…"))
        #expect(cli.run("list", "--format", "table").stdout.contains(long.trimmingWhitespace))
    }

    @Test func controlCharactersInTitlesNeverReachTheTerminal() {
        let cli = CLI()
        cli.run("add", "evil \u{1B}[31mred\u{1B}[0m \u{07}bell")
        let table = cli.run([], terminal: true).stdout
        #expect(!table.contains("\u{1B}") && !table.contains("\u{07}"))
        #expect(table.contains("evil \\e[31mred\\e[0m \\x07bell"))
        #expect(!cli.run(["show", "1"], terminal: true).stdout.contains("\u{1B}"))
        // In a pipe the title is data, passed on as it is.
        #expect(cli.run("list").stdout.contains("\u{1B}[31m"))
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() {
        let cli = CommandTests.seeded()
        let colourful = ["TASKS_DB": cli.db, "TERM": "xterm"]
        #expect(cli.run(["--color", "always"], terminal: true, environment: colourful).stdout.contains("\u{1B}[1m"))
        #expect(cli.run([], terminal: true, environment: colourful).stdout.contains("\u{1B}[1m"), "auto colours a terminal")
        #expect(!cli.run([], terminal: true, environment: ["TASKS_DB": cli.db, "TERM": "dumb"]).stdout.contains("\u{1B}"))
        #expect(!cli.run(["--color", "always"], terminal: true).stdout.contains("\u{1B}"), "NO_COLOR wins over --color always")
        let noColor = cli.run([], terminal: true, environment: ["TASKS_DB": cli.db, "NO_COLOR": "1", "TERM": "xterm"])
        #expect(!noColor.stdout.contains("\u{1B}"))
        #expect(!cli.run(["--color", "never"], terminal: true).stdout.contains("\u{1B}"))
        #expect(!cli.run("list", "--format", "table", "--color", "auto").stdout.contains("\u{1B}"))
    }

    @Test func filters() {
        let cli = CommandTests.seeded()
        func ids(_ arguments: String...) -> String { cli.run(["list", "--format", "ids"] + arguments).stdout }
        #expect(ids() == "1\n2\n3\n")
        #expect(ids("--all") == "1\n2\n3\n4\n")
        #expect(ids("--done") == "4\n")
        #expect(ids("--list", "Work") == "3\n")
        #expect(ids("-l", "Work", "--all") == "3\n4\n")
        #expect(ids("--tag", "errand") == "1\n")
        #expect(ids("--search", "MILK") == "1\n")
        #expect(ids("sunday") == "2\n", "a FILTER word searches the notes too")
        #expect(ids("--priority", "h") == "1\n")
        #expect(ids("--due-before", "2026-12-01") == "3\n")
        #expect(ids("--overdue") == "3\n")
        #expect(ids("--sort", "due", "--all") == "1\n2\n3\n4\n", "sorted within each list's section")
    }

    @Test func toggleDoneAndReopen() {
        let cli = CommandTests.seeded()
        #expect(cli.run(["toggle", "1", "2"], terminal: true).stdout == "Done 1: Buy milk\nDone 2: Call mom\n")
        #expect(cli.run(["done", "1"], terminal: true).stdout == "Nothing to change.\n")
        #expect(cli.run("done", "1").status == 0, "done stays done")
        #expect(cli.run(["reopen", "1", "2"], terminal: true).stdout == "Reopened 1: Buy milk\nReopened 2: Call mom\n")
        #expect(cli.run("reopen", "1") == CLI.Result(status: 0, stdout: "", stderr: ""))
        #expect(cli.run("toggle", "1", "--format", "ids").stdout == "1\n")
        #expect(cli.run("list", "--done", "--format", "ids").stdout == "1\n4\n")
    }

    @Test func showPrintsEveryField() {
        let cli = CommandTests.seeded()
        assertGolden(cli.run(["show", "1"], terminal: true).stdout, named: "show-table.txt")
        assertGolden(cli.run("show", "2", "--format", "json").stdout, named: "show.json")
    }

    @Test func editChangesOnlyTheFieldsGiven() {
        let cli = CommandTests.seeded()
        #expect(cli.run(["edit", "1", "--title", "Buy oat milk", "--tag", "-errand", "--tag", "dairy", "--due", ""], terminal: true).stdout
            == "Changed 1: Buy oat milk\n")
        let shown = cli.run("show", "1", "--format", "tsv").stdout.split(separator: "\n").prefix(16).joined(separator: "\n")
        #expect(shown == "id\t1\ntitle\tBuy oat milk\nlist\tInbox\ndone\tfalse\ncompleted\t\ndue\t\npriority\tH\ntags\tdairy shop\nrepeat\t\nwait\t\nscheduled\t\nuntil\t\nstart\t\nspent\t0\ndepends\t\nreminders\t",
                "in a pipe, one field<TAB>value line per field")
        #expect(cli.run("edit", "2", "--list", "Home").status == 0)
        #expect(cli.run("show", "2", "--format", "json").stdout.contains(#""notes":"about Sunday\nand the trip","list":"Home""#))
    }

    @Test func editWithoutFlagsOpensTheEditorOnATerminal() {
        let cli = CommandTests.seeded()
        let result = cli.run(["edit", "2"], terminal: true, editor: { text in
            #expect(text.hasPrefix("Call mom\n\nabout Sunday\nand the trip\n# ------------------------ >8 ------------------------\n#"))
            // The user rewrites the title and the notes above the scissors line; what is below it is left out.
            return "Call mum\n\nabout Sunday\n" + text.drop { $0 != "#" }
        })
        #expect(result == CLI.Result(status: 0, stdout: "Changed 2: Call mum\n", stderr: ""))
        #expect(cli.run("show", "2", "--format", "json").stdout.contains(#""title":"Call mum","notes":"about Sunday""#))
        #expect(cli.run(["edit", "2"], terminal: true, editor: { $0 }).stdout == "Nothing changed.\n")
        let before = cli.snapshot()
        #expect(cli.run(["edit", "2"], terminal: true, editor: { _ in nil }).status == 1)
        #expect(cli.snapshot() == before)
    }

    /// Issue 24: notes lines starting with `#` were dropped by an editor that only renamed the title.
    @Test func theEditorKeepsEveryNotesLineByteForByte() {
        let kinds = ["# Heading", "see #42", "#tag", "#", "", "  ", "\t# indented", "## two", "# ------------------------ >8 ------------------------",
                     "# Task 2.", "trailing space ", "한국어 🍽️", "\r", "x"]
        var notesToTry = [kinds.joined(separator: "\n"), "\n\nstarts blank", "ends blank\n\n", "\n", "#", "# only a heading\n"]
        notesToTry += kinds.map { "a\n" + $0 + "\nb" }
        for notes in notesToTry {
            let cli = CLI()
            cli.run("add", "Call mom")
            #expect(cli.run("edit", "1", "--notes", notes).status == 0)
            let renamed = cli.run(["edit", "1"], terminal: true, editor: { text in
                // A real editor session that only renames the title: the first line changes.
                "Call mum" + text.drop { $0 != "\n" }
            })
            #expect(renamed.status == 0, "\(renamed)")
            let shown = cli.run("show", "1", "--format", "json").stdout
            #expect(shown.contains(#""title":"Call mum","notes":"# + JSONValue.string(notes).serialized()), "notes \(notes.debugDescription): \(shown)")
            #expect(cli.run(["edit", "1"], terminal: true, editor: { $0 }).stdout == "Nothing changed.\n", "notes \(notes.debugDescription) come back unchanged")
        }
    }

    @Test func anEditorThatRemovedTheScissorsLineStillLeavesTheTemplateOut() {
        let cli = CommandTests.seeded()
        let result = cli.run(["edit", "2"], terminal: true, editor: { text in
            "Call mum\n\nabout Sunday\n# a heading\n" + text.split(separator: "\n").filter { $0.hasPrefix("# ") && !$0.contains(">8") }.joined(separator: "\n") + "\n"
        })
        #expect(result.status == 0, "\(result)")
        #expect(cli.run("show", "2", "--format", "json").stdout.contains(#""title":"Call mum","notes":"about Sunday\n# a heading""#))
    }

    @Test func deleteAndItsAlias() {
        let cli = CommandTests.seeded()
        #expect(cli.run(["delete", "1"], terminal: true).stdout == "Deleted 1: Buy milk\n")
        #expect(cli.run("rm", "2", "3").status == 0)
        #expect(cli.run("list", "--all", "--format", "ids").stdout == "4\n")
        #expect(cli.run("add", "new").stdout == "5\n", "ids are never reused")
    }

    @Test func moveReordersAndMovesBetweenLists() {
        let cli = CLI()
        _ = cli.run(["add", "-"], input: "a\nb\nc\nd\n")
        func order() -> String { cli.run("list", "--format", "ids").stdout.split(separator: "\n").joined(separator: " ") }
        #expect(cli.run("move", "4", "--top").status == 0)
        #expect(order() == "4 1 2 3")
        #expect(cli.run("move", "1", "--bottom").status == 0)
        #expect(order() == "4 2 3 1")
        #expect(cli.run("move", "3", "--before", "2").status == 0)
        #expect(order() == "4 3 2 1")
        #expect(cli.run("mv", "4", "--after", "1").status == 0)
        #expect(order() == "3 2 1 4")
        #expect(cli.run(["move", "2", "--list", "Work"], terminal: true).stdout == "Moved 2: b\n")
        #expect(cli.run("list", "--list", "Work", "--format", "ids").stdout == "2\n")
    }

    @Test func listsCountsPendingAndDone() {
        let cli = CommandTests.seeded()
        #expect(cli.run(["lists"], terminal: true).stdout == "LIST   PENDING   DONE\nInbox        2      0\nWork         1      1\n")
        // tsv and json: each list's own counts, then with the lists under it.
        #expect(cli.run("lists").stdout == "Inbox\t2\t0\t2\t0\nWork\t1\t1\t1\t1\n")
        #expect(cli.run("lists", "--format", "json").stdout
                == #"[{"list":"Inbox","pending":2,"done":0,"pendingWithin":2,"doneWithin":0},{"list":"Work","pending":1,"done":1,"pendingWithin":1,"doneWithin":1}]"# + "\n")
    }

    @Test func helpAndVersion() {
        let cli = CLI()
        let root = cli.run("--help")
        #expect(root.status == 0)
        assertGolden(root.stdout, named: "help-root.txt")
        #expect(cli.run("help").stdout == root.stdout)
        for command in ["list", "add", "edit", "move"] {
            let help = cli.run("help", command)
            assertGolden(help.stdout, named: "help-\(command).txt")
            #expect(cli.run(command, "--help") == help)
            #expect(cli.run(command, "-h") == help)
        }
        #expect(cli.run("--version") == CLI.Result(status: 0, stdout: "tasks 0.1.0\n", stderr: ""))
        #expect(!PrivateFileProbe.exists(cli.db), "help and --version never create the database")
    }

    @Test func readingAMissingDatabaseShowsNothingAndCreatesNothing() {
        let cli = CLI()
        #expect(cli.run("list") == CLI.Result(status: 0, stdout: "", stderr: ""))
        #expect(cli.run(["list"], terminal: true).stdout == "No tasks.\n")
        #expect(cli.run("lists").status == 0)
        #expect(cli.run("toggle", "1").status == 1)
        #expect(!PrivateFileProbe.exists(cli.db))
    }

    @Test func databasePathComesFromTheFlagThenTheEnvironment() {
        let cli = CLI()
        let flag = cli.folder.file("flag.db")
        #expect(cli.run("--db", flag, "add", "x").status == 0)
        #expect(PrivateFileProbe.exists(flag) && !PrivateFileProbe.exists(cli.db))
        #expect(cli.run(["add", "y"], environment: ["XDG_DATA_HOME": cli.folder.file("data"), "HOME": "/nonexistent"]).status == 0)
        #expect(PrivateFileProbe.exists(cli.folder.file("data/tasks/tasks.db")))
        #expect(fileMode(cli.folder.file("data/tasks")) == 0o700 && fileMode(cli.folder.file("data/tasks/tasks.db")) == 0o600)
        #expect(cli.run(["add", "z"], environment: ["HOME": cli.folder.file("home")]).status == 0)
        #expect(PrivateFileProbe.exists(cli.folder.file("home/.local/share/tasks/tasks.db")))
        let nowhere = cli.run(["add", "z"], environment: [:])
        #expect(nowhere.status == 1 && nowhere.stderr.hasPrefix("tasks: cannot tell where the database is"))
    }

    @Test func theScreenNeedsATerminalThatCanMoveItsCursor() {
        let cli = CLI()
        let dumb = cli.run(["ui"], terminal: true, environment: ["TASKS_DB": cli.db, "TERM": "dumb"])
        #expect(dumb == CLI.Result(status: 2, stdout: "", stderr: """
            tasks: 'tasks ui' needs a terminal: TERM=dumb: this terminal cannot move its cursor
            tasks: 'tasks list' prints the same tasks

            """))
        let unset = cli.run(["ui"], terminal: true, environment: ["TASKS_DB": cli.db])
        #expect(unset.status == 2 && unset.stderr.contains("TERM is not set"))
        #expect(!PrivateFileProbe.exists(cli.db), "refused before the database is opened")
    }

    @Test func aLargeBatchShowsProgressOnATerminalOnly() {
        let cli = CLI()
        let lines = (1...25_000).map { "task \($0)" }.joined(separator: "\n")
        let onTerminal = cli.run(["add", "-"], stdin: Array(lines.utf8), terminal: true)
        #expect(onTerminal.status == 0)
        #expect(onTerminal.stderr == "Adding tasks… 10000 written\r\u{1B}[KAdding tasks… 20000 written\r\u{1B}[K",
                "counted every 10,000 rows while writing, erased when done")
        #expect(onTerminal.stdout.hasPrefix("Added 1: task 1\n") && onTerminal.stdout.hasSuffix("Added 10: task 10\nAdded 24990 more.\n"))
        let inPipe = cli.run(["add", "-"], input: lines)
        #expect(inPipe.stderr == "")
        #expect(inPipe.stdout == (25_001...50_000).map { "\($0)\n" }.joined(), "the new ids, one per line")
        let titled = cli.run(["add", "-", "--format", "tsv"], input: "x\ny")
        #expect(titled.stdout == "50001\tfalse\tInbox\tx\t\t\t\n50002\tfalse\tInbox\ty\t\t\t\n", "--format: the tasks as records")
    }

    @Test func jsonOnATerminalShowsControlsEscaped() {
        let cli = CLI()
        cli.run("add", "bell \u{07} and \u{1B}[2J")
        let json = cli.run(["list", "--format", "json"], terminal: true).stdout
        #expect(!json.contains("\u{1B}") && !json.contains("\u{07}"))
        #expect(cli.run("list", "--format", "json").stdout.contains(#""title":"bell \u0007 and \u001b[2J""#))
    }
}

