import TaskModel
import _TestSupport
import Testing

/// Issue 26's start/stop, annotations and dependencies, as a user meets them: each a field of
/// the table (so `show`, JSON, the history, undo and sync come with it) and a command or flag.
@Suite("tasks: start and stop, annotate, blocked by")
struct ActivityAnnotationDependencyTests {
    private func minutes(_ cli: CLI, _ count: Int64) {
        cli.now = Timestamp(millisecondsSince1970: CLI.now.millisecondsSince1970 + count * 60_000)
    }

    private func json(_ cli: CLI, _ id: String) -> String { cli.run("show", id, "--format", "json").stdout }

    @Test func startStopAndDoneKeepTheTimeSpent() {
        let cli = CLI()
        _ = cli.run(["add", "-"], input: "Write report\nReview PR\nDeploy\n")
        #expect(cli.run(["start", "1", "2"], terminal: true).stdout == "Started 1: Write report\nStarted 2: Review PR\n")
        #expect(cli.run(["start", "1"], terminal: true).stdout == "Nothing to change.\n", "started already")
        minutes(cli, 65)
        #expect(cli.run("active", "--format", "tsv", "--header").stdout == """
            id\ttitle\tstart\trunning\tspent
            1\tWrite report\t2026-11-30T10:00:00.000Z\t3900\t3900
            2\tReview PR\t2026-11-30T10:00:00.000Z\t3900\t3900

            """)
        #expect(cli.run(["active"], terminal: true).stdout == """
              1  Write report  since 2026-11-30 05:00, 1h 05m
              2  Review PR     since 2026-11-30 05:00, 1h 05m

            """)
        #expect(cli.run("active", "--format", "csv").stdout.hasPrefix("id,title,start,running,spent\r\n1,Write report,2026-11-30T10:00:00.000Z,3900,3900\r\n"))
        cli.run("stop", "1")
        #expect(json(cli, "1").contains(#""start":null,"spent":3900"#))
        cli.run("undo")
        #expect(json(cli, "1").contains(#""start":"2026-11-30T10:00:00.000Z","spent":0"#), "undo of stop: running again, nothing spent yet")
        cli.run("redo")
        #expect(json(cli, "1").contains(#""start":null,"spent":3900"#), "redo of stop")
        minutes(cli, 70)
        cli.run("start", "1")
        minutes(cli, 80)
        #expect(cli.run(["active"], terminal: true).stdout
                == "  2  Review PR     since 2026-11-30 05:00, 1h 20m\n  1  Write report  since 2026-11-30 06:10, 10m (1h 15m in all)\n",
                "the longest running first")
        cli.run("done", "1")
        #expect(json(cli, "1").contains(#""start":null,"spent":4500"#), "done stops it, and the time counts")
        #expect(cli.run("show", "1", "--format", "table").stdout.contains("spent        1h 15m\n"))
        let done = cli.run("start", "1")
        #expect(done.status == 1 && done.stderr.hasPrefix("tasks: task 1 \"Write report\" is done, so it cannot be started; nothing was changed\n"))
        cli.run("undo")
        #expect(json(cli, "1").contains(#""done":false"#) && json(cli, "1").contains(#""start":"2026-11-30T11:10:00.000Z","spent":3900"#),
                "undo of done: pending and running again")
        cli.run("undo")
        #expect(json(cli, "1").contains(#""start":null,"spent":3900"#), "undo of start")
        cli.run("redo")
        #expect(json(cli, "1").contains(#""start":"2026-11-30T11:10:00.000Z""#), "redo of start")
    }

    @Test func oneActiveAtATimeIsASetting() {
        let cli = CLI()
        _ = cli.run(["add", "-"], input: "A\nB\n")
        cli.run("start", "1")
        minutes(cli, 5)
        let env = ["TASKS_DB": cli.db, "HOME": cli.folder.path, "NO_COLOR": "1", "TASKS_ONE_ACTIVE": "1"]
        #expect(cli.run(["start", "2"], environment: env).status == 0)
        #expect(cli.run("active", "--format", "ids").stdout == "2\n", "starting B stopped A")
        #expect(json(cli, "1").contains(#""start":null,"spent":300"#))
        cli.run("undo")
        #expect(cli.run("active", "--format", "ids").stdout == "1\n", "one command, one undo: A runs again, B never started")
    }

    @Test func annotationsAreStampedNumberedAndRemoved() {
        let cli = CLI()
        cli.run("add", "Call Kim", "--notes", "the long story")
        #expect(cli.run(["annotate", "1", "left", "a", "message"], terminal: true).stdout == "Annotated 1: Call Kim\n")
        minutes(cli, 90)
        cli.run("annotate", "1", "called back: figures on Friday")
        #expect(json(cli, "1").contains(#""notes":"the long story""#), "notes stay notes")
        #expect(json(cli, "1").contains(#""annotations":[{"entry":"2026-11-30T10:00:00.000Z","text":"left a message"},{"entry":"2026-11-30T11:30:00.000Z","text":"called back: figures on Friday"}]"#))
        #expect(cli.run("show", "1", "--format", "table").stdout.contains("""
            annotations  1. 2026-11-30 05:00  left a message
                         2. 2026-11-30 06:30  called back: figures on Friday

            """))
        let missing = cli.run("denotate", "1", "3")
        #expect(missing.status == 1 && missing.stderr.hasPrefix("tasks: task 1 has no annotation '3'; nothing was changed\n"))
        #expect(cli.run("denotate", "1", "a").status == 1, "'a' is in both: which one is not guessed")
        #expect(cli.run(["denotate", "1", "Friday"], terminal: true).stdout == "Denotated 1: Call Kim\n", "a part only one has")
        #expect(json(cli, "1").contains(#""annotations":[{"entry":"2026-11-30T10:00:00.000Z","text":"left a message"}]"#))
        cli.run("undo")
        #expect(json(cli, "1").contains("called back"))
        #expect(cli.run("denotate", "1", "1").status == 0)
        #expect(cli.run("annotate", "1").status == 2)
        #expect(cli.run("history", "--format", "tsv").stdout.contains("(annotations)"))
    }

    @Test func dependenciesBlockRefuseCyclesAndFollowDeletes() {
        let cli = CLI()
        _ = cli.run(["add", "-"], input: "Design\nBuild\nShip\n")
        #expect(cli.run("edit", "2", "--blocked-by", "1").status == 0)
        #expect(cli.run("add", "Announce", "--blocked-by", "3").status == 0)
        #expect(cli.run("edit", "3", "--blocked-by", "2").status == 0)
        let uuid1 = "00000000-0000-7000-8000-000000000001", uuid2 = "00000000-0000-7000-8000-000000000002"
        #expect(json(cli, "2").contains(#""depends":["\#(uuid1)"]"#))
        #expect(cli.run("show", "2", "--format", "table").stdout.contains("depends      1 — blocked\nblocks       3\n"))
        let before = cli.snapshot()
        let cycle = cli.run("edit", "1", "--blocked-by", "4")
        #expect(cycle.status == 2)
        #expect(cycle.stderr.hasPrefix("tasks: that would make tasks wait on each other in a circle (1 → 4 → 3 → 2 → 1, each waiting on the next); nothing was changed\n"))
        #expect(cli.run("edit", "1", "--blocks", "1").stderr.hasPrefix("tasks: task 1 cannot wait on itself"))
        #expect(cli.run("add", "Loop", "--blocked-by", "2", "--blocks", "1").status == 2)
        #expect(cli.run("edit", "1", "--blocked-by", "x").status == 2)
        #expect(cli.run("edit", "1", "--blocked-by", "99").status == 1)
        #expect(cli.snapshot() == before, "every refusal leaves the file as it was")
        cli.run("done", "1")
        #expect(cli.run("show", "2", "--format", "table").stdout.contains("depends      1 (done)\n"), "its blocker done, it is not blocked")
        cli.run("delete", "2")
        #expect(json(cli, "3").contains(#""depends":[]"#), "a deleted blocker is let go of")
        cli.run("undo")
        #expect(json(cli, "3").contains(#""depends":["\#(uuid2)"]"#), "and undo puts it back")
        #expect(cli.run("edit", "3", "--blocked-by", "-2").status == 0)
        #expect(json(cli, "3").contains(#""depends":[]"#))
        cli.run("undo")
        #expect(json(cli, "3").contains(#""depends":["\#(uuid2)"]"#), "undo of a dependency removed")
        cli.run("redo")
        #expect(json(cli, "3").contains(#""depends":[]"#), "redo of it")
        #expect(cli.run("edit", "3", "--blocks", "4,-4").status == 0)
    }

    /// `add -` with `--blocked-by` or `--blocks`: every new task gets them (a stream of lines
    /// once dropped them and said nothing).
    @Test func everyLineOfAddFromStdinWaitsOnWhatItIsTold() {
        let cli = CLI()
        _ = cli.run("add", "Design")
        #expect(cli.run(["add", "-", "--blocked-by", "1"], input: "Build\nShip\n").status == 0)
        let uuid1 = "00000000-0000-7000-8000-000000000001"
        #expect(json(cli, "2").contains(#""depends":["\#(uuid1)"]"#))
        #expect(json(cli, "3").contains(#""depends":["\#(uuid1)"]"#))
        #expect(cli.run(["add", "-", "--blocks", "1"], input: "Research\n").status == 0)
        #expect(cli.run("show", "1", "--format", "table").stdout.contains("depends      4 — blocked\n"))
        let before = cli.snapshot()
        #expect(cli.run(["add", "-", "--blocked-by", "99"], input: "Orphan\n").status == 1)
        #expect(cli.snapshot() == before, "a missing task leaves the file as it was")
    }

    @Test func taskwarriorsStartDependsAndAnnotationsAreFields() {
        let cli = CLI()
        let file = cli.folder.file("tw.json")
        writeBytes(file, Array("""
            [{"uuid":"11111111-1111-4111-8111-111111111111","description":"First","status":"pending","entry":"20261130T100000Z","modified":"20261130T100000Z","start":"20261130T110000Z","annotations":[{"entry":"20261130T120000Z","description":"later"},{"entry":"20261130T100500Z","description":"earlier"}]},
            {"uuid":"22222222-2222-4222-8222-222222222222","description":"Second","status":"pending","entry":"20261130T100000Z","modified":"20261130T100000Z","depends":"11111111-1111-4111-8111-111111111111"}]
            """.utf8))
        #expect(cli.run("import", "--format", "taskwarrior", file).status == 0)
        #expect(json(cli, "1").contains(#""start":"2026-11-30T11:00:00.000Z""#) && json(cli, "1").contains(#""notes":"""#))
        #expect(json(cli, "1").contains(#""annotations":[{"entry":"2026-11-30T10:05:00.000Z","text":"earlier"},{"entry":"2026-11-30T12:00:00.000Z","text":"later"}]"#))
        #expect(json(cli, "2").contains(#""depends":["11111111-1111-4111-8111-111111111111"]"#))
        let back = cli.run("export", "--format", "taskwarrior").stdout
        #expect(back.contains(#""start":"20261130T110000Z""#) && back.contains(#""depends":"11111111-1111-4111-8111-111111111111""#))
        #expect(back.contains(#""annotations":[{"entry":"20261130T100500Z","description":"earlier"},{"entry":"20261130T120000Z","description":"later"}]"#))
    }
}
