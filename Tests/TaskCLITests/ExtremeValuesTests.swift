import _TestSupport
import TaskModel
import Testing

/// Values at the ends of the integers, as a peer, an import or the sqlite3 shell can leave them
/// in the file: every command that computes with them still runs (they trapped with status 132:
/// issue 50).
@Suite("tasks with values at the ends of the integers", .enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
struct ExtremeValuesTests {
    @Test func positionsAtTheEndsOfTheIntegersMoveAndAddWithoutTrapping() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            printf 'first\\nsecond\\n' | tasks add - --list Home -q || exit 9
            sqlite3 tasks.db "UPDATE task SET position = 9223372036854775807 WHERE id = 1; UPDATE task SET position = -9223372036854775808 WHERE id = 2"
            tasks add third --list Home -q; echo "add $?"
            tasks move 3 --top -q; echo "top $?"
            tasks move 3 --bottom -q; echo "bottom $?"
            tasks move 3 --after 2 -q; echo "after $?"
            tasks move 3 --before 1 -q; echo "before $?"
            tasks move 1 --list Home2 -q && tasks move 1 --list Home -q; echo "list $?"
            printf 'fourth\\nfifth\\n' | tasks add - --list Home -q; echo "add - $?"
            tasks list --format tsv | cut -f4 | tr '\\n' ,; echo
            """, in: folder)
        #expect(result.stdout.hasPrefix("add 0\ntop 0\nbottom 0\nafter 0\nbefore 0\nlist 0\nadd - 0\n"), "\(result)")
        // Second was first at -2^63; the new ones follow the task at 2^63 - 1 in the order made.
        #expect(result.stdout.hasSuffix("second,third,first,fourth,fifth,\n"), "\(result)")
    }

    @Test func startsAndTimesSpentAtTheEndsOfTheIntegersShowAndStopWithoutTrapping() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            printf 'one\\ntwo\\n' | tasks add - -q || exit 9
            sqlite3 tasks.db "UPDATE task SET start = -9223372036854775808, spent = 9223372036854775807 WHERE id = 1; UPDATE task SET start = 9223372036854775807 WHERE id = 2"
            tasks active > /dev/null; echo "active $?"
            tasks active --format tsv > /dev/null; echo "active tsv $?"
            tasks show 1 > /dev/null; echo "show $?"
            tasks show 2 --format json > /dev/null; echo "show json $?"
            tasks stop 1 -q; echo "stop $?"
            tasks done 2 -q; echo "done $?"
            sqlite3 tasks.db "SELECT spent FROM task ORDER BY id"
            """, in: folder)
        #expect(result.stdout == "active 0\nactive tsv 0\nshow 0\nshow json 0\nstop 0\ndone 0\n9223372036854775807\n0\n", "\(result)")
    }

    /// The table-driven paths — CSV export's columns, report cells, sort keys, the vocabulary's
    /// comparisons — read the same columns at their ends without trapping.
    @Test func exportsColumnsAndOrdersReadTheEndsOfTheIntegers() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            printf 'one\\ntwo\\n' | tasks add - -q || exit 9
            sqlite3 tasks.db "UPDATE task SET start = -9223372036854775808, spent = 9223372036854775807, completed = 9223372036854775807, created = -9223372036854775808, modified = 9223372036854775807, position = 9223372036854775807 WHERE id = 1"
            tasks export --format csv > /dev/null; echo "csv $?"
            tasks list --all --columns id,created,modified,completed,start,priority,score --format tsv > /dev/null; echo "columns $?"
            tasks list --all --columns id,created,start --format table > /dev/null; echo "table $?"
            tasks list --all --sort created-,start,completed-,priority,score- --format ids | tr '\\n' ,; echo
            tasks list --all created.before:today start.after:2020-01-01 priority.any: --format ids; echo "filter $?"
            """, in: folder)
        #expect(result.stdout == "csv 0\ncolumns 0\ntable 0\n2,1,\nfilter 0\n", "\(result)")
    }

    @Test func aClockAtTheEndOfTheIntegersOrdersButIsNotFollowed() {
        let now: Int64 = 1_796_000_000_000
        #expect(HybridClock.next(after: .max, wallMilliseconds: now) == .max)
        #expect(HybridClock.next(after: 0, wallMilliseconds: .max) == HybridClock.maximumMilliseconds << 16)
        #expect(HybridClock.next(after: 0, wallMilliseconds: .min) == 1)
        #expect(HybridClock.believed(.max, at: now) == (now + HybridClock.aheadAllowance) << 16)
        #expect(HybridClock.believed(now << 16, at: now) == now << 16)
        #expect(HybridClock.believed(.max, at: .max) <= .max)
        // A change made here after the peer's extreme clock follows what was believed of it.
        #expect(HybridClock.next(after: HybridClock.believed(.max, at: now), wallMilliseconds: now) == ((now + HybridClock.aheadAllowance) << 16) + 1)
    }

    /// A Taskwarrior instance's `imask` as a file may hold it — past the integers, negative,
    /// not a number — completed here: the next occurrence is made, without a trap, and takes no
    /// place in the series it cannot count (issue 53).
    @Test func aTaskwarriorImaskAtTheEndsOfTheIntegersMakesNoTrap() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            # Due ten days ahead: the next occurrence is then one week on, one place on.
            due=$(date -u -d '+10 days' +%Y%m%dT050000Z)
            for mask in 1e308 -5 9223372036854775807 '"x"' 3; do
              rm -f tasks.db*
              printf '[{"uuid":"6d8c6f5d-425b-45ee-8151-1c99b679c5ed","description":"Water","status":"pending","entry":"20261101T000000Z","due":"%s","recur":"weekly","parent":"709574fd-d659-4763-b967-474113afe168","imask":%s,"rtype":"periodic"}]' "$due" "$mask" > tw.json
              tasks import --format taskwarrior tw.json 2> /dev/null || { echo "import $?"; continue; }
              tasks done 1 -q; echo "done $?"
              tasks export --format taskwarrior 2> /dev/null | grep -o '"imask":[^,}]*' | tr '\n' ' '; echo
            done
            """, in: folder)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 10 && lines.enumerated().allSatisfy { $0.offset % 2 == 1 || $0.element == "done 0" }, "\(result)")
        #expect(lines.last == "\"imask\":3 \"imask\":4 ", "a count it can make, it makes: \(result)")
        for index in [1, 3, 5, 7] { #expect(lines[index].split(separator: " ").count == 1, "only the done one keeps its own: \(result)") }
    }
}
