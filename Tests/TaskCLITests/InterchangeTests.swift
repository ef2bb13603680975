#if canImport(Glibc)
import Glibc
#endif
@testable import TaskCLI
import TaskModel
import _TestSupport
import Testing

@Suite("tasks export and import: every format both ways, by uuid, all or nothing")
struct InterchangeTests {
    /// A file with what an export must carry: notes with newlines and quotes, Unicode, a done
    /// task, a moved task (positions), a task in a list with a space, an id gap.
    static func varied() -> CLI {
        let cli = CommandTests.seeded()
        cli.run("add", "Write report ✍️ 보고서 \"final\"", "-l", "Side project", "--notes", "line 1\n\n\tline 3 \\ end", "-t", "ünï")
        cli.run("add", "Gone")
        cli.run("delete", "6")
        cli.run("move", "2", "--top")
        return cli
    }

    @Test func ownJSONRoundTripsLosslessly() {
        let source = InterchangeTests.varied()
        let exported = source.run("export")
        #expect(exported.status == 0 && exported.stderr == "")
        #expect(exported.stdout.hasPrefix("[\n{\"id\":1,\"uuid\":\"00000000-0000-7000-8000-000000000001\",\"title\":\"Buy milk\""))
        let target = CLI()
        #expect(target.run(["import", "-"], input: exported.stdout)
                == CLI.Result(status: 0, stdout: "", stderr: "Imported 5 tasks from stdin: 5 new, 0 updated, 0 unchanged.\n"))
        #expect(target.run("export").stdout == exported.stdout, "ids, uuids, times, positions, notes and Unicode survive")
        // Ids are never reused within one file: the target never used 6 (the source deleted it).
        target.uuidCount = 100
        #expect(target.run("add", "Next").stdout == "6\n")
    }

    @Test func importingTwiceChangesNothingTheSecondTime() {
        let source = InterchangeTests.varied()
        let file = source.folder.file("tasks.json")
        writeBytes(file, Array(source.run("export").stdout.utf8))
        let target = CLI()
        target.run("import", file)
        let before = target.snapshot()
        let again = target.run("import", file)
        #expect(again == CLI.Result(status: 0, stdout: "", stderr: "Imported 5 tasks from '\(file)': 0 new, 0 updated, 5 unchanged.\n"))
        #expect(target.snapshot() == before, "not a byte written")
        // Into the source itself, too.
        let sourceBefore = source.snapshot()
        #expect(source.run("import", file).stderr == "Imported 5 tasks from '\(file)': 0 new, 0 updated, 5 unchanged.\n")
        #expect(source.snapshot() == sourceBefore)
    }

    @Test func aKnownUUIDUpdatesItsTaskInsteadOfAddingOne() {
        let cli = InterchangeTests.varied()
        let exported = cli.run("export").stdout
        let edited = exported.replacing("\"title\":\"Buy milk\"", with: "\"title\":\"Buy oat milk\"")
            .replacing("{\"id\":2,", with: "{\"id\":99,")
        #expect(cli.run(["import", "-"], input: edited).stderr == "Imported 5 tasks from stdin: 0 new, 1 updated, 4 unchanged.\n")
        #expect(cli.run("list", "--all", "--format", "ids").stdout.split(separator: "\n").sorted() == ["1", "2", "3", "4", "5"])
        #expect(cli.run("show", "1", "--format", "json").stdout.contains("\"title\":\"Buy oat milk\""))
    }

    @Test func newTasksNeverTakeAnIdTheFileHasUsed() {
        let cli = CLI()
        _ = cli.run(["add", "-"], input: "a\nb\nc\n")
        cli.run("delete", "3")
        let result = cli.run(["import", "-"], input: #"[{"id":2,"title":"x"},{"id":3,"title":"y"},{"id":10,"title":"z"},{"title":"w"}]"#)
        #expect(result.stderr == "Imported 4 tasks from stdin: 4 new, 0 updated, 0 unchanged.\n")
        #expect(cli.run("list", "--format", "tsv").stdout == """
            1\tfalse\tInbox\ta\t\t\t
            2\tfalse\tInbox\tb\t\t\t
            4\tfalse\tInbox\tx\t\t\t
            5\tfalse\tInbox\ty\t\t\t
            10\tfalse\tInbox\tz\t\t\t
            11\tfalse\tInbox\tw\t\t\t

            """)
    }

    @Test func csvExportHasEveryField() {
        let cli = InterchangeTests.varied()
        let csv = cli.run("export", "--format", "csv").stdout
        #expect(csv.hasPrefix("id,uuid,title,notes,list,done,completed,due,priority,tags,position,created,modified,repeat,series,anchor,wait,scheduled,until,extras,start,spent,depends,annotations,reminders,parent\r\n"))
        #expect(csv.contains("\"Write report ✍️ 보고서 \"\"final\"\"\",\"line 1\n\n\tline 3 \\ end\",Side project,false,"))
    }

    @Test func todoTxtFromTodoTxtCliAndBackUnchanged() {
        let cli = CLI()
        let fixture = fixturesFolder() + "/TaskInterchange/todotxt-2.11-todo.txt"
        #expect(cli.run("import", "--format", "todotxt", fixture).stderr
                == "Imported 6 tasks from '\(fixture)': 6 new, 0 updated, 0 unchanged.\n")
        #expect(cli.run("export", "--format", "todotxt").stdout == String(decoding: readBytes(fixture), as: UTF8.self))
        // todo.txt has no ids: a line is known by its title, so importing it again changes nothing…
        let before = cli.snapshot()
        #expect(cli.run("import", "-f", "todotxt", fixture).stderr.contains("0 new, 0 updated, 6 unchanged"))
        #expect(cli.snapshot() == before)
        // …and a line marked done since updates its task.
        let done = String(decoding: readBytes(fixture), as: UTF8.self).replacing("(B) 2026-11-29 Call mom", with: "x 2026-11-30 2026-11-29 Call mom")
        #expect(cli.run(["import", "-f", "todotxt", "-"], input: done).stderr.contains("0 new, 1 updated, 5 unchanged"))
        #expect(cli.run("list", "--done", "--format", "tsv").stdout.contains("Call mom"))
    }

    @Test func todoTxtRoundTripOfOurTasks() {
        let source = InterchangeTests.varied()
        let exported = source.run("export", "--format", "todotxt")
        #expect(exported.stderr == "tasks: warning: todotxt has no place for: notes: 2 tasks, spaces in list names (written as _): 1 task\n")
        let target = CLI()
        #expect(target.run(["import", "-f", "todotxt", "-"], input: exported.stdout).status == 0)
        #expect(target.run("export", "--format", "todotxt").stdout == exported.stdout)
    }

    @Test func todoTxtRecurrenceAndThresholdBothWays() {
        let cli = CLI()
        let file = cli.folder.file("todo.txt")
        writeBytes(file, Array("2026-11-01 Pay rent due:2026-12-31 rec:+1m t:2026-12-25\n2026-11-01 Water plants rec:3d\n(A) 2026-11-01 Plain task\n".utf8))
        #expect(cli.run("import", "--format", "todotxt", file).status == 0)
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("repeat\tevery 1m\nwait\t2026-12-25\n"))
        #expect(cli.run("show", "2", "--format", "tsv").stdout.contains("repeat\tafter 3d\n"))
        let out = cli.run("export", "--format", "todotxt").stdout
        #expect(out.contains("Pay rent due:2026-12-31 rec:+1m t:2026-12-25\n") && out.contains("Water plants rec:3d\n"), "\(out)")
        writeBytes(file, Array(out.utf8))
        #expect(cli.run("import", "--format", "todotxt", file).stderr.hasSuffix("0 new, 0 updated, 3 unchanged.\n"), "the same lines again change nothing")
        writeBytes(file, Array("x rec:fortnightly\n".utf8))
        #expect(cli.run("import", "--format", "todotxt", file).stderr.contains("'rec:fortnightly' is not a recurrence"))
    }

    @Test func taskwarriorExportFromTheRealTaskwarrior() {
        let cli = CLI()
        let fixture = fixturesFolder() + "/TaskInterchange/taskwarrior-2.6.2-export.json"
        let result = cli.run("import", "--format", "taskwarrior", fixture)
        #expect(result == CLI.Result(status: 0, stdout: "", stderr: """
            tasks: note: kept as written, for the way back (no field here yet): recurring templates: 1 task, estimate: 1 task
            Imported 9 tasks from '\(fixture)': 8 new, 0 updated, 0 unchanged, 1 deleted (tasks list status:deleted).

            """))
        #expect(cli.run("list", "--all", "--format", "tsv").stdout == """
            1\tfalse\tHome\tBuy milk\t2026-12-03\tH\terrand
            7\tfalse\tHome\tPay rent\t2026-12-01\t\t
            3\tfalse\tInbox\tCall "mom" back, 50% — tomorrow\t\tL\t
            4\tfalse\tInbox\tRenew passport\t2027-01-15\t\t
            5\tfalse\tInbox\tBlocked task\t\t\t
            6\tfalse\tInbox\tHas an orphan attribute\t\t\tx Ünïcode
            9\ttrue\tWork\tDone thing\t\t\twriting
            2\tfalse\tWork.Q4\tWrite report ✍️ 보고서\t\tM\turgent writing

            """)
        #expect(cli.run("show", "2", "--format", "json").stdout.contains(
            #""notes":"","#) && cli.run("show", "2", "--format", "json").stdout.contains(
            #""annotations":[{"entry":"2026-11-30T02:18:55.000Z","text":"First draft in shared folder"},{"entry":"2026-11-30T02:18:56.000Z","text":"Ask Kim about figures"}]"#),
            "Taskwarrior's annotations, one to one, apart from the notes")
        // Taskwarrior's deleted task is kept as it keeps it: listed by status:deleted, deleted when it ended.
        #expect(cli.run("list", "status:deleted", "--columns", "status,title,modified", "--format", "tsv").stdout
                == "deleted\tOld idea\t2026-11-30T02:18:56.000Z\n")
        // Again: the uuids are known, nothing changes (the deleted one is deleted here too).
        #expect(cli.run("import", "--format", "taskwarrior", fixture).stderr.hasSuffix("0 new, 0 updated, 9 unchanged.\n"))
    }

    @Test func largeImportsShowProgressOnATerminalOnly() {
        let cli = CLI()
        var json = "["
        for index in 1...1500 { json += (index > 1 ? "," : "") + "{\"title\":\"task \(index), with a title as long as many are\"}" }
        json += "]"
        // Read while it is written: how many is known at the end.
        let onTerminal = cli.run(["import", "-"], stdin: Array(json.utf8), terminal: true)
        #expect(onTerminal.stderr == "Importing tasks…\r\u{1B}[KImported 1500 tasks from stdin: 1500 new, 0 updated, 0 unchanged.\n")
        let small = CLI().run(["import", "-"], stdin: Array("[{\"title\":\"one\"}]".utf8), terminal: true)
        #expect(small.stderr == "Imported 1 task from stdin: 1 new, 0 updated, 0 unchanged.\n", "no progress line for a few")
        let inPipe = CLI().run(["import", "-"], input: json)
        #expect(inPipe.stderr == "Imported 1500 tasks from stdin: 1500 new, 0 updated, 0 unchanged.\n")
        #expect(CLI().run(["-q", "import", "-"], input: json).stderr == "")
    }

    @Test func helpShowsTheCommandsOwnFormatOptionOnly() {
        for command in ["import", "export"] {
            let help = CLI().run("help", command).stdout
            #expect(help.split(separator: "\n").filter { $0.hasPrefix("  -f, --format") }.count == 1, "\(help)")
            #expect(!help.contains("table, tsv, csv, json or ids"))
        }
        #expect(CLI().run("help", "list").stdout.contains("table, tsv, csv, json or ids"))
    }

    @Test func anEmptyFileImportsNothingAndCreatesNoDatabase() {
        let cli = CLI()
        #expect(cli.run(["import", "-"], input: "[]") == CLI.Result(status: 0, stdout: "", stderr: "Imported 0 tasks from stdin: 0 new, 0 updated, 0 unchanged.\n"))
        #expect(cli.run(["import", "-f", "todotxt", "-"], input: "\n  \n").status == 0)
        #expect(access(cli.db, F_OK) != 0, "no file was made")
    }

    @Test func warningsShowWhatTheFileHeldWithControlsEscaped() {
        let cli = CLI()
        let result = cli.run(["import", "-f", "taskwarrior", "-"], input: #"[{"description":"a","status":"pending","evil\u001b[2J":1}]"#)
        #expect(result.stderr == "tasks: note: kept as written, for the way back (no field here yet): evil\\e[2J: 1 task\nImported 1 task from stdin: 1 new, 0 updated, 0 unchanged.\n")
    }

    @Test func importWithoutAFileOnATerminalAsksForOne() {
        let cli = CLI()
        let result = cli.run(["import"], terminal: true)
        #expect(result.status == 2)
        #expect(result.stderr == "tasks: 'import' needs a FILE, or tasks on stdin: tasks import FILE, or ... | tasks import -\n")
    }
}

/// Taskwarrior 2.6 keeps an emoji it was given as an escaped surrogate pair (`\ud83c\udf89`,
/// as Python's json.dumps writes it) as CESU-8, and its export carries those bytes: the import
/// reads each pair as its character instead of refusing the file.
@Test(.enabled(if: tasksBinary != nil && access("/usr/bin/task", X_OK) == 0, "needs the tasks binary and Taskwarrior"))
func taskwarriorsCESU8ExportIsRead() throws {
    let folder = TemporaryFolder()
    let result = try tasksShell("""
        export HOME="$PWD" TASKRC="$PWD/taskrc" TASKS_DB="$PWD/tasks.db"; mkdir tw
        printf 'data.location=%s/tw\\nconfirmation=off\\nverbose=nothing\\n' "$PWD" > taskrc
        printf '[{"description":"Party \\\\ud83c\\\\udf89 \\\\ud30c\\\\ud2f0","status":"pending","entry":"20261129T100000Z"}]\\n' > escaped.json
        task import escaped.json > /dev/null 2>&1 && task export > tw.json || exit 9
        grep -c "$(printf '\\355\\240\\274')" tw.json
        tasks import --format taskwarrior tw.json > /dev/null && tasks list --format tsv | cut -f4
        """, in: folder)
    #expect(result.status == 0 && result.stdout == "1\nParty 🎉 파티\n", "Taskwarrior's export holds CESU-8, read as the emoji: \(result)")
}

@Suite("docs/tasks.1: the manual page is the command tree's")
struct ManPageTests {
    /// `docs/tasks.1` is generated; this fails when the tree changed and the page was not
    /// made again (`RECORD_GOLDEN=1 swift test --filter ManPageTests` makes it).
    @Test func theCommittedPageIsTheGeneratedOne() {
        let page = TasksSpec.manPage.render()
        let path = fixturesFolder() + "/../docs/tasks.1"
        if getenv("RECORD_GOLDEN") != nil { writeBytes(path, Array(page.utf8)) }
        #expect(String(decoding: readBytes(path), as: UTF8.self) == page, "docs/tasks.1 is stale: run RECORD_GOLDEN=1 swift test --filter ManPageTests")
        for command in TasksSpec.root.subcommands {
            #expect(page.contains(".SS tasks \(command.name)"), "\(command.name) has its section")
        }
    }

    /// `man ./docs/tasks.1` renders it, and groff finds nothing to warn about.
    @Test(.enabled(if: access("/usr/bin/man", X_OK) == 0 && access("/usr/bin/groff", X_OK) == 0, "needs man-db and groff"))
    func manRendersItWithoutWarnings() {
        let folder = TemporaryFolder()
        let docs = fixturesFolder() + "/../docs/tasks.1"
        let rendered = runShell("MANWIDTH=80 MAN_KEEP_FORMATTING=0 man -l '\(docs)' | col -b", in: folder)
        #expect(rendered.status == 0, "\(rendered)")
        #expect(rendered.stdout.contains("tasks - A task manager for the terminal."))
        #expect(rendered.stdout.contains("tasks import [FILE]"))
        #expect(rendered.stdout.contains("--format FORMAT"))
        let warnings = runShell("groff -man -Tutf8 -ww -z '\(docs)'", in: folder)
        #expect(warnings.status == 0 && warnings.stderr == "", "\(warnings)")
    }
}

@Suite("tasks export on a terminal")
struct ExportOnATerminalTests {
    /// Data in a file or pipe is exact; on a terminal no field reaches the screen as a control sequence.
    @Test(arguments: ["json", "csv", "taskwarrior", "todotxt"])
    func controlsAreShownEscapedOnlyOnATerminal(format: String) {
        let cli = CLI()
        cli.run("add", "red \u{1B}[31m alert", "-l", "L\u{9B}2J", "--notes", "one\u{07}\ntwo")
        let terminal = cli.run(["export", "--format", format], terminal: true).stdout
        #expect(!terminal.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{07}" }, "\(terminal)")
        let pipe = cli.run("export", "--format", format).stdout
        if format == "json" || format == "taskwarrior" {
            // JSON is data: it escapes every control itself, the same bytes on a terminal (issue 24).
            #expect(terminal == pipe)
            #expect(terminal.contains("\\u001b[31m") && terminal.contains("\\u009b2J") && terminal.contains("\\u0007"), "\(terminal)")
        } else {
            #expect(terminal.contains("\\e[31m"))
            #expect(pipe.contains("\u{1B}[31m"))
        }
    }
}
