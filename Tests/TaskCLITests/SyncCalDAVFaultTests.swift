#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import TaskModel
import Testing

/// `tasks sync` with CalDAV when things go wrong — a refused login, no server, a server that
/// is no CalDAV server, the server stopped, `kill -9` of the sync, another client editing the
/// same item in a loop, a calendar deleted there — and beside the terminal's own CalDAV stack
/// (vdirsyncer with todoman). Each leaves this file as it was or converged: nothing lost or
/// doubled, one line saying what happened.
@Suite("tasks sync through CalDAV: faults and other clients", .serialized,
       .enabled(if: tasksBinary != nil && executableBesideTests("tasks-caldav") != nil, "needs tasks and tasks-caldav beside the tests"))
struct SyncCalDAVFaultTests {
    func shell(_ script: String, _ server: CalDAVServer, _ folder: TemporaryFolder) throws -> ShellResult {
        try tasksShell("""
            export URL='\(server.urlWithPassword)' PORT=\(server.port)
            CLIENT="\(SyncCalDAVTests.client) \(server.url) \(server.user) \(server.password)"
            A='--db \(folder.file("a.db"))'; B='--db \(folder.file("b.db"))'
            # After the first sync the remote is remembered without its password: ~/.netrc has it.
            export HOME="$PWD"; printf 'machine 127.0.0.1 login \(server.user) password \(server.password)\n' > .netrc; chmod 600 .netrc
            snapshot() { sqlite3 "$1" .dump | grep -v -e sync_state -e sync_memory; }
            check() { snapshot a.db | cmp -s - before.sql && echo "$1: status $2, unchanged" || echo "$1: status $2, CHANGED"; }
            \(script)
            """, in: folder)
    }

    @Test func failuresChangeNothingHereAndTheNextSyncConverges() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        var result = try shell("""
            tasks $B add 'from B' -q && tasks $B sync --remote "$URL" || exit 9
            printf 'one\\ntwo\\n' | tasks $A add - -q
            snapshot a.db > before.sql
            tasks $A sync --remote "http://alice:wrong@127.0.0.1:$PORT/" 2> e1; check refused $?
            tasks $A sync --remote "http://127.0.0.1:1/" 2> e2; check unreachable $?
            python3 -m http.server --bind 127.0.0.1 0 > web.log 2>&1 & WEB=$!
            for i in $(seq 50); do WEBPORT=$(sed -n 's/.*port \\([0-9]*\\).*/\\1/p' web.log | head -1); [ -n "$WEBPORT" ] && break; sleep 0.1; done
            tasks $A sync --remote "http://127.0.0.1:$WEBPORT/" 2> e3; check not-caldav $?
            kill $WEB
            tasks $A sync --remote "nonsense://x" 2> e4; check bad-address $?
            cat e1 e2 e3 e4
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        for fault in ["refused", "unreachable", "not-caldav"] {
            #expect(result.stdout.contains("\(fault): status 1, unchanged"), "\(fault)\n\(result)")
        }
        #expect(result.stdout.contains("bad-address: status 2, unchanged") || result.stdout.contains("bad-address: status 1, unchanged"), "\(result)")
        #expect(result.stdout.contains("refused the login (HTTP 401"), "\(result)")
        #expect(result.stdout.contains("cannot reach the CalDAV server http://127.0.0.1:1/"), "\(result)")
        #expect(!result.stdout.contains("wrong"), "no password printed")
        let errors = result.stdout.split(separator: "\n").filter { $0.hasPrefix("tasks: ") && !$0.contains("warning") }
        #expect(errors.count >= 3, "one line each\n\(result)")

        // The server stopped: unreachable, unchanged; started again, the sync goes through.
        server.stop()
        result = try shell("""
            snapshot a.db > before.sql
            tasks $A sync --remote "$URL" 2> e5; check stopped $?; cat e5
            """, server, folder)
        #expect(result.stdout.contains("stopped: status 1, unchanged"), "\(result)")
        try server.start()
        result = try shell("""
            tasks $A sync --remote "$URL" && tasks $B sync --remote "$URL" && tasks $A sync --remote "$URL" || exit 9
            echo A: $(tasks $A list --format tsv | cut -f4 | sort | tr '\\n' ,) B: $(tasks $B list --format tsv | cut -f4 | sort | tr '\\n' ,)
            $CLIENT list | wc -l
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "A: from B,one,two, B: from B,one,two,\n3\n", "\(result)")
    }

    /// `kill -9` of `tasks sync` at random moments, while both machines keep changing tasks:
    /// afterwards both hold the same tasks and the server each task once.
    @Test func killedSyncsLoseAndDoubleNothing() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let result = try shell("""
            seq 1 30 | sed 's/^/task /' | tasks $A add - -q && tasks $A sync --remote "$URL" && tasks $B sync --remote "$URL" || exit 9
            for round in $(seq 1 20); do
              tasks $A add "A round $round" list:L$((round % 3)) -q; tasks $A edit $round --title "task $round edited by A" -q
              tasks $B done $((round + 10)) -q
              tasks $A sync > /dev/null 2>&1 & S=$!
              sleep 0.0$(( (round * 37) % 10 ))$(( round % 7 )); kill -9 $S 2> /dev/null; wait $S 2> /dev/null
              tasks $B sync > /dev/null 2>&1 & S=$!
              sleep 0.0$(( (round * 53) % 10 )); kill -9 $S 2> /dev/null; wait $S 2> /dev/null
            done
            for i in 1 2; do tasks $A sync -q > /dev/null && tasks $B sync -q > /dev/null || exit 9; done
            tasks $A list --all --format tsv | cut -f2-4 | sort > a.tsv; tasks $B list --all --format tsv | cut -f2-4 | sort > b.tsv
            cmp a.tsv b.tsv && echo same-tasks
            wc -l < a.tsv
            $CLIENT list | cut -f2 | sort | uniq -d | wc -l
            $CLIENT list | wc -l
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "same-tasks\n50\n0\n50\n", "30 + 20 tasks on both machines and on the server, none twice\n\(result)")
    }

    /// Another client rewrites the item's description in a loop while this machine changes its
    /// title and syncs: a 412 is tried three times at most (never a loop, no sync hangs), and
    /// when the other stops, both sides hold the same item with the other's last description.
    @Test func anotherClientEditingInALoopGetsNoLoopAndBothChangesStay() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let result = try shell("""
            tasks $A add 'Plan the trip' -q && tasks $A sync --remote "$URL" || exit 9
            U=$(tasks $A export | grep -o '"uuid":"[^"]*"' | cut -d'"' -f4)
            $CLIENT loop "$U" 4 > loops & L=$!
            for i in 1 2 3 4 5; do tasks $A edit 1 --title "Plan the trip ($i)" -q; timeout 20 tasks $A sync -q 2>> errors; echo "sync $?" >> statuses; done
            wait $L
            tasks $A sync -q && tasks $A sync -q || exit 9
            echo "edits elsewhere: $(cat loops)" > /dev/null
            $CLIENT get "$U" | tr -d '\\r' | grep -E '^(SUMMARY|DESCRIPTION):'
            tasks $A show 1 --format json | grep -o '"notes":"[^"]*"'
            tasks $A show 1 --format json | grep -o '"title":"[^"]*"'
            grep -c 'sync 124' statuses || true
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // python3-caldav saves without If-Match: a save from a copy it read before one of our
        // writes puts its older title back, a later write there that this machine then takes.
        // What is promised: both sides end the same, with the other client's last description.
        // (The title may be the first one again: seen under load, when the client's last save
        // came from a copy it read before any of our writes.)
        let summary = lines.first { $0.hasPrefix("SUMMARY:Plan the trip") }
        #expect(summary != nil && lines.contains("\"title\":\"\(summary?.dropFirst("SUMMARY:".count) ?? "")\""), "the same title on both sides\n\(result)")
        let description = lines.first { $0.hasPrefix("DESCRIPTION:edited elsewhere ") }
        #expect(description != nil, "\(result)")
        if let description {
            #expect(lines.contains("\"notes\":\"\(description.dropFirst("DESCRIPTION:".count))\""), "the other client's last edit arrived\n\(result)")
        }
        #expect(lines.last == "0", "no sync ran into the timeout\n\(result)")
    }

    /// Another client saves the item between this sync's read and its write (made to happen
    /// by `scripts/caldav-meddler` standing in for the helper): the write is answered 412, the
    /// item read again and merged. The same field changed on both sides is decided by the later
    /// change, reported, and the value that lost is in the history, where `undo` finds it; what
    /// else that client wrote stays in the item.
    @Test func aWriteAnswered412IsMergedAndItsConflictReportedAndKept() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let meddler = SyncCalDAVTests.client.replacingSuffix("/caldav-client", with: "/caldav-meddler")
        let hostName = SystemClock.hostName()
        let result = try shell("""
            mkdir bin && cp "$(command -v tasks)" bin/tasks && cp '\(meddler)' bin/tasks-caldav || exit 9
            export REAL_HELPER="$(dirname "$(command -v tasks)")/tasks-caldav" MEDDLE_USER=\(server.user) MEDDLE_PASSWORD=\(server.password)
            T="bin/tasks $A"
            $T add 'Plan the trip' -q && $T sync --remote "$URL" -q || exit 9
            U=$($T export | grep -o '"uuid":"[^"]*"' | cut -d'"' -f4)
            echo '# theirs later'
            $T edit 1 --title 'ours' -q
            MEDDLE="$(printf 'SUMMARY:theirs\\nLAST-MODIFIED:20991231T000000Z')" $T sync --format json 2> warnings; echo "status $?"
            cat warnings; $T list --format tsv
            $CLIENT get "$U" | tr -d '\\r' | grep '^SUMMARY'
            $T sync --format json
            echo '# ours later'
            $T edit 1 --title 'ours again' -q
            MEDDLE="$(printf 'SUMMARY:theirs again\\nLAST-MODIFIED:20200101T000000Z\\nX-OTHER-CLIENT:kept')" $T sync --format json 2> /dev/null; echo "status $?"
            $CLIENT get "$U" | tr -d '\\r' | grep -E '^(SUMMARY|X-OTHER-CLIENT)'
            $T undo -q; $T list --format tsv
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "# theirs later",
            #"{"sent":1,"received":0,"created":0,"changed":1,"deleted":0,"entry":3,"rejected":0,"conflicts":[{"id":1,"title":"theirs","field":"title","kept":"theirs","keptFrom":"127.0.0.1","replaced":"ours","replacedFrom":"\#(hostName)"}]}"#,
            "status 0",
            "tasks: warning: 1 conflict, the later change kept (the history keeps the other; 'tasks undo' puts it back):",
            "  task 1 title: kept \"theirs\" from 127.0.0.1, replaced \"ours\" from \(hostName)",
            "1\tfalse\tInbox\ttheirs\t\t\t",
            "SUMMARY:theirs",
            #"{"sent":0,"received":0,"created":0,"changed":0,"deleted":0,"entry":null,"rejected":0,"conflicts":[]}"#,
            "# ours later",
            #"{"sent":1,"received":0,"created":0,"changed":0,"deleted":0,"entry":5,"rejected":0,"conflicts":[{"id":1,"title":"ours again","field":"title","kept":"ours again","keptFrom":"\#(hostName)","replaced":"theirs again","replacedFrom":"127.0.0.1"}]}"#,
            "status 0",
            "SUMMARY:ours again",
            "X-OTHER-CLIENT:kept",
            "1\tfalse\tInbox\ttheirs again\t\t\t",
        ], "\(result)")
    }

    /// Issue 54: after a 412, what the other client wrote in fields this machine did not change
    /// arrives in the same sync (not one sync late), and the next sync, idle, receives nothing.
    @Test func aWriteAnswered412TakesTheOtherClientsOtherFieldsAtOnce() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let meddler = SyncCalDAVTests.client.replacingSuffix("/caldav-client", with: "/caldav-meddler")
        let result = try shell("""
            mkdir bin && cp "$(command -v tasks)" bin/tasks && cp '\(meddler)' bin/tasks-caldav || exit 9
            export REAL_HELPER="$(dirname "$(command -v tasks)")/tasks-caldav" MEDDLE_USER=\(server.user) MEDDLE_PASSWORD=\(server.password)
            T="bin/tasks $A"
            $T add 'Plan the trip' -q && $T sync --remote "$URL" -q || exit 9
            $T edit 1 --title 'Plan the whole trip' -q
            MEDDLE="$(printf 'DESCRIPTION:book the ferry\\nPRIORITY:1\\nLAST-MODIFIED:20200101T000000Z')" $T sync -q 2> /dev/null; echo "status $?"
            $T list --format tsv --columns title,priority,notes
            $T sync --format json
            $T sync --format json
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "status 0",
            "Plan the whole trip\tH\tbook the ferry",
            #"{"sent":0,"received":0,"created":0,"changed":0,"deleted":0,"entry":null,"rejected":0,"conflicts":[]}"#,
            #"{"sent":0,"received":0,"created":0,"changed":0,"deleted":0,"entry":null,"rejected":0,"conflicts":[]}"#,
        ], "\(result)")
    }

    /// A calendar deleted on the server: its tasks are deleted here too (the history keeps
    /// them); `tasks undo` brings them back, and the next sync makes the calendar again.
    @Test func aCalendarDeletedThereIsDeletedHereAndUndoBringsItBack() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let result = try shell("""
            tasks $A add 'Report' list:Work -q && tasks $A add 'Milk' list:Home -q && tasks $A sync --remote "$URL" || exit 9
            $CLIENT drop Work
            tasks $A sync --format json | grep -o '"deleted":[0-9]*'
            tasks $A list --format tsv | cut -f3,4
            tasks $A undo -q && tasks $A sync -q || exit 9
            $CLIENT list | cut -f1,3 | sort
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\"deleted\":1\nHome\tMilk\nHome\tMilk\nWork\tReport\n", "\(result)")
    }

    /// vdirsyncer and todoman, the terminal's CalDAV stack, row by row of the mapping as far
    /// as todoman shows and writes it (summary, description, list, due, start, priority,
    /// completion, cancel, move, delete; it shows no categories or start): written here, read
    /// there; written there, read here.
    @Test func vdirsyncerAndTodomanSeeTheSameTasks() throws {
        guard let result = try withTodoman("""
            todo() { todoman --porcelain list --status ANY | python3 -c '
            import json, sys, time
            for t in sorted(json.load(sys.stdin), key=lambda t: t["summary"]):
                due = time.strftime("%Y-%m-%d", time.gmtime(t["due"])) if t["due"] else "-"
                print("\\t".join([t["summary"], t["list"], t["description"].strip() or "-", due, str(t["priority"]), str(t["completed"]), str(t["percent"])]))'; }
            id() { todoman --porcelain list --status ANY | python3 -c 'import json, sys; print(next(t["id"] for t in json.load(sys.stdin) if t["summary"] == sys.argv[1]))' "$1"; }
            here() { tasks $A export | python3 -c '
            import json, sys
            for t in sorted(json.load(sys.stdin), key=lambda t: t["title"]):
                print("\\t".join(str(t[k] if t[k] not in (None, "") else "-").replace("\\n", "|") for k in ("title", "list", "notes", "due", "wait", "priority", "done")))'; }
            tasks $A add 'Buy milk' list:Home due:2026-12-24 priority:H --notes 'two litres' -q
            tasks $A add 'Call mum' list:Home priority:L -q
            tasks $A add 'Pay rent' list:Bills due:2026-12-01 -q && tasks $A done 3 -q
            tasks $A add 'Water plants' list:Home -q && tasks $A add 'Old errand' list:Home -q
            tasks $A sync --remote "$URL" -q || exit 9
            yes | vdirsyncer discover tasks > v.log 2>&1 && vdirsyncer sync >> v.log 2>&1 && vdirsyncer metasync >> v.log 2>&1 || { cat v.log; exit 9; }
            echo '# there'; todo
            echo 'the description' | todoman new -l Home -r -s 2026-12-20 -d 2026-12-28 --priority low 'Made in todoman' > /dev/null || exit 9
            todoman edit "$(id 'Buy milk')" --due 2026-12-31 --priority medium > /dev/null || exit 9
            todoman cancel "$(id 'Call mum')" > /dev/null && todoman done "$(id 'Water plants')" > /dev/null || exit 9
            todoman move -l Bills "$(id 'Water plants')" > /dev/null && todoman delete --yes "$(id 'Old errand')" > /dev/null || exit 9
            vdirsyncer sync >> v.log 2>&1 && tasks $A sync -q || { cat v.log; exit 9; }
            echo '# here'; here
            """) else { return }
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "# there",
            "Buy milk\tHome\ttwo litres\t2026-12-24\t1\tFalse\t0",
            "Call mum\tHome\t-\t-\t9\tFalse\t0",
            "Old errand\tHome\t-\t-\t0\tFalse\t0",
            "Pay rent\tBills\t-\t2026-12-01\t0\tTrue\t100",
            "Water plants\tHome\t-\t-\t0\tFalse\t0",
            "# here",
            "Buy milk\tHome\ttwo litres\t2026-12-31\t-\tM\tFalse",
            "Call mum\tHome\t-\t-\t-\tL\tTrue",
            "Made in todoman\tHome\tthe description|\t2026-12-28\t2026-12-20\tL\tFalse",
            "Pay rent\tBills\t-\t2026-12-01\t-\t-\tTrue",
            "Water plants\tBills\t-\t-\t-\t-\tTrue",
        ], "\(result)")
    }

    /// `script` run with vdirsyncer's pair `tasks` (Radicale's calendars into `vdir/`) and
    /// todoman on it set up; nil (and an issue recorded) when they are not installed.
    func withTodoman(_ script: String) throws -> ShellResult? {
        guard access("/usr/bin/vdirsyncer", X_OK) == 0, access("/usr/bin/todoman", X_OK) == 0 else {
            Issue.record("vdirsyncer and todoman are needed: scripts/install-deps installs them")
            return nil
        }
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        Self.configureVdirsyncerAndTodoman(server, folder)
        return try shell("""
            export VDIRSYNCER_CONFIG="$PWD/vdirsyncer.conf" XDG_CONFIG_HOME="$PWD/xdg" TZ=UTC
            \(script)
            """, server, folder)
    }

    /// vdirsyncer's pair `tasks` (the server's calendars into `vdir/`) and todoman on it.
    static func configureVdirsyncerAndTodoman(_ server: CalDAVServer, _ folder: TemporaryFolder) {
        writeBytes(folder.file("vdirsyncer.conf"), Array("""
            [general]
            status_path = "\(folder.file("status"))/"
            [pair tasks]
            a = "local"
            b = "remote"
            collections = ["from b"]
            metadata = ["displayname"]
            [storage local]
            type = "filesystem"
            path = "\(folder.file("vdir"))/"
            fileext = ".ics"
            [storage remote]
            type = "caldav"
            url = "\(server.url)"
            username = "\(server.user)"
            password = "\(server.password)"

            """.utf8))
        _ = runShell("mkdir -p xdg/todoman", in: folder)
        writeBytes(folder.file("xdg/todoman/config.py"), Array("path = \"\(folder.file("vdir"))/*\"\ndate_format = \"%Y-%m-%d\"\ntime_format = \"%H:%M\"\n".utf8))
    }

    /// Issue 54: todoman 4.1 neither shows nor writes alarms or subtasks, so the round trips of
    /// reminders and subtasks are python3-caldav's (SyncCalDAVRemindersTests); what todoman
    /// must do is keep them: an item it edits keeps its VALARMs and its RELATED-TO, and the
    /// task here keeps its reminders and its parent.
    @Test func todomanKeepsRemindersAndSubtasksItCannotShow() throws {
        guard let result = try withTodoman("""
            id() { todoman --porcelain list --status ANY | python3 -c 'import json, sys; print(next(t["id"] for t in json.load(sys.stdin) if t["summary"] == sys.argv[1]))' "$1"; }
            tasks $A add Trip due:2026-12-20T09:00 --remind due-1d -q && tasks $A add 'Book flight' --parent 1 --remind due-15min -q
            tasks $A sync --remote "$URL" -q || exit 9
            yes | vdirsyncer discover tasks > v.log 2>&1 && vdirsyncer sync >> v.log 2>&1 || { cat v.log; exit 9; }
            todoman edit "$(id 'Book flight')" --due 2026-12-18 --priority high > /dev/null || exit 9
            todoman edit "$(id 'Trip')" --priority low > /dev/null || exit 9
            vdirsyncer sync >> v.log 2>&1 && tasks $A sync -q || { cat v.log; exit 9; }
            tasks $A list --columns title,priority,reminders --format tsv
            tasks $A list parent:1 --format tsv | cut -f4
            """) else { return }
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Trip\tL\tdue-1d\nBook flight\tH\tdue-15min\nBook flight\n", "\(result)")
    }
}
