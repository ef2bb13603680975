#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// `tasks sync` against a real PostgreSQL server (a throwaway cluster made by `pg_virtualenv`),
/// run as a user runs it: the built binary and its helper, several database files standing for
/// several machines, in shell scripts. One database on the cluster per test.
@Suite("tasks sync through a real PostgreSQL", .serialized,
       .enabled(if: tasksBinary != nil && executableBesideTests("tasks-postgres") != nil, "needs tasks and tasks-postgres beside the tests"))
struct SyncPostgresTests {
    /// The cluster, or a recorded failure: CI installs postgresql and postgresql-common.
    func cluster() throws -> PostgresCluster {
        try PostgresCluster.shared.get()
    }

    /// Runs `script` with the cluster's PG* variables, `$URL` naming `database` (no password in
    /// it: libpq takes PGPASSWORD), and `A`, `B`, `C` three machines' files.
    func sync(_ script: String, database: String, in folder: TemporaryFolder) throws -> ShellResult {
        let cluster = try cluster()
        let url = try #require(cluster.makeDatabase(database))
        let result = try tasksShell("""
            \(cluster.exports) export URL='\(url)'
            A='--db \(folder.file("a.db"))'; B='--db \(folder.file("b.db"))'; C='--db \(folder.file("c.db"))'
            \(script)
            """, in: folder)
        // After every sync test: the cluster's password is in no machine's file (issue 24).
        if let password = cluster.environment["PGPASSWORD"], !password.isEmpty {
            for name in ["a.db", "b.db", "c.db"] {
                for file in [name, name + "-wal"] {
                    let bytes = readBytes(folder.file(file))
                    #expect(!bytes.contains(Array(password.utf8)), "\(file) holds the password")
                }
            }
        }
        return result
    }

    @Test func twoMachinesShareTasksByUUIDAndMergeFieldByField() throws {
        let folder = TemporaryFolder()
        let result = try sync("""
            printf 'Buy milk\\nCall mum\\nPay rent\\n' | tasks $A add - -q
            tasks $A sync --remote "$URL" && tasks $B sync --remote "$URL" || exit 9
            # different fields: both kept
            tasks $A edit 1 --title 'Buy oat milk' && tasks $B edit 1 --due 2026-12-24 --tag shop
            # the same field: the later change (B's) kept everywhere, the conflict reported
            tasks $A edit 2 --title 'Call mum (A)'; sleep 0.01; tasks $B edit 2 --title 'Call mum (B)'
            tasks $B done 3
            tasks $A sync && tasks $B sync 2> b-conflicts.txt && tasks $A sync || exit 9
            echo '--- A'; tasks $A list --all --format tsv
            echo '--- B'; tasks $B list --all --format tsv
            echo '--- conflicts'; cat b-conflicts.txt
            # a delete travels; ids are each machine's own, uuids the same
            tasks $B delete 3 -q && tasks $B sync && tasks $A sync || exit 9
            echo '--- after delete'; tasks $A list --all --format tsv | cut -f4
            tasks $A export | grep -o '"uuid":"[^"]*"' | sort > a-uuids; tasks $B export | grep -o '"uuid":"[^"]*"' | sort > b-uuids
            cmp a-uuids b-uuids && echo same-uuids
            """, database: "two_machines", in: folder)
        #expect(result.status == 0, "\(result)")
        let sections = result.stdout.split(separator: "--- ", omittingEmptySubsequences: false).map(String.init)
        #expect(sections.count == 5, "\(result)")
        guard sections.count == 5 else { return }
        let expected = """
            1\tfalse\tInbox\tBuy oat milk\t2026-12-24\t\tshop
            2\tfalse\tInbox\tCall mum (B)\t\t\t
            3\ttrue\tInbox\tPay rent\t\t\t

            """
        #expect(sections[1] == "A\n" + expected)
        #expect(sections[2] == "B\n" + expected)
        #expect(sections[3].contains("1 conflict") && sections[3].contains("task 2 title: kept \"Call mum (B)\""), "\(sections[3])")
        #expect(sections[4] == "after delete\nBuy oat milk\nCall mum (B)\nsame-uuids\n")
    }

    /// Issue 26: each new field is one entry of the table, so it travels and merges per field
    /// like the old ones — a dependency added on one machine and an annotation on the other,
    /// to the same task, both arrive; so do a start and a moment of due.
    @Test func aDependencyFromOneMachineAndAnAnnotationFromTheOtherBothArrive() throws {
        let folder = TemporaryFolder()
        let result = try sync("""
            printf 'Design\\nBuild\\n' | tasks $A add - -q
            tasks $A sync --remote "$URL" && tasks $B sync --remote "$URL" || exit 9
            tasks $A edit 2 --blocked-by 1 && tasks $A start 1 && tasks $A edit 2 --parent 1
            tasks $B annotate 2 'ask Kim about the figures' && tasks $B edit 1 --due 2026-12-03T09:30+01:00 --remind due-15min
            tasks $A sync && tasks $B sync && tasks $A sync || exit 9
            for machine in "$A" "$B"; do
              tasks $machine export | sed -e 's/"id":[0-9]*,//' -e 's/"position":[0-9]*,//' -e 's/"modified":"[^"]*",//' -e 's/"created":"[^"]*",//'
            done
            """, database: "new_fields", in: folder)
        #expect(result.status == 0, "\(result)")
        let exports = result.stdout.split(separator: "]\n", omittingEmptySubsequences: true).map(String.init)
        #expect(exports.count == 2 && exports[0] == exports[1], "both machines hold the same tasks: \(result.stdout)")
        let text = exports.first ?? ""
        #expect(text.contains(#""annotations":[{"entry":"#) && text.contains(#""text":"ask Kim about the figures"}]"#), "B's annotation")
        #expect(text.contains(#""depends":[""#), "A's dependency")
        #expect(text.contains(#""due":"2026-12-03T09:30:00+01:00""#) && text.contains(#""start":"20"#), "B's moment, A's start")
        #expect(text.contains(#""reminders":["due-15min"]"#), "B's reminder (issue 54)")
        #expect(text.contains(#""parent":""#), "A's subtask (issue 54)")
    }

    /// Issue 53: a delete that travels leaves the deleted task's tombstone on the other
    /// machine too; brought back on one, it is back on both; purged, it is purged here only.
    @Test func aDeletedTaskIsKeptOnEveryMachineAndComesBackOnEvery() throws {
        let folder = TemporaryFolder()
        let result = try sync("""
            printf 'Buy milk\\nPay rent\\n' | tasks $A add - -q
            tasks $A sync --remote "$URL" && tasks $B sync --remote "$URL" || exit 9
            tasks $A delete 2 -q && tasks $A sync && tasks $B sync || exit 9
            echo '--- B deleted'; tasks $B list status:deleted --format tsv | cut -f2,4
            tasks $B undelete title.contains:rent -q && tasks $B sync && tasks $A sync || exit 9
            echo '--- A after undelete'; tasks $A list --format tsv | cut -f2,4; tasks $A count status:deleted
            tasks $A delete 2 -q && tasks $A purge 2 --yes -q && tasks $A sync && tasks $B sync || exit 9
            echo '--- purged on A, kept on B'; tasks $A count status:deleted; tasks $B list status:deleted --format tsv | cut -f4
            """, database: "tombstones", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            --- B deleted
            deleted\tPay rent
            --- A after undelete
            false\tBuy milk
            false\tPay rent
            0
            --- purged on A, kept on B
            0
            Pay rent

            """, "\(result)")
    }

    @Test func threeMachinesARepeatingOccurrenceAndTenThousandTasksEachWay() throws {
        let folder = TemporaryFolder()
        let result = try sync("""
            tasks $A add 'Water plants' --every 1w --due 2027-01-04 -q
            for m in "$A" "$B" "$C"; do tasks $m sync --remote "$URL" || exit 9; done
            # one occurrence completed on two machines: one next occurrence
            tasks $A done 1 -q; tasks $B done 1 -q
            seq 1 10000 | sed 's/^/from A /' | tasks $A add - -q
            seq 1 10000 | sed 's/^/from C /' | tasks $C add - -q
            for round in 1 2; do for m in "$A" "$B" "$C"; do tasks $m sync || exit 9; done; done
            for m in "$A" "$B" "$C"; do
                tasks $m list --all --format tsv | cut -f2,4 | sort | md5sum
                tasks $m list --all --format tsv | wc -l
                tasks $m list --format tsv --search 'Water' | wc -l
            done
            """, database: "three_machines", in: folder)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 9, "\(result)")
        guard lines.count == 9 else { return }
        #expect(lines[0] == lines[3] && lines[0] == lines[6], "the same tasks on every machine")
        #expect(lines[1] == "20002" && lines[4] == "20002" && lines[7] == "20002", "20,000 added, the done occurrence and one next")
        #expect(lines[2] == "1" && lines[5] == "1" && lines[8] == "1", "one pending occurrence")
    }

    /// Unreachable, refused, without rights, newer schema, the server gone halfway: status 1, a
    /// message saying where it failed, the file as it was; the next sync converges.
    @Test func failuresChangeNothingHereAndTheNextSyncConverges() throws {
        let folder = TemporaryFolder()
        let cluster = try cluster()
        _ = cluster.psql("DROP ROLE IF EXISTS onlooker; CREATE ROLE onlooker LOGIN PASSWORD 'onlooker-secret'")
        let result = try sync("""
            HOSTPORT="$PGHOST:$PGPORT"
            tasks $B add 'from B' -q && tasks $B sync --remote "$URL" || exit 9
            printf 'one\\ntwo\\n' | tasks $A add - -q
            snapshot() { sqlite3 "$1" .dump | grep -v sync_state; }
            snapshot a.db > before.sql
            check() { snapshot a.db | cmp -s - before.sql && echo "$1: status $2, unchanged" || echo "$1: status $2, CHANGED"; }
            tasks $A sync --remote "postgresql://$PGUSER@localhost:1/x" 2> e1; check unreachable $?
            tasks $A sync --remote "postgresql://$PGUSER:wrong-password@$HOSTPORT/two" 2> e2; check refused $?
            tasks $A sync --remote "postgresql://$PGUSER@$HOSTPORT/no_such_database" 2> e6; check missing $?
            PGPASSWORD=onlooker-secret tasks $A sync --remote "postgresql://onlooker@$HOSTPORT/${URL##*/}" 2> e3; check denied $?
            psql -qc 'UPDATE tasks_schema SET version = 99' "${URL##*/}" && tasks $A sync --remote "$URL" 2> e4; check newer $?
            psql -qc 'UPDATE tasks_schema SET version = 1' "${URL##*/}"
            # the server stopped while the sync waits for the remote's lock
            (psql -qAt -c 'SELECT pg_advisory_lock(7166488390537921)' -c 'SELECT pg_sleep(3)' "${URL##*/}" > /dev/null 2>&1 &)
            sleep 0.5
            tasks $A sync --remote "$URL" 2> e5 & SYNC=$!
            sleep 0.7
            pg_ctlcluster "$PGVERSION" regress stop -m fast
            wait $SYNC; check stopped $?
            pg_ctlcluster "$PGVERSION" regress start
            tasks $A sync --remote "$URL" && tasks $B sync && tasks $A sync || exit 9
            echo converged: $(tasks $A list --format tsv | cut -f4 | sort | tr '\\n' ,) $(tasks $B list --format tsv | cut -f4 | sort | tr '\\n' ,)
            psql -Atc 'SELECT count(*), count(DISTINCT id) FROM tasks_change' "${URL##*/}"
            cat e1 e2 e3 e4 e5 e6
            """, database: "faults", in: folder)
        #expect(result.status == 0, "\(result)")
        for fault in ["unreachable", "refused", "missing", "denied", "newer", "stopped"] {
            #expect(result.stdout.contains("\(fault): status 1, unchanged"), "\(fault)\n\(result)")
        }
        #expect(result.stdout.contains("converged: from B,one,two, from B,one,two,"), "\(result)")
        #expect(result.stdout.contains("\n3|3\n"), "three changes, none twice\n\(result)")
        #expect(result.stdout.contains("cannot reach the remote"))
        // Issue 24: a database that does not exist is not a refused login (no ~/.pgpass hint).
        #expect(result.stdout.contains("/no_such_database has no such database (") && !result.stdout.contains("no_such_database refused the login"),
                "\(result)")
        #expect(result.stdout.contains("refused the login"))
        #expect(result.stdout.contains("refused access to the tasks tables"))
        #expect(result.stdout.contains("set up by a newer tasks (remote schema 99"))
        #expect(result.stdout.contains("failed halfway"))
        #expect(!result.stdout.contains("wrong-password") && !result.stdout.contains("onlooker-secret"), "no password printed")
    }

    /// The helper copies pushed changes straight into the log (COPY); a change stored there by a
    /// sync whose apply here then failed goes the other way when it is sent again, and is kept
    /// once. The file from before that sync stands for the failed apply: the same changes get
    /// the same ids. A title with what COPY's text format reads as escapes arrives as written.
    @Test func changesSentAgainAfterAFailedApplyAreKeptOnceAndCOPYsEscapesArriveAsWritten() throws {
        let folder = TemporaryFolder()
        let result = try sync(#"""
            tasks $A add 'one' -q && tasks $A add 'two' -q && tasks $A sync --remote "$URL" -q || exit 9
            tasks $A add 'three \N \b \\. \x41 \101' -q && tasks $A toggle 1 -q || exit 9
            sqlite3 a.db 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null && cp a.db before.db
            tasks $A sync -q || exit 8
            cp before.db a.db && rm -f a.db-wal a.db-shm
            tasks $A sync -q; echo "sent again: status $?"
            psql -Atc 'SELECT count(*), count(DISTINCT id) FROM tasks_change' "${URL##*/}"
            tasks $B sync --remote "$URL" -q && tasks $B list --all --format tsv | cut -f2,4
            """#, database: "again", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("sent again: status 0\n4|4\n"), "two changes, then two more, none twice\n\(result)")
        #expect(result.stdout.hasSuffix("true\tone\nfalse\ttwo\nfalse\tthree \\\\N \\\\b \\\\\\\\. \\\\x41 \\\\101\n"), "\(result)")
    }

    /// Issue 28: `tasks sync --watch` on B hears A's sync (LISTEN/NOTIFY) and B's own changes,
    /// with no command run on B; the server stopped says `offline` once, and started again it
    /// catches up with nothing lost or doubled; SIGTERM ends it with status 0.
    @Test func syncWatchFollowsTheOtherMachineAndItsOwnFileAndSurvivesTheServerStopping() throws {
        let folder = TemporaryFolder()
        let result = try sync("""
            waitfor() { for i in $(seq 200); do eval "$1" && return 0; sleep 0.1; done; return 1; }
            tasks $A add 'Buy milk' -q && tasks $A sync --remote "$URL" && tasks $B sync --remote "$URL" || exit 9
            tasks $B sync --watch > watch.out 2> watch.err & W=$!
            tasks $A edit 1 --title 'Buy oat milk' -q && tasks $A sync || exit 9
            waitfor "tasks $B list --format tsv | grep -q 'Buy oat milk'" && echo arrived-by-itself
            tasks $B add 'Call mum' -q
            waitfor "tasks $A sync && tasks $A list --format tsv | grep -q 'Call mum'" && echo sent-by-itself
            pg_ctlcluster "$PGVERSION" regress stop -m fast
            waitfor "grep -q 'offline since' watch.err" && echo said-offline
            tasks $B add 'Water plants' -q
            pg_ctlcluster "$PGVERSION" regress start
            waitfor "grep -q 'answers again' watch.err" && echo said-back
            waitfor "tasks $A sync && tasks $A list --format tsv | grep -q 'Water plants'" && echo caught-up
            kill -TERM $W; wait $W; echo "watch exit $?"
            echo A: $(tasks $A list --format tsv | cut -f4 | sort | tr '\n' ,) B: $(tasks $B list --format tsv | cut -f4 | sort | tr '\n' ,)
            psql -Atc 'SELECT count(*) = count(DISTINCT id) FROM tasks_change' "${URL##*/}"
            tasks $B sync --watch --remote nonsense 2> bad.err; echo "bad address: status $?, $(grep -c 'trying again' bad.err) promises"
            echo '--- out'; cat watch.out; echo '--- err'; cat watch.err
            """, database: "watching", in: folder)
        #expect(result.status == 0, "\(result)")
        for step in ["arrived-by-itself", "sent-by-itself", "said-offline", "said-back", "caught-up", "watch exit 0"] {
            #expect(result.stdout.contains(step + "\n"), "\(step)\n\(result)")
        }
        #expect(result.stdout.contains("A: Buy oat milk,Call mum,Water plants, B: Buy oat milk,Call mum,Water plants,"), "\(result)")
        #expect(result.stdout.contains("bad address: status 2, 0 promises"), "a remote that can never work ends the watch at once\n\(result)")
        #expect(result.stdout.contains("\nt\n"), "no change stored twice\n\(result)")
        #expect(result.stdout.contains("received 1 (1 changed)."), "a line for the sync that took A's edit\n\(result)")
        #expect(result.stdout.split(separator: "\n").filter { $0.contains("offline since") }.count == 1, "offline said once\n\(result)")
    }

    /// Issue 28: B's screen shows A's change with no key pressed on B and no command run there,
    /// the cursor on its task, the status line saying when it synced; B's own add reaches A.
    @Test func aScreenShowsAnotherMachinesChangeByItself() throws {
        let folder = TemporaryFolder()
        let cluster = try cluster()
        let setup = try sync("""
            printf 'Buy milk\nCall mum\n' | tasks $A add - -q && tasks $A sync --remote "$URL" && tasks $B sync --remote "$URL" || exit 9
            """, database: "screens", in: folder)
        try #require(setup.status == 0, "\(setup)")
        let tmux = try Tmux(folder, columns: 80, rows: 10)
        tmux.type("\(cluster.exports) tasks --db b.db ui")
        #expect(tmux.wait(seconds: 5) { $0.contains("Call mum") && $0.contains("synced") }, "\(tmux.screen)")
        tmux.send("j")
        let edit = try tasksShell("\(cluster.exports) tasks --db a.db edit 2 --title 'Call mum back' -q && tasks --db a.db add 'From A' -q && tasks --db a.db sync",
                                  in: folder)
        #expect(edit.status == 0, "\(edit)")
        #expect(tmux.wait(seconds: 5) { $0.contains("Call mum back") && $0.contains("From A") }, "B's screen, no key pressed: \(tmux.screen)")
        let cursorLine = tmux.screen.split(separator: "\n").first { $0.contains("Call mum back") }
        #expect(cursorLine != nil)
        tmux.send("Space")
        #expect(tmux.wait { $0.contains("Done 2: Call mum back") }, "the cursor stayed on its task: \(tmux.screen)")
        var reached = false
        for _ in 0..<50 where !reached {
            let a = try tasksShell("\(cluster.exports) tasks --db a.db sync -q && tasks --db a.db list --all --format tsv", in: folder)
            reached = a.stdout.contains("true\tInbox\tCall mum back")
            if !reached { usleep(100_000) }
        }
        #expect(reached, "B's done reached A by itself")
        // The server stopped: B's status line says since when it is offline; started again,
        // what A did meanwhile arrives and the line says synced.
        _ = runShell("\(cluster.exports) pg_ctlcluster \"$PGVERSION\" regress stop -m fast", in: folder)
        #expect(tmux.wait(seconds: 10) { $0.contains("offline since") }, "\(tmux.screen)")
        _ = runShell("\(cluster.exports) pg_ctlcluster \"$PGVERSION\" regress start", in: folder)
        let meanwhile = try tasksShell("\(cluster.exports) tasks --db a.db add 'While B was offline' -q && tasks --db a.db sync", in: folder)
        #expect(meanwhile.status == 0, "\(meanwhile)")
        #expect(tmux.wait(seconds: 15) { $0.contains("While B was offline") && $0.contains("synced") && !$0.contains("offline since") },
                "caught up: \(tmux.screen)")
        tmux.send("q")
    }

    /// A password given in the URL is used, never stored or printed; every value is a parameter.
    @Test func aPasswordInTheURLIsNeverStoredAndValuesAreNeverSplicedIntoSQL() throws {
        let folder = TemporaryFolder()
        let cluster = try cluster()
        let password = try #require(cluster.environment["PGPASSWORD"])
        let result = try sync("""
            WITH_PASSWORD="postgresql://$PGUSER:$PGPASSWORD@$PGHOST:$PGPORT/${URL##*/}"
            unset PGPASSWORD
            tasks $A add "Robert'); DROP TABLE tasks_change; --" --notes 'tab\there "quotes" \\\\ back' -q
            tasks $A sync --remote "$WITH_PASSWORD" -f json > out.txt 2>&1 || exit 9
            sqlite3 a.db 'SELECT remote FROM sync_state'
            cat a.db a.db-wal 2>/dev/null | grep -c -a '\(password)'
            grep -c '\(password)' out.txt
            tasks $B sync --remote "$WITH_PASSWORD" -q || exit 8
            tasks $B history --format tsv | cut -f4 | grep -c '\(password)'
            tasks $B history --format tsv | cut -f4 | grep -cF ':***@'
            export PGPASSWORD='\(password)'
            tasks $B sync --remote "$URL" && tasks $B show 1 --format json | grep -o '"title":"[^"]*"'
            psql -Atc 'SELECT count(*) FROM tasks_change' "${URL##*/}"
            """, database: "security", in: folder)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("postgresql://postgres@") == true && lines.first?.contains(password) == false, "\(result)")
        #expect(lines.dropFirst().prefix(2) == ["0", "0"], "the password is in neither the file nor the output\n\(result)")
        #expect(lines.dropFirst(3).prefix(2) == ["0", "1"], "the history records the command with its password masked\n\(result)")
        #expect(result.stdout.contains("\"title\":\"Robert'); DROP TABLE tasks_change; --\""), "\(result)")
        #expect(lines.last == "1")
    }

    /// Rows a teammate with the documented grants can insert (issue 50): values `add` would
    /// refuse, fields that are no JSON object of values, no task, a title past 4,096 bytes, and a
    /// clock of 2^63 - 1. Each is kept aside with a warning naming the row, the rest of the sync
    /// goes on, the next sync says nothing of them again, `sync --rejected` lists them, and a
    /// new machine's first sync (applied as the rows arrive) keeps the same ones aside.
    @Test func aPeersBadRowsAreKeptAsideAndStopNoSync() throws {
        let folder = TemporaryFolder()
        let result = try sync("""
            printf 'one\\ntwo\\n' | tasks $A add - -q && tasks $A sync --remote "$URL" || exit 9
            U1=$(sqlite3 a.db "SELECT uuid FROM task WHERE id = 1"); U2=$(sqlite3 a.db "SELECT uuid FROM task WHERE id = 2")
            NEW=01a24935-0000-7000-8000-000000000001; LONG=$(head -c 5000 /dev/zero | tr '\\0' x)
            row() { psql -qc "INSERT INTO tasks_change (id, node, origin, hlc, task, fields) VALUES ('$1', 'peer', 'mallory', $2, '$3', '$4')" "${URL##*/}" || exit 8; }
            row bad-done 1 "$U1" '{"done": 5}'
            row bad-priority 2 "$U1" '{"priority": "ZZZ"}'
            row empty-title 3 "$NEW" '{"title": "", "list": "Inbox"}'
            row float 4 "$U2" '{"a": 1.5}'
            row no-task 5 '' '{"title": "x"}'
            row long-title 6 "$U2" "{\\"title\\": \\"$LONG\\"}"
            row far-clock 9223372036854775807 "$U2" '{"title": "two (peer)"}'
            tasks $A sync 2> e1; echo "sync: $?"; grep -c 'kept aside a change' e1; grep -o 'row [0-9]*): [a-z ]*' e1 | sort | head -3
            tasks $A edit 1 --title 'one (A)' && tasks $A sync 2> e2; echo "again: $? $(grep -c 'kept aside' e2)"
            tasks $A sync --rejected --format tsv | cut -f3,8 | sort
            echo "A: $(tasks $A list --format tsv | cut -f2,4,6 | tr '\\n\\t' ',:')"
            tasks $C sync --remote "$URL" 2> e3; echo "fresh: $? $(grep -c 'kept aside' e3)"
            echo "C: $(tasks $C list --format tsv | cut -f2,4,6 | tr '\\n\\t' ',:')"
            tasks $C sync --rejected --format tsv | wc -l
            """, database: "hostile", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("sync: 0\n6\n"), "six rows kept aside, the sync went on\n\(result)")
        #expect(result.stdout.contains("again: 0 0\n"), "not reported again\n\(result)")
        for (id, reason) in [("bad-done", "done is 5, not 0 or 1"), ("bad-priority", #"priority is "ZZZ", not a priority"#),
                             ("empty-title", "title: "), ("float", "its fields are unreadable"), ("no-task", "its task has no uuid"),
                             ("long-title", "title: ")] {
            #expect(result.stdout.contains("\(id)\t\(reason)"), "\(id)\n\(result)")
        }
        // The row with the far clock is taken (its title is valid); A's later edit still syncs.
        #expect(result.stdout.contains("A: false:one (A):,false:two (peer):,\n"), "\(result)")
        #expect(result.stdout.contains("fresh: 0 6\nC: false:one (A):,false:two (peer):,\n6\n"), "\(result)")
    }

    /// A sync that cannot finish — here, another sync holds the remote's lock — ends at the
    /// remote's `timeout` with a message, and changes nothing on either side (issue 50).
    @Test func aSyncEndsAtItsTimeoutAndChangesNothing() throws {
        let folder = TemporaryFolder()
        let result = try sync("""
            tasks $A add one -q && tasks $A sync --remote "$URL" || exit 9
            export HOME="$PWD"; mkdir -p .config/tasks; printf '[remote.slow]\\nurl = "%s"\\ntimeout = 2\\n' "$URL" > .config/tasks/config
            tasks $A add two -q; sqlite3 a.db .dump | grep -v sync_state > before.sql
            (psql -qAt -c 'SELECT pg_advisory_lock(7166488390537921)' -c 'SELECT pg_sleep(8)' "${URL##*/}" > /dev/null 2>&1 &)
            sleep 0.5
            start=$(date +%s); tasks $A sync slow 2> err; status=$?; took=$(( $(date +%s) - start ))
            echo "status $status, within 6 s: $([ $took -le 6 ] && echo yes || echo "no, $took s")"; grep -c 'longer than its 2 s' err
            sqlite3 a.db .dump | grep -v sync_state | cmp -s - before.sql && echo unchanged
            psql -Atc 'SELECT count(*) FROM tasks_change' "${URL##*/}"
            """, database: "deadline", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "status 1, within 6 s: yes\n1\nunchanged\n1\n", "\(result)")
    }

    /// A teammate with the documented grants syncs; one who can also write `tasks_schema`
    /// makes every machine refuse the remote (with the REVOKE that fixes it) instead of
    /// letting them stop it; a version from the future stops writes, not reads (issue 50).
    @Test func aTeammateCannotStopTheOthersSyncs() throws {
        let folder = TemporaryFolder()
        let cluster = try cluster()
        _ = cluster.psql("DROP ROLE IF EXISTS teammate; CREATE ROLE teammate LOGIN PASSWORD 'teammate-secret'")
        let result = try sync("""
            DB=${URL##*/}; MATE="postgresql://teammate@$PGHOST:$PGPORT/$DB"
            tasks $A add one -q && tasks $A sync --remote "$URL" || exit 9
            psql -qc 'GRANT SELECT, INSERT ON tasks_change TO teammate; GRANT SELECT ON tasks_schema TO teammate; GRANT USAGE ON SEQUENCE tasks_change_seq_seq TO teammate' "$DB" || exit 8
            PGPASSWORD=teammate-secret tasks $B sync --remote "$MATE"; echo "teammate: $? $(tasks $B list --format tsv | cut -f4)"
            psql -qc 'GRANT INSERT ON tasks_schema TO teammate' "$DB"
            tasks $A sync 2> err; echo "writable: $?"; cat err
            psql -qc 'REVOKE INSERT ON tasks_schema FROM teammate' "$DB"
            tasks $A sync; echo "revoked: $?"
            psql -qc 'UPDATE tasks_schema SET version = 999' "$DB"
            PGPASSWORD=teammate-secret tasks $B add two -q && PGPASSWORD=teammate-secret tasks $B sync 2> err; echo "newer, with a change: $?"; grep -c 'set up by a newer tasks (remote schema 999' err
            psql -qc "INSERT INTO tasks_change (id, node, origin, hlc, task, fields) VALUES ('x', 'peer', 'peer', 1, '01a24935-0000-7000-8000-000000000009', '{\\"title\\": \\"from the future\\"}')" "$DB"
            tasks $A sync; echo "newer, reading: $? $(tasks $A list --format tsv | cut -f4 | sort | tr '\\n' ,)"
            """, database: "teammate", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("teammate: 0 one\n"), "\(result)")
        #expect(result.stdout.contains("writable: 1\ntasks: the remote postgresql://"), "\(result)")
        #expect(result.stdout.contains("is not safe to sync with: tasks_schema can be written by teammate, not only by its owner; its owner should run: REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON tasks_schema FROM teammate"), "\(result)")
        #expect(result.stdout.contains("revoked: 0\nnewer, with a change: 1\n1\nnewer, reading: 0 from the future,one,\n"), "\(result)")
        #expect(!result.stdout.contains("teammate-secret"))
    }

    /// What another machine wrote arrives through PostgreSQL as it was written, and reaches
    /// this terminal visibly, never as a sequence (issue 51): the sync's own lines, the list,
    /// `show`, the history, the lists and tags, under a pseudo-terminal.
    @Test func whatAnotherMachineWroteNeverReachesTheTerminalAsASequence() throws {
        let folder = TemporaryFolder()
        let result = try sync(#"""
            \#(TerminalInjectionTests.payload)
            E=$(cat evil)
            tasks $A add "T $E" --list "L$E" --notes "N $E" --tag "g$E" -q && tasks $A annotate 1 "A $E" -q || exit 9
            tasks $A sync --remote "$URL" -q || exit 9
            cat > run.sh <<SCRIPT
            tasks $B sync --remote "$URL"; tasks $B list; tasks $B show 1; tasks $B history; tasks $B lists; tasks $B tags
            SCRIPT
            script -qec 'sh run.sh' /dev/null > terminal.out 2>&1; echo "status $?"
            \#(TerminalInjectionTests.check)
            grep -c 'received 1 (1 new)' terminal.out
            tasks $B show 1 --format json | grep -c 'A \\u001b\[2J'
            """#, database: "terminal_injection", in: folder)
        #expect(result.stdout.hasPrefix("status 0\n"), "\(result)")
        for kind in ["ESC", "BEL", "DEL", "C1", "RLO", "LRI", "ZWSP", "BOM", "MARK", "STRAY ZWJ"] {
            #expect(result.stdout.contains("\n\(kind): 0 \n"), "\(kind) reached the terminal raw\n\(result)")
        }
        #expect(result.stdout.hasSuffix("\n1\n1\n"), "the sync said so, and the annotation arrived byte for byte\n\(result)")
    }
}
