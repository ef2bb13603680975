#if canImport(Glibc)
import Glibc
#endif
import SQLiteDB
import _TestSupport
import Testing

/// The built `tasks` binary, beside the test bundle.
let tasksBinary = executableBesideTests("tasks")

/// Runs `script` in a shell whose PATH finds the built `tasks` first, on `folder/tasks.db`.
func tasksShell(_ script: String, in folder: TemporaryFolder) throws -> ShellResult {
    let binary = try #require(tasksBinary)
    let binFolder = String(binary.dropLast("/tasks".count))
    return runShell("export PATH='\(binFolder)':\"$PATH\" TASKS_DB='\(folder.file("tasks.db"))' NO_COLOR=1\n\(script)", in: folder)
}

func count(_ path: String) throws -> Int64 {
    let db = try Connection(path: path, options: [.readOnly])
    return try db.scalar("SELECT count(*) FROM task") ?? -1
}

@Suite("tasks: the built binary in shell pipelines", .enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
struct BinaryTests {
    @Test func idsPipeIntoToggle() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            printf 'Buy milk\nBuy bread\nCall mom\n' | tasks add - > /dev/null
            tasks list --format ids --search buy | tasks toggle -
            tasks list --all --format tsv
            """, in: folder)
        #expect(result == ShellResult(status: 0, stdout: """
            1\ttrue\tInbox\tBuy milk\t\t\t
            2\ttrue\tInbox\tBuy bread\t\t\t
            3\tfalse\tInbox\tCall mom\t\t\t

            """, stderr: ""))
    }

    /// Every command through the binary, and the formats without times or uuids against the
    /// same golden files the in-process tests use.
    @Test func everyCommandAndFormatThroughTheBinary() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            tasks add "Buy milk" --due 2026-12-01 -p H -t errand -t +shop
            tasks add "Call mom" --notes "about Sunday
            and the trip"
            tasks add "Write report" -l Work --due 2026-11-20 -p m
            tasks add "Review PR" -l Work -t code
            tasks done 4
            for format in tsv csv ids; do tasks list --all --format $format > list-all.$format; done
            tasks toggle 1 && tasks reopen 1 && tasks toggle 2 && tasks toggle 2
            tasks edit 3 --title "Write the report" --tag draft
            tasks show 3 --format tsv | grep -E '^(id|title|list|done|due|priority|tags)	' | cut -f2 | paste -sd '\t'
            tasks move 2 --top && tasks mv 2 --list Home && tasks lists
            tasks add gone > /dev/null && tasks delete 5 && tasks rm 999; echo "rm: $?"
            tasks help > /dev/null && tasks help move > /dev/null && tasks ls -h > /dev/null && echo help-ok
            tasks --version
            """, in: folder)
        #expect(result.stderr == "tasks: no task with id 999; nothing was changed\ntasks: 'tasks list --all' shows the ids\n")
        #expect(result.stdout == """
            1
            2
            3
            4
            3\tWrite the report\tWork\tfalse\t2026-11-20\tM\tdraft
            Home\t1\t0\t1\t0
            Inbox\t1\t0\t1\t0
            Work\t1\t1\t1\t1
            rm: 1
            help-ok
            tasks 0.1.0

            """)
        for format in ["tsv", "csv", "ids"] {
            assertGolden(String(decoding: readBytes(folder.file("list-all.\(format)")), as: UTF8.self), named: "list-all.\(format)")
        }
    }

    @Test func titlesPipeIntoAddAndIdsComeBack() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            printf 'a\\nb\\n' | tasks add -
            id=$(tasks add "Buy milk")
            tasks show "$id" | grep -E '^(id|done|list|title|due|priority|tags)	' | cut -f2 | paste -sd '\t'
            tasks list | cut -f1,4
            """, in: folder)
        #expect(result == ShellResult(status: 0, stdout: "1\n2\n3\tBuy milk\tInbox\tfalse\t\t\t\n1\ta\n2\tb\n3\tBuy milk\n", stderr: ""))
    }

    @Test func aClosedPipeEndsQuietlyWithStatusZero() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            seq 1 20000 | sed 's/^/task /' | tasks add - > /dev/null
            { tasks list; echo "list: $?" >&2; } | head -1
            { tasks list --format json; echo "json: $?" >&2; } | head -c 10 > /dev/null
            """, in: folder)
        #expect(result == ShellResult(status: 0, stdout: "1\tfalse\tInbox\ttask 1\t\t\t\n", stderr: "list: 0\njson: 0\n"))
    }

    @Test func exitStatusesAndMessagesReachTheShell() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            tasks togle 1; echo "status $?"
            tasks add ''; echo "status $?"
            tasks toggle 7; echo "status $?"
            printf '\\377\\n' | tasks add -; echo "status $?"
            tasks --version
            """, in: folder)
        #expect(result.stdout == "status 2\nstatus 2\nstatus 1\nstatus 2\ntasks 0.1.0\n")
        #expect(result.stderr == """
            tasks: unknown command 'togle'; did you mean 'toggle'?
            tasks: the title is empty; give the task a title
            tasks: no task with id 7; nothing was changed
            tasks: 'tasks list --all' shows the ids
            tasks: line 1: the line is not valid UTF-8; nothing was added

            """)
        #expect(!PrivateFileProbe.exists(folder.file("tasks.db")), "no command that failed created the file")
    }

    /// `add -` streams: a million lines are inserted as they are read, in one transaction, so a
    /// bad last line must roll all of them back — and, through the WAL, leave the file's bytes
    /// as they were (no header rewritten by a journal switch).
    @Test func aBadLastLineOfAMillionAddsNothingAndLeavesTheFileByteIdentical() throws {
        let folder = TemporaryFolder()
        let setUp = try tasksShell("""
            tasks add kept > /dev/null
            seq 1 999999 | sed 's/^/Million task /' > lines.txt
            echo '' >> lines.txt
            """, in: folder)
        #expect(setUp.status == 0)
        let before = readBytes(folder.file("tasks.db"))
        let result = try tasksShell("""
            tasks add - < lines.txt; echo "status $?"
            tasks list --format tsv
            """, in: folder)
        #expect(result.stdout == "status 2\n1\tfalse\tInbox\tkept\t\t\t\n")
        #expect(result.stderr == "tasks: line 1000000: the title is empty; give the task a title; nothing was added\n")
        #expect(readBytes(folder.file("tasks.db")) == before, "the file is byte-identical")
        #expect(!PrivateFileProbe.exists(folder.file("tasks.db-wal")), "and no WAL was left")
    }

    /// Two processes completing the same occurrence at once: one next occurrence, never two
    /// (the second `done` finds it done; a next made twice would have the same derived uuid).
    @Test func twoProcessesDoneTheSameOccurrenceMakeOneNext() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            tasks add "Standup" --every weekday > /dev/null
            for i in 1 2 3 4; do tasks done 1 > /dev/null & done; wait
            tasks list --all --format tsv | wc -l
            tasks list --format tsv | cut -f4
            """, in: folder)
        #expect(result.stdout == "2\nStandup\n", "\(result)")
    }

    /// One static executable: no dynamic loader, no shared library (start-up is most of what a
    /// one-task command costs), and no NSS, dlopen or locale use at run time — checked by
    /// tracing what files a run of several commands opens.
    @Test func theBinaryIsStaticAndOpensNoLibrary() throws {
        let folder = TemporaryFolder()
        let binary = try #require(tasksBinary)
        let file = runShell("file -L '\(binary)'; ldd '\(binary)' 2>&1", in: folder)
        #expect(file.stdout.contains("statically linked") && file.stdout.contains("not a dynamic executable"), "\(file)")
        let traced = try tasksShell("""
            t() { strace -f -e trace=openat,open -o "trace-$#-$1.txt" tasks "$@" > /dev/null; }
            t add 'Buy milk' --due tomorrow && t list && t done 1 && t undo && t export && t list --format table --color always
            cat trace-*.txt | grep -E '[.]so|nsswitch|passwd|locale|gconv' || echo none
            """, in: folder)
        #expect(traced.stdout == "none\n", "a static tasks opened a library or NSS/locale file:\n\(traced)")
    }

    @Test func manyProcessesAddingAtOnceLoseNothing() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            for p in 1 2 3 4; do ( for i in $(seq 1 25); do tasks add "p$p t$i" > /dev/null || echo "failed p$p t$i"; done ) & done
            wait
            tasks list --format ids | wc -l
            """, in: folder)
        #expect(result == ShellResult(status: 0, stdout: "100\n", stderr: ""))
    }

    /// SIGINT (Ctrl-C) while `tasks add -` imports: the batch lands whole or not at all.
    @Test(arguments: [0, 50_000, 150_000, 400_000])
    func anInterruptedImportLeavesAllOrNothing(delayMicroseconds: Int) throws {
        let folder = TemporaryFolder()
        let binary = try #require(tasksBinary)
        let lines = (1...200_000).map { "imported task \($0)" }.joined(separator: "\n") + "\n"
        writeBytes(folder.file("titles.txt"), Array(lines.utf8))
        let db = folder.file("tasks.db")
        #expect(try tasksShell("tasks add before > /dev/null", in: folder).status == 0)
        let script = "exec '\(binary)' --db '\(db)' add - < '\(folder.file("titles.txt"))' > /dev/null"
        let pid = try #require(spawn(["/bin/sh", "-c", script]))
        usleep(UInt32(delayMicroseconds))
        kill(pid, SIGINT)
        let status = waitForExit(pid)
        let total = try count(db)
        #expect(total == 1 || total == 200_001, "status \(status): \(total) tasks")
        let check = try Connection(path: db, options: [.readOnly])
        #expect(try check.scalarString("PRAGMA integrity_check") == "ok")
        #expect(try tasksShell("tasks add after", in: folder).stdout == (total == 1 ? "2\n" : "200002\n"))
    }

    /// The table in a real terminal (tmux) at three widths, as the screen shows it.
    @Test(.enabled(if: access("/usr/bin/tmux", X_OK) == 0, "needs tmux"), arguments: [40, 80, 200])
    func theTableInARealTerminal(width: Int) throws {
        let folder = TemporaryFolder()
        _ = try tasksShell("""
            tasks add "우유 사기 (buy milk at the corner shop)" --due 2026-12-01 -t 장보기 > /dev/null
            tasks add "🎉 Plan the party 🎂 with cake, balloons and music for everyone" -p H > /dev/null
            tasks add "Write the quarterly report for the board meeting" -l Work --due 2026-11-20 -p M -t report > /dev/null
            tasks add "日本語のタスク" -l Work -t 日本 > /dev/null
            tasks add "escape \u{1B}[31m sequence" -l Work > /dev/null
            """, in: folder)
        let binary = try #require(tasksBinary)
        let server = "tasks-test-\(getpid())-\(width)"
        let command = "env NO_COLOR=1 LANG=C.UTF-8 '\(binary)' --db '\(folder.file("tasks.db"))'; sleep 30"
        let start = runShell("tmux -L \(server) -f /dev/null new-session -d -x \(width) -y 20 \"\(command)\"", in: folder)
        try #require(start.status == 0, "\(start)")
        defer { _ = runShell("tmux -L \(server) kill-server", in: folder) }
        var screen = ""
        for _ in 0..<100 {
            usleep(50_000)
            screen = runShell("tmux -L \(server) capture-pane -p", in: folder).stdout
            if screen.contains("日本語") { break }
        }
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        assertGolden(lines.joined(separator: "\n") + "\n", named: "tmux-\(width).txt")
    }
}
