import _TestSupport
import Testing

/// `modify` takes the modifications `add` takes, after the tasks it chooses — in our order and
/// in Taskwarrior's (`tasks FILTER modify MODIFICATIONS`) — and the flags stay as spellings.
@Suite("tasks modify: Taskwarrior's modifications after the selection")
struct ModifyWordsTests {
    private func seeded() -> CLI {
        let cli = CLI()
        for title in ["Pay rent +bills", "Pay power +bills +urgent", "Call mum", "Fix sink +urgent", "Walk"] {
            cli.run(title.split(separator: " ").map(String.init).reduce(into: ["add"]) { $0.append($1) })
        }
        return cli
    }

    private func line(_ cli: CLI, _ id: Int) -> String {
        cli.run("list", "id:\(id)", "--all", "--columns", "title,list,priority,tags,due", "--format", "tsv").stdout
    }

    @Test func modificationsFollowTheIdsInEitherOrder() {
        let cli = seeded()
        #expect(cli.run("modify", "3", "prio:H", "+family", "due:2026-12-04", "project:Home").status == 0)
        #expect(line(cli, 3) == "Call mum\tHome\tH\tfamily\t2026-12-04\n")
        #expect(cli.run("4", "modify", "priority:L", "-urgent", "+home").status == 0, "Taskwarrior's order")
        #expect(line(cli, 4) == "Fix sink\tInbox\tL\thome\t\n")
        #expect(cli.run("3", "5", "modify", "+later").status == 0, "ids side by side are one set")
        #expect(line(cli, 3).contains("family later") && line(cli, 5).contains("\tlater\t"))
        #expect(cli.run("modify", "5", "Walk", "the", "dog").status == 0, "other words are the new title, for ids")
        #expect(line(cli, 5).hasPrefix("Walk the dog\t"))
        // One command, one undo.
        #expect(cli.run("undo").status == 0)
        #expect(line(cli, 5).hasPrefix("Walk\t"))
    }

    @Test func aFilterBeforeTheCommandChoosesAndTheWordsAfterModify() {
        let cli = seeded()
        #expect(cli.run("+bills", "modify", "priority:H").status == 0)
        #expect(cli.run("list", "priority:H", "--format", "ids").stdout == "1\n2\n")
        #expect(cli.run("+bills", "or", "+urgent", "modify", "due:2026-12-05", "-urgent").status == 0)
        #expect(cli.run("list", "due:2026-12-05", "--format", "ids").stdout == "1\n2\n4\n")
        #expect(cli.run("list", "+urgent", "--format", "ids").stdout == "")
        #expect(cli.run("modify", "+bills list:Inbox", "+paid").status == 0, "filter words quoted as one word")
        #expect(cli.run("list", "+paid", "--format", "ids").stdout == "1\n2\n")
        // The flags still spell the same: every word chooses.
        #expect(cli.run("modify", "+bills", "list:Inbox", "--priority", "L").status == 0)
        #expect(cli.run("list", "priority:L", "--format", "ids").stdout == "1\n2\n")
    }

    @Test func appendPrependAndDuplicateTakeModificationsToo() {
        let cli = seeded()
        #expect(cli.run("append", "3", "and", "dad", "+family", "due:2026-12-04").status == 0)
        #expect(line(cli, 3) == "Call mum and dad\tInbox\t\tfamily\t2026-12-04\n")
        #expect(cli.run("4", "prepend", "Please", "-urgent", "prio:L").status == 0, "Taskwarrior's order")
        #expect(line(cli, 4) == "Please Fix sink\tInbox\tL\t\t\n")
        #expect(cli.run("append", "5", "project:Outside").status == 0, "modifications alone")
        #expect(line(cli, 5) == "Walk\tOutside\t\t\t\n")
        #expect(cli.run("duplicate", "1", "due:2026-12-24", "+copy", "-bills").status == 0)
        #expect(line(cli, 6) == "Pay rent\tInbox\t\tcopy\t2026-12-24\n")
        #expect(cli.run("duplicate", "2", "Pay", "gas").status == 0, "other words are the copy's title")
        #expect(line(cli, 7).hasPrefix("Pay gas\tInbox\t\tbills urgent\t"))
        #expect(line(cli, 1) == "Pay rent\tInbox\t\tbills\t\n", "the original is as it was")
        // Taskwarrior's depends: in add and modify, -ID to take one off.
        #expect(cli.run("add", "Check", "depends:1,2").status == 0)
        #expect(cli.run("list", "+BLOCKED", "--format", "ids").stdout == "8\n")
        #expect(cli.run("8", "modify", "depends:-1,-2").status == 0)
        #expect(cli.run("list", "+BLOCKED", "--format", "ids").stdout == "")
        #expect(cli.run("modify", "8", "depends:x").status == 2)
    }

    @Test func whatCannotBeMeantIsRefusedAndChangesNothing() {
        let cli = seeded()
        let before = cli.run("export", "--format", "json").stdout
        let refused: [([String], String)] = [
            (["modify", "3"], "'modify' needs a modification"),
            (["+bills", "modify", "New", "title"], "would be the title of every task the filter chooses"),
            (["modify", "3", "prioirty:H"], "did you mean 'priority:H'"),
            (["modify", "3", "due:someday-ish"], "due"),
            (["add", "Buy", "milk", "store:5pm"], "'store:5pm': no field 'store'"),
            (["add", "Close", "it", "status:done"], "status is not set by add's words"),
            (["append", "3", "ref:123"], "no field 'ref'"),
        ]
        for (words, message) in refused {
            let result = cli.run(words)
            #expect(result.status == 2 && result.stderr.contains(message), "\(words): \(result)")
        }
        #expect(cli.run("export", "--format", "json").stdout == before)
        // What is text stays text: an address, a word ending in a colon.
        #expect(cli.run("add", "Read", "http://example.org/a:b", "Agenda:", "mail", "mailto:bob@example.org").status == 0)
        #expect(cli.run("list", "id:6", "--columns", "title", "--format", "tsv").stdout == "Read http://example.org/a:b Agenda: mail mailto:bob@example.org\n")
    }
}

/// Reports as Taskwarrior users run them: `limit:` in the words, `--columns` and `--sort` on
/// `next`, the score column the order used, `default.command` from `-c`.
@Suite("Reports: limit:, --columns and --sort on next, the score shown is the score used")
struct ReportWordsTests {
    @Test func nextTakesTheFiltersLimitColumnsAndOrderAndShowsTheScoreItRankedBy() {
        let cli = CLI()
        for day in 1...12 { cli.run("add", "task \(day)", "due:2026-11-\(String(format2(day + 15)))") }
        cli.run("add", "urgent", "priority:H")
        #expect(cli.run("next", "limit:3", "--format", "ids").stdout.split(separator: "\n").count == 3)
        let explained = cli.run("next", "--explain", "--format", "tsv").stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        // id, …, score, explain: the score is the second last field.
        let scores = Dictionary(explained.compactMap { row in row.count >= 2 ? (row[0], row[row.count - 2]) : nil }, uniquingKeysWith: { a, _ in a })
        let shown = cli.run("next", "limit:4", "--columns", "id,score,list", "--format", "tsv").stdout
        let rows = shown.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 4 && rows.allSatisfy { $0.count == 3 && $0[2] == "Inbox" && scores[$0[0]] == $0[1] }, "\(shown) \(scores)")
        let ready = cli.run("ready", "--limit", "2", "--columns", "id,score", "--format", "tsv").stdout
        #expect(ready.split(separator: "\n").allSatisfy { row in
            let cells = row.split(separator: "\t").map(String.init)
            return cells.count == 2 && scores[cells[0]] == cells[1]
        }, "a limited report's score column is the score next ranks by: \(ready)")
        #expect(cli.run("next", "--sort", "id-", "limit:2", "--format", "ids").stdout == "13\n12\n")
        #expect(cli.run("-c", "default.command=next limit:2", "--format", "ids").stdout == cli.run("next", "limit:2", "--format", "ids").stdout)
    }

    private func format2(_ day: Int) -> String { day < 10 ? "0\(day)" : "\(day)" }
}

/// A context whose filter is a plain AND of fields gives them to new tasks (Taskwarrior 2.6's
/// write context); one that cannot says so when defined, and a task added outside it is named.
@Suite("Contexts: new tasks get the fields the filter names")
struct ContextWriteTests {
    @Test func aPlainFilterGivesItsFieldsAndAnOtherOneSaysSo() {
        let cli = CLI()
        let defined = cli.run(["context", "define", "work", "project:Work +office priority:M"], terminal: true)
        #expect(defined.status == 0 && defined.stdout.contains("new tasks get project:Work +office priority:M"), "\(defined)")
        #expect(cli.run("context", "work").status == 0)
        let added = cli.run("add", "Write", "the", "memo")
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added)")
        #expect(cli.run("list", "--format", "ids").stdout == "1\n", "it stays in the context")
        #expect(cli.run("list", "id:1", "--columns", "list,tags,priority", "--format", "tsv").stdout == "Work\toffice\tM\n")
        #expect(cli.run("add", "Call", "list:Home").status == 0, "the command's own words win")
        let either = cli.run(["context", "define", "either", "+bills or +urgent"], terminal: true)
        #expect(either.stdout.contains("new tasks get no fields from it"), "\(either)")
        #expect(cli.run("context", "either").status == 0)
        let outside = cli.run("add", "Plain")
        #expect(outside.status == 0 && outside.stderr.contains("task 3 is outside context either (+bills or +urgent)"), "\(outside)")
        // Declared defaults still win over the filter's.
        #expect(cli.run("context", "define", "home", "list:Home", "--defaults", "list:Home.Garden +home").status == 0)
        #expect(cli.run("context", "home").status == 0)
        #expect(cli.run("add", "Weed").status == 0)
        #expect(cli.run("list", "id:4", "--context", "none", "--columns", "list,tags", "--format", "tsv").stdout == "Home.Garden\thome\n")
    }
}

extension ModifyWordsTests {
    /// Whether the task is done, and its annotations' texts.
    private func annotations(_ cli: CLI, _ id: Int) -> String {
        let record = cli.run("show", "\(id)", "--format", "json").stdout
        let texts = record.split(separator: "\"text\":\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        return (record.contains("\"done\":true") ? "done" : "pending") + "\t" + texts.joined(separator: "|") + "\n"
    }

    /// As Taskwarrior 2.6's `done`, `start` and `annotate` do (`task 1 done finally paid +money
    /// due:tomorrow` tags, dates and annotates the task it completes): the words after the tasks
    /// modify them, the others are an annotation — one change, one undo, in either order.
    @Test func doneStartAndAnnotateTakeModificationsAndTheRestIsAnAnnotation() {
        let cli = seeded()
        #expect(cli.run("1", "done", "paid", "by", "card", "+money", "-bills", "due:2026-12-04").status == 0)
        #expect(line(cli, 1) == "Pay rent\tInbox\t\tmoney\t2026-12-04\n")
        #expect(annotations(cli, 1) == "done\tpaid by card\n", "\(annotations(cli, 1))")
        #expect(cli.run("undo").status == 0, "one command, one undo")
        #expect(line(cli, 1) == "Pay rent\tInbox\t\tbills\t\n")
        #expect(annotations(cli, 1) == "pending\t\n")

        #expect(cli.run("start", "3", "ringing", "now", "priority:H").status == 0, "our order")
        #expect(cli.run("list", "+ACTIVE", "--format", "ids").stdout == "3\n")
        #expect(line(cli, 3) == "Call mum\tInbox\tH\t\t\n" && annotations(cli, 3).contains("ringing now"))
        #expect(cli.run("3", "stop", "+phone").status == 0)
        #expect(cli.run("list", "+ACTIVE", "--format", "ids").stdout == "" && line(cli, 3).contains("\tphone\t"))

        #expect(cli.run("3", "annotate", "left", "a", "message", "+family", "-phone").status == 0)
        #expect(line(cli, 3).contains("\tfamily\t") && annotations(cli, 3).contains("left a message"))
        let bare = cli.run("annotate", "3", "+x")
        #expect(bare.status == 2 && bare.stderr.contains("text of the annotation"), "modifications alone are no annotation: \(bare)")

        // A filter of several words before the command is one group; the words after modify.
        #expect(cli.run("+urgent", "-bills", "done", "fixed", "it", "+home").status == 0)
        #expect(line(cli, 4) == "Fix sink\tInbox\t\thome urgent\t\n" && annotations(cli, 4).contains("fixed it"))
        #expect(cli.run("list", "--done", "--format", "ids").stdout == "4\n", "task 2 has +bills: not chosen")
        // In our order a filter of several words is still all filter, as before.
        #expect(cli.run("done", "+bills", "+urgent").status == 0)
        #expect(cli.run("list", "--done", "--format", "ids").stdout == "2\n4\n" && annotations(cli, 2) == "done\t\n")
        let unknown = cli.run("5", "done", "mood:calm")
        #expect(unknown.status == 2 && cli.run("list", "id:5", "--format", "ids").stdout == "5\n", "refused, nothing done: \(unknown)")
    }
}
