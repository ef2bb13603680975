#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// `tasks sync` against a hostile CalDAV server: `scripts/hostile-caldav`, a proxy in front of a
/// real Radicale that leaves items out of its answers, puts their text in a failed propstat,
/// redirects writes to another host, names items on another host or above the calendar home,
/// nests its XML 100,000 deep or trickles its answer. Machine A syncs through the proxy, machine
/// B straight with Radicale. Whatever the proxy does, no task is deleted on its word, no byte of
/// an item or of the password reaches another host (the proxy's sink records any request), and
/// the sync ends with a message, never a crash or a hang (issue 50).
@Suite("tasks sync against a hostile CalDAV server", .serialized,
       .enabled(if: tasksBinary != nil && executableBesideTests("tasks-caldav") != nil, "needs tasks and tasks-caldav beside the tests"))
struct SyncCalDAVHostileTests {
    static let hostile = fixturesFolder().replacingSuffix("/Fixtures", with: "/scripts/hostile-caldav")

    /// Runs `script` with `$URL` (Radicale itself, for B), `$HURL` (the hostile proxy, for A),
    /// `A`, `B` two machines' files, `mode WORD` switching the proxy, and `$SINK` its sink's port.
    func hostile(_ script: String, _ server: CalDAVServer, _ folder: TemporaryFolder) throws -> ShellResult {
        let result = try tasksShell("""
            export URL='\(server.urlWithPassword)'
            A='--db \(folder.file("a.db"))'; B='--db \(folder.file("b.db"))'
            export HOME="$PWD"; printf 'machine 127.0.0.1 login \(server.user) password \(server.password)\n' > .netrc; chmod 600 .netrc
            python3 '\(Self.hostile)' \(server.port) "$PWD" 2> proxy.err & HOSTILE=$!
            trap 'kill $HOSTILE 2>/dev/null' EXIT
            for _ in $(seq 300); do [ -f ports ] && break; sleep 0.1; done
            P=$(awk '/proxy/ {print $2}' ports); SINK=$(awk '/sink/ {print $2}' ports)
            export HURL="http://\(server.user):\(server.password)@127.0.0.1:$P/"
            mode() { echo "$1" > mode; }
            titles() { tasks $1 list --all --format tsv | cut -f4 | sort | tr '\\n' ,; echo; }
            \(script)
            echo "--- sink"; cat sink.log 2>/dev/null; echo "--- escaped"; cat escaped.log 2>/dev/null; echo "--- end"
            """, in: folder)
        #expect(!result.stdout.contains(server.password) && !result.stderr.contains(server.password), "the password printed\n\(result)")
        for name in ["a.db", "b.db", "a.db-wal", "b.db-wal"] {
            #expect(!readBytes(folder.file(name)).contains(Array(server.password.utf8)), "\(name) holds the password")
        }
        #expect(result.stdout.hasSuffix("--- sink\n--- escaped\n--- end\n"), "a request reached another host or left the home\n\(result)")
        return result
    }

    /// An answer that leaves items out, or cannot give their text, deletes nothing here, and
    /// its collection's ctag is not remembered: the next honest sync receives what it missed.
    /// A delete the server does say (the item's own 404) still deletes.
    @Test func omissionsDeleteNothingAndTheNextSyncCatchesUp() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let result = try hostile("""
            printf 'one\\ntwo\\nthree\\n' | tasks $A add - -q && tasks $A sync --remote "$HURL" && tasks $B sync --remote "$URL" || exit 9
            for m in omit-items omit-multiget multiget-500 no-collections; do
                tasks $B edit 2 --title "two $m" && tasks $B sync || exit 9
                mode $m; tasks $A sync 2> err; echo "$m: status $? $(titles "$A")"; cat err
                mode ''; tasks $A sync || exit 9; echo "$m then: $(titles "$A")"
            done
            tasks $B delete 3 -q && tasks $B sync || exit 9
            mode omit-items; tasks $A sync; echo "deleted there: status $? $(titles "$A")"
            mode ''; tasks $A sync && tasks $B sync; echo "A: $(titles "$A") B: $(titles "$B")"
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        // During each hostile round A keeps what it had (omit-items even receives the edit: an
        // item left out of the listing is asked for itself, and answers); the next round
        // receives what the hostile one missed.
        for (mode, during) in [("omit-items", "two omit-items"), ("omit-multiget", "two omit-items"),
                               ("multiget-500", "two omit-multiget"), ("no-collections", "two multiget-500")] {
            #expect(result.stdout.contains("\(mode): status 0 one,three,\(during),\n"), "\(mode)\n\(result)")
            #expect(result.stdout.contains("\(mode) then: one,three,two \(mode),\n"), "\(mode)\n\(result)")
        }
        #expect(result.stdout.contains("deleted there: status 0 one,two no-collections,\n"), "\(result)")
        #expect(result.stdout.contains("A: one,two no-collections, B: one,two no-collections,\n"), "\(result)")
    }

    /// Writes go out several at once (at most six: what a browser opens to one host), and a
    /// server that answers 503 is asked again after its Retry-After and from then on one write
    /// at a time. Either way every write arrives once: B, straight on Radicale, sees them all.
    @Test func writesGoSeveralAtOnceAndABusyServerIsHeard() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let result = try hostile("""
            mode slow-writes; seq 1 30 | sed 's/^/task /' | tasks $A add - -q && tasks $A sync --remote "$HURL" > /dev/null
            echo "slow: status $? peak $(cat peak)"
            tasks $B sync --remote "$URL" > /dev/null && echo "B: $(tasks $B count)"
            mode busy; tasks $A 1-30 modify priority:H < /dev/null > /dev/null && tasks $A sync 2> err
            echo "busy: status $? peak $(cat peak-after) $(cat busy.log | cut -c1-8)"; cat err
            mode ''; tasks $B sync > /dev/null && echo "B: $(tasks $B count priority:H)"
            mode busy; tasks $A delete 1-30 -q < /dev/null && tasks $A sync && tasks $B sync > /dev/null; echo "deleted: $? $(tasks $B count)"
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        let slow = result.stdout.split(separator: "\n").first { $0.hasPrefix("slow: status 0 peak ") }
        let peak = slow.flatMap { Int($0.dropFirst("slow: status 0 peak ".count)) } ?? 0
        #expect((2...6).contains(peak), "writes in flight at once: \(peak)\n\(result)")
        #expect(result.stdout.contains("B: 30\n"), "\(result)")
        #expect(result.stdout.contains("busy: status 0 peak 1 503 PUT \n"), "\(result)")
        #expect(result.stdout.contains("B: 30\ndeleted: 0 0\n"), "\(result)")
    }

    /// A redirect answering a write is not followed (the write fails, and counts for nothing);
    /// a read is redirected only on the same origin; an href naming another host, or a path
    /// above the calendar home, is refused. Nothing reaches the sink.
    @Test func redirectsAndForeignHrefsSendNothingElsewhere() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let result = try hostile("""
            printf 'one\\ntwo\\n' | tasks $A add - -q && tasks $A sync --remote "$HURL" && tasks $B sync --remote "$URL" || exit 9
            for m in redirect-put-307 redirect-put-302; do
                tasks $A edit 1 --title "one $m" -q
                mode $m; tasks $A sync 2> err; echo "$m: status $?"; grep -c 'a redirect tasks does not follow' err
                tasks $B sync; echo "$m there: $(titles "$B")"
                mode ''; tasks $A sync && tasks $B sync; echo "$m then: $(titles "$B")"
            done
            mode redirect-read; tasks $A sync 2> err; echo "redirect-read: status $?"; grep -c 'HTTP 301' err
            for m in at-href dotdot-href; do
                tasks $B edit 2 --title "two $m" && tasks $B sync || exit 9
                mode $m; tasks $A sync 2> err; echo "$m: status $? $(titles "$A")"; cat err
            done
            mode ''; tasks $A sync; echo "A: $(titles "$A") B: $(titles "$B")"
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        for mode in ["redirect-put-307", "redirect-put-302"] {
            #expect(result.stdout.contains("\(mode): status 1\n1\n"), "\(mode)\n\(result)")
            #expect(result.stdout.contains("\(mode) then: one \(mode),two,\n"), "\(mode)\n\(result)")
        }
        #expect(result.stdout.contains("redirect-put-307 there: one,two,\n"), "\(result)")
        #expect(result.stdout.contains("redirect-put-302 there: one redirect-put-307,two,\n"), "\(result)")
        #expect(result.stdout.contains("redirect-read: status 1\n1\n"), "\(result)")
        // The edit's item, named elsewhere, is asked for at its own remembered path instead.
        #expect(result.stdout.contains("at-href: status 0 one redirect-put-302,two at-href,\n"), "\(result)")
        #expect(result.stdout.contains("dotdot-href: status 0 one redirect-put-302,two dotdot-href,\n"), "\(result)")
        #expect(result.stdout.contains("A: one redirect-put-302,two dotdot-href, B: one redirect-put-302,two dotdot-href,\n"), "\(result)")
    }

    /// XML nested 100,000 deep is refused with a message (it crashed the reader); a server
    /// that trickles its answer fails the sync at the remote's `timeout`. Neither changes the file.
    @Test func deepXMLAndATricklingServerEndTheSyncCleanly() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let result = try hostile("""
            tasks $A add one -q && tasks $A sync --remote "$HURL" || exit 9
            mkdir -p .config/tasks; printf '[remote.slow]\\nurl = "http://alice@127.0.0.1:%s/"\\ntimeout = 2\\n' $P > .config/tasks/config
            tasks $A add two -q
            sqlite3 a.db .dump > before.sql
            mode deep-xml; tasks $A sync slow 2> err; echo "deep: status $?"; grep -c 'nested more than 256 deep' err
            start=$(date +%s); mode trickle; tasks $A sync slow 2> err; status=$?; took=$(( $(date +%s) - start ))
            echo "trickle: status $status, within 10 s: $([ $took -le 10 ] && echo yes || echo "no, $took s")"; grep -c 'longer than its 2 s' err
            sqlite3 a.db .dump | cmp -s - before.sql && echo unchanged || echo CHANGED
            mode ''; tasks $A sync slow; echo "then: status $? $(titles "$A")"
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("deep: status 1\n1\n"), "\(result)")
        #expect(result.stdout.contains("trickle: status 1, within 10 s: yes\n1\n"), "\(result)")
        #expect(result.stdout.contains("unchanged\nthen: status 0 one,two,\n"), "\(result)")
    }

    /// Plain http:// to another machine would carry the password in the clear: refused before
    /// anything is sent, unless the remote's table says `insecure = true`, and then said on
    /// every sync. A password with `#`, `?` or `/` in it is printed nowhere.
    @Test func plainHTTPToAnotherMachineIsRefusedUnlessTheConfigurationAllowsIt() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            export HOME="$PWD"; tasks add one -q
            tasks sync --remote 'http://me:pa#ss/w?rd@192.0.2.7/dav/' 2> e1; echo "refused: $?"; cat e1
            mkdir -p .config/tasks; printf '[remote.lan]\\nurl = "http://me@192.0.2.7:1/dav/"\\ninsecure = true\\ntimeout = 1\\n' > .config/tasks/config
            tasks sync lan 2> e2; echo "allowed: $?"; cat e2
            tasks sync --remote 'http://me:pa#ss/w?rd@127.0.0.1:1/' 2> e3; echo "loopback: $?"; cat e3
            """, in: folder)
        #expect(result.stdout.contains("refused: 1\ntasks: plain http:// would send your password to 192.0.2.7 in the clear"), "\(result)")
        #expect(result.stdout.contains("allowed: 1\ntasks: warning: http://me@192.0.2.7:1/dav/ is plain http:// (insecure = true): the password goes to 192.0.2.7 unencrypted"), "\(result)")
        #expect(result.stdout.contains("loopback: 1\ntasks: cannot reach the CalDAV server http://me@127.0.0.1:1/"), "\(result)")
        #expect(!result.stdout.contains("pa#ss") && !result.stdout.contains("w?rd") && !result.stdout.contains("ss/w"), "\(result)")
    }

    /// An item another client wrote that `add` would refuse — no SUMMARY, an empty one — is
    /// kept aside with a warning naming its path and UID; every other item still syncs, both
    /// ways, and the next sync does not say it again.
    @Test func anItemAddWouldRefuseIsKeptAsideAndStopsNoSync() throws {
        let server = try CalDAVServer(.radicale)
        let folder = TemporaryFolder()
        let result = try hostile("""
            tasks $A add one -q && tasks $A sync --remote "$HURL" || exit 9
            COLLECTION=$(sqlite3 a.db "SELECT value FROM sync_memory" | awk -F '\\t' '$1 == "collection" {print $2; exit}')
            put() {
                python3 -c 'import base64, sys, urllib.request
            r = urllib.request.Request(sys.argv[1], data=sys.argv[2].replace("|", "\\r\\n").encode(), method="PUT",
                headers={"Authorization": "Basic " + base64.b64encode(b"\(server.user):\(server.password)").decode(), "Content-Type": "text/calendar"})
            urllib.request.urlopen(r)' "http://127.0.0.1:\(server.port)$COLLECTION$1.ics" "BEGIN:VCALENDAR|VERSION:2.0|PRODID:-//test//EN|BEGIN:VTODO|UID:$1|DTSTAMP:20261206T100000Z|$2END:VTODO|END:VCALENDAR|"
            }
            put no-summary 'SUMMARY:two\\nlines|' && put empty-summary 'SUMMARY:one|PRIORITY:1|X-TASKS-SPENT:-5|' && put fine 'SUMMARY:from another client|' || exit 8
            tasks $A add two -q
            tasks $A sync 2> err; echo "sync: $? $(grep -c 'kept aside' err)"; grep -o 'task [a-z-]* from 127.0.0.1 ([^)]*)' err | sort
            tasks $A sync 2> err; echo "again: $? $(grep -c 'kept aside' err)"
            titles "$A"
            tasks $B sync --remote "$URL" && titles "$B"
            """, server, folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("sync: 0 2\ntask empty-summary from 127.0.0.1 (/alice/"), "\(result)")
        #expect(result.stdout.contains("empty-summary.ics)\ntask no-summary from 127.0.0.1 (/alice/"), "\(result)")
        #expect(result.stdout.contains("again: 0 0\nfrom another client,one,two,\nfrom another client,one,two,\n"), "\(result)")
    }

    /// The helpers hold the password for a sync's length: neither makes a core dump (one held
    /// the password four times).
    @Test func theHelpersMakeNoCoreDump() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            for helper in tasks-caldav tasks-postgres; do
                sleep 5 | "$helper" & pid=$!
                sleep 0.3
                echo "$helper $(awk '/Max core file size/ {print $5, $6}' /proc/$pid/limits)"
                kill $pid 2>/dev/null
            done
            """, in: folder)
        #expect(result.stdout.contains("tasks-caldav 0 0"), "\(result)")
        #expect(result.stdout.contains("tasks-postgres 0 0"), "\(result)")
    }
}
