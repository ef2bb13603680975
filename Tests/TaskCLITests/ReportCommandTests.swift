import TaskModel
import Testing

/// Reports (built in and defined), their columns, orders and limits; `tags`, `lists` rolled
/// up, `summary`, `history --since`, `default.command` and the context named above a table.
@Suite("Reports, tags, lists and summary through the command line")
struct ReportCommandTests {
    /// Five tasks: one done, one waiting, one overdue, one repeating, one blocked.
    private func seed(_ cli: CLI) {
        cli.run("add", "Pay", "bills", "+bills", "priority:H", "due:2026-11-20")
        cli.run("add", "Buy", "oat", "milk", "+errand", "list:Home", "due:2026-12-02", "priority:L")
        cli.run("add", "Write", "report", "list:Work.Q4", "priority:M", "--every", "week", "--due", "2026-12-01")
        cli.run("add", "Plan", "trip", "list:Home.Travel", "wait:2026-12-10")
        cli.run("add", "Ship", "it", "list:Work", "--blocked-by", "3")
        cli.run("add", "Call", "mum")
        cli.run("done", "6")
    }

    private func tsv(_ cli: CLI, _ words: String...) -> String { cli.run(words).stdout }

    @Test func theBuiltInReportsChooseOrderAndShowTheirColumns() {
        let cli = CLI()
        seed(cli)
        #expect(tsv(cli, "overdue") == "1\t2026-11-20\tInbox\tPay bills\tH\tbills\n")
        #expect(tsv(cli, "waiting") == "4\t2026-12-10\tHome.Travel\tPlan trip\t\t\n")
        #expect(tsv(cli, "blocked") == "5\tWork\tShip it\t\t\t1\n")
        #expect(tsv(cli, "recurring") == "3\tevery 1w\t2026-12-01\tWork.Q4\tWrite report\n")
        #expect(tsv(cli, "completed") == "6\t2026-11-30T10:00:00.000Z\tInbox\tCall mum\t\n", "\(tsv(cli, "completed"))")
        // Root options before the report's name, and -c defining one for one command.
        #expect(cli.run("--db", cli.db, "-f", "ids", "overdue").stdout == "1\n")
        #expect(cli.run("-c", "report.bills.filter=+bills", "-c", "report.bills.columns=id,title", "bills").stdout == "1\tPay bills\n")
        // ready: not waiting, not blocked; by score, highest first.
        #expect(cli.run("ready", "--format", "ids").stdout == "1\n3\n2\n")
        #expect(cli.run("all", "--format", "ids").stdout == "1\n2\n3\n4\n5\n6\n")
        // `tasks report NAME` is the same; FILTER words AND in; the command line's flags apply.
        #expect(tsv(cli, "report", "overdue") == tsv(cli, "overdue"))
        #expect(cli.run("ready", "list:Home", "--format", "ids").stdout == "2\n")
        #expect(cli.run("ready", "--limit", "1", "--format", "ids").stdout == "1\n")
        #expect(cli.run("report", "next", "--format", "ids").stdout == cli.run("next", "--format", "ids").stdout, "next is a command of its own")
        // A table has a header row of the columns.
        let table = cli.run(["overdue"], terminal: true)
        #expect(table.stdout == "  id  due         list   title      priority  tags\n   1  2026-11-20  Inbox  Pay bills  H         +bills\n", "\(table)")
        #expect(cli.run("overdue", "--format", "csv").stdout == "id,due,list,title,priority,tags\r\n1,2026-11-20,Inbox,Pay bills,H,bills\r\n")
    }

    @Test func aReportDefinedUsedAndChangedWithConfigSet() {
        let cli = CLI()
        seed(cli)
        let defined = cli.run("report", "define", "mine", "--filter", "+bills or +errand", "--columns", "id,title,due,priority",
                              "--sort", "priority-", "--limit", "20", "--description", "my errands")
        #expect(defined.status == 0, "\(defined)")
        #expect(tsv(cli, "mine") == "1\tPay bills\t2026-11-20\tH\n2\tBuy oat milk\t2026-12-02\tL\n")
        #expect(tsv(cli, "report", "mine") == tsv(cli, "mine"))
        #expect(cli.run("report", "--format", "tsv").stdout.contains("mine\t+bills or +errand\tid,title,due,priority\tpriority-\t20\tmy errands\tdefined\n"))
        // Changed with config set: the order, then the columns.
        #expect(cli.run("config", "set", "report.mine.sort", "due-").status == 0)
        #expect(cli.run("mine", "--format", "ids").stdout == "2\n1\n")
        #expect(cli.run("config", "set", "report.mine.columns", "id,list").status == 0)
        #expect(tsv(cli, "mine") == "2\tHome\n1\tInbox\n")
        // The command line's words are a group of their own: `or` cannot leak out of the report.
        #expect(cli.run("mine", "+bills", "or", "+nothing", "--format", "ids").stdout == "1\n")
        // A bad value in the configuration names the file, the line and the key.
        let refused = cli.run("config", "set", "report.mine.columns", "id,nope")
        #expect(refused.status == 2 && refused.stderr.contains("report.mine: 'nope' is not a column"), "\(refused)")
        let file = cli.folder.path + "/.config/tasks/config"
        let before = cli.run("config", "show").stdout
        #expect(cli.run("report", "define", "bad", "--columns", "id,nope").status == 2)
        #expect(cli.run("report", "define", "bad", "--sort", "sideways").status == 2)
        #expect(cli.run("report", "define", "bad", "--filter", "due.before:nonsense").status == 2)
        #expect(cli.run("report", "define", "add", "--filter", "+x").status == 2, "a command's name")
        let list = cli.run("report", "define", "list", "--limit", "2")
        #expect(list.status == 2 && list.stderr.contains("'list' is a command of its own"), "\(list)")
        let configured = cli.run("-c", "report.next.limit=3", "report")
        #expect(configured.status == 2 && configured.stderr.contains("'next' is the command 'tasks next', not a report to change"), "\(configured)")
        #expect(cli.run("config", "show").stdout == before, "refused definitions leave \(file) as it was")
        #expect(cli.run("report", "delete", "mine").status == 0)
        let gone = cli.run("mine")
        #expect(gone.status == 2 && gone.stderr.contains("unknown command 'mine'"), "\(gone)")
        let typo = cli.run("report", "overdeu")
        #expect(typo.status == 2 && typo.stderr.contains("did you mean 'overdue'?"), "\(typo)")
    }

    @Test func sortKeysRunAcrossListsAndColumnsOnList() {
        let cli = CLI()
        seed(cli)
        #expect(cli.run("list", "--sort", "priority-,id", "--format", "ids").stdout == "1\n3\n2\n5\n", "H, M, L, then none")
        #expect(cli.run("list", "--sort", "due-", "--format", "ids").stdout == "2\n3\n1\n5\n", "undated last either way")
        #expect(cli.run("list", "--sort", "due-", "--group", "list", "--format", "ids").stdout == "2\n1\n5\n3\n")
        #expect(cli.run("list", "--columns", "id,title", "--limit", "2").stdout == "2\tBuy oat milk\n1\tPay bills\n", "in the list's order")
        #expect(cli.run("list", "--columns", "title,id", "--sort", "title").stdout == "Buy oat milk\t2\nPay bills\t1\nShip it\t5\nWrite report\t3\n")
        let bad = cli.run("list", "--columns", "id,titel")
        #expect(bad.status == 2 && bad.stderr.contains("did you mean 'title'?"), "\(bad)")
    }

    @Test func tagsListsRolledUpAndSummary() {
        let cli = CLI()
        seed(cli)
        #expect(tsv(cli, "tags") == "bills\t1\t0\nerrand\t1\t0\n")
        #expect(cli.run(["lists"], terminal: true).stdout == """
            LIST      PENDING   DONE
            Home            2      0
              Travel        1      0
            Inbox           1      1
            Work            2      0
              Q4            1      0

            """)
        #expect(tsv(cli, "lists") == "Home\t1\t0\t2\t0\nHome.Travel\t1\t0\t1\t0\nInbox\t1\t1\t1\t1\nWork\t1\t0\t2\t0\nWork.Q4\t1\t0\t1\t0\n")
        #expect(cli.run(["summary"], terminal: true).stdout.hasSuffix("Inbox           1      1       50%\nWork            2      0        0%\n  Q4            1      0        0%\nAll             5      1       16%\n"))
        #expect(tsv(cli, "summary").hasPrefix("Home\t2\t0\t0\n"))
    }

    @Test func historySinceADay() {
        let cli = CLI()
        seed(cli)
        #expect(cli.run("history", "--since", "2026-11-29", "--format", "tsv").stdout.split(separator: "\n").count == 7)
        #expect(cli.run("history", "--since", "2026-11-30T06:00", "--format", "tsv").stdout.isEmpty)
        let ahead = cli.run("history", "--since", "fri")
        #expect(ahead.status == 2 && ahead.stderr.contains("still ahead"), "\(ahead)")
        #expect(cli.run("history", "--since", "soon").status == 2)
    }

    @Test func theDefaultCommandAndTheContextAboveTheTable() {
        let cli = CLI()
        seed(cli)
        #expect(cli.run("config", "set", "default.command", "overdue").status == 0)
        #expect(cli.run([]).stdout == tsv(cli, "overdue"))
        #expect(cli.run("config", "unset", "default.command").status == 0)
        #expect(cli.run("context", "define", "home", "list:Home").status == 0)
        #expect(cli.run("context", "home").status == 0)
        let table = cli.run(["list"], terminal: true).stdout
        #expect(table.hasPrefix("Context home: list:Home\nHome (1)\n"), "\(table)")
        let empty = cli.run(["list", "+nothing"], terminal: true).stdout
        #expect(empty == "No tasks in context home: list:Home (--context none: every task).\n", "\(empty)")
        #expect(!cli.run("list").stdout.contains("Context"), "a pipe gets rows only")
    }

    @Test func theScoresWeightsComeFromTheConfiguration() {
        let cli = CLI()
        seed(cli)
        // Pay bills: overdue 9 days (100 + 18) and H (40); Write report: due in 2 days (70) and M
        // (25); Buy oat milk: due in 3 days (60) and L (10).
        #expect(tsv(cli, "ready", "--columns", "id,score") == "1\t158\n3\t95\n2\t70\n")
        #expect(cli.run("config", "set", "next.priority.low", "500").status == 0)
        #expect(tsv(cli, "ready", "--columns", "id,score") == "2\t560\n1\t158\n3\t95\n")
        #expect(cli.run("next", "--format", "ids").stdout == "2\n1\n3\n5\n", "next ranks by the same weights")
        #expect(cli.run("list", "--sort", "score-", "--format", "ids").stdout == "2\n1\n3\n5\n")
        let bad = cli.run("config", "set", "next.priority.low", "lots")
        #expect(bad.status == 2 && bad.stderr.contains("give a whole number of points"), "\(bad)")
        let unknown = cli.run("config", "set", "next.priority.urgent", "5")
        #expect(unknown.status == 2 && unknown.stderr.contains("next's weights are next.due.overdue"), "\(unknown)")
    }

    @Test func annotateAndMoveTakeAFilter() {
        let cli = CLI()
        seed(cli)
        #expect(cli.run("annotate", "+bills or +errand", "paid", "by", "card").status == 0)
        #expect(cli.run("list", "+ANNOTATED", "--format", "ids").stdout == "2\n1\n", "Home, then Inbox")
        #expect(cli.run("history", "--limit", "1", "--format", "tsv").stdout.contains("tasks annotate '+bills or +errand' paid by card"))
        #expect(cli.run("undo").status == 0)
        #expect(cli.run("list", "+ANNOTATED", "--format", "ids").stdout.isEmpty, "one change, one undo")
        #expect(cli.run("move", "list:Home", "--list", "Errands").status == 0)
        #expect(cli.run("list", "list:Errands", "--format", "ids").stdout == "2\n")
        let top = cli.run("move", "list:Errands", "--top")
        #expect(top.status == 2 && top.stderr.contains("move one task: give its id"), "\(top)")
        #expect(cli.run("move", "2", "--top").status == 0, "one id still moves")
        let none = cli.run("annotate", "+nothing", "x")
        #expect(none.status == 1 && none.stderr.contains("no task matches the filter; nothing was changed"), "\(none)")
    }
}
