#if canImport(Glibc)
import Glibc
#endif
import TextFormats
import _TestSupport
import Testing

/// Issue 55: `tasks ui`'s calendar pane (`c`): moving through the days moves the list to the
/// tasks due on the day chosen; closing it gives the list back. On the real clock, so the
/// days are read from `date`.
@Suite("tasks ui's calendar in tmux", .serialized, .enabled(if: tasksBinary != nil && access("/usr/bin/tmux", X_OK) == 0, "needs tmux and the binary"))
struct UICalendarTmuxTests {
    @Test func movingThroughTheDaysMovesTheList() throws {
        let folder = TemporaryFolder()
        _ = try tasksShell("""
            tasks add Due today 한국어 due:today > /dev/null
            tasks add Due tomorrow 😀 due:tomorrow > /dev/null
            tasks add Was due yesterday due:yesterday > /dev/null
            tasks add No date at all > /dev/null
            date +%F > today; date -d tomorrow +%F > tomorrow; date -d yesterday +%F > yesterday; date -d '+7 days' +%F > later
            """, in: folder)
        func day(_ name: String) -> String { String(decoding: readBytes(folder.file(name)), as: UTF8.self).trimmingWhitespace }
        let (today, tomorrow, yesterday, later) = (day("today"), day("tomorrow"), day("yesterday"), day("later"))
        try #require(today.utf8.count == 10)
        let tmux = try Tmux(folder, columns: 100, rows: 16)
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("No date at all") && $0.contains("Due tomorrow") })
        tmux.send("c")
        let dayOfMonth = String(Int(today.suffix(2)) ?? 0)
        #expect(tmux.wait { $0.contains("\(today) · 1 task due") && $0.contains("Due today 한국어") && !$0.contains("No date at all") && !$0.contains("Due tomorrow")
            && $0.contains("· due \(today) ·") },
                "\(tmux.screen)")
        #expect(tmux.screen.contains(dayOfMonth + "*"), "today's day is marked as having a task due: \(tmux.screen)")
        tmux.send("l")
        #expect(tmux.wait { $0.contains("\(tomorrow) · 1 task due") && $0.contains("Due tomorrow 😀") && !$0.contains("Due today") }, "\(tmux.screen)")
        tmux.send("h", "h")
        #expect(tmux.wait { $0.contains("\(yesterday) · 1 task due") && $0.contains("Was due yesterday") && !$0.contains("Due tomorrow") }, "\(tmux.screen)")
        // Back to today, then a week on: nothing is due then, and the list says so.
        tmux.send(".", "L")
        #expect(tmux.wait { $0.contains("\(later) · Nothing due") && !$0.contains("Due today") && !$0.contains("No date at all") }, "\(tmux.screen)")
        tmux.send("c")
        #expect(tmux.wait { $0.contains("No date at all") && $0.contains("Due tomorrow") && $0.contains("Due today") && !$0.contains("task due") }, "\(tmux.screen)")
        tmux.send("q")
        #expect(try tasksShell("tasks list --format ids", in: folder).stdout == "1\n2\n3\n4\n", "nothing changed")
    }
}
