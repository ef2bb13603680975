#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// A change chosen by a filter, as a person at a terminal makes it: the count and the first
/// rows shown and `(y/n)` asked in a real terminal (tmux), `n` changing nothing; and a report
/// and the context's header line in the same terminal.
@Suite("Bulk changes and reports in tmux", .serialized, .enabled(if: tasksBinary != nil && access("/usr/bin/tmux", X_OK) == 0, "needs tmux and the binary"))
struct BulkTmuxTests {
    @Test func aFilteredChangeOfMoreThanThreeTasksAsksFirst() throws {
        let folder = TemporaryFolder()
        _ = try tasksShell("printf 'a\\nb\\nc\\nd\\n한국어 할 일 😀\\n' | tasks add - -t x > /dev/null", in: folder)
        let tmux = try Tmux(folder, columns: 60, rows: 16)
        tmux.type("tasks done +x")
        #expect(tmux.wait { $0.contains("Mark done these 5 tasks? (y/n)") }, "\(tmux.screen)")
        #expect(tmux.screen.contains("5 tasks match:\n  1  a\n  2  b\n  3  c\n  4  d\n  5  한국어 할 일 😀\n"), "\(tmux.screen)")
        tmux.type("n")
        #expect(tmux.wait { $0.contains("nothing was changed") }, "\(tmux.screen)")
        tmux.type("tasks count +x; tasks count +DONE")
        #expect(tmux.wait { $0.contains("5\n0\n") }, "no is nothing changed: \(tmux.screen)")
        tmux.type("tasks done +x")
        #expect(tmux.wait { $0.contains("(y/n)") })
        tmux.type("y")
        #expect(tmux.wait { $0.contains("Done 5: 한국어 할 일 😀") }, "\(tmux.screen)")
        tmux.type("tasks undo && tasks count +x status:pending")
        #expect(tmux.wait { $0.hasSuffix("5\n$") || $0.contains("\n5\n$") }, "one undo takes the five back: \(tmux.screen)")
        tmux.type("tasks done 1 2 3 4")
        #expect(tmux.wait { $0.contains("Done 4: d") }, "plain ids never ask: \(tmux.screen)")
    }

    @Test func aReportAndTheContextLineInATerminal() throws {
        let folder = TemporaryFolder()
        _ = try tasksShell("""
            tasks add Pay bills +bills priority:H due:2020-01-02 > /dev/null
            tasks add Buy milk list:Home > /dev/null
            """, in: folder)
        let tmux = try Tmux(folder, columns: 60, rows: 16)
        tmux.type("export XDG_CONFIG_HOME=$PWD/cfg XDG_STATE_HOME=$PWD/st; tasks overdue")
        #expect(tmux.wait { $0.contains("  id  due         list   title      priority  tags\n   1  2020-01-02  Inbox  Pay bills  H         +bills") },
                "\(tmux.screen)")
        tmux.type("clear; tasks context define home list:Home && tasks context home && tasks list")
        #expect(tmux.wait { $0.contains("Context home: list:Home\nHome (1)\n   2  [ ]  Buy milk") }, "\(tmux.screen)")
    }
}
