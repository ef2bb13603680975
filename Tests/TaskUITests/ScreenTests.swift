import QueryLanguage
import ReactorCore
import TaskModel
import _TaskServiceFake
import TaskReactors
import TerminalKit
import _TestSupport
import Testing
@testable import TaskUI

let today = CalendarDay("2026-11-29") ?? CalendarDay(daysSince1970: 0)!

func task(_ id: Int64, _ title: String, list: String = "Inbox", done: Bool = false, due: String? = nil,
          priority: Priority? = nil, tags: [String] = []) -> Task {
    Task(id: id, uuid: "uuid-\(id)", title: title, list: list, isDone: done, due: due.flatMap { CalendarDay($0) }, priority: priority,
         tags: tags, position: id * 100, created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0))
}

/// A list State as the reactor holds it: the totals and a window of `rows` from `start`.
func listState(_ rows: [Task], query: TaskQuery = TaskQuery(status: .all), start: Int = 0, total: Int? = nil, cursor: Int = 0) -> TaskListReactor.State {
    var state = TaskListReactor.State(query: query)
    var sections: [TaskQueryTotals.SectionCount] = []
    for row in rows {
        let header = query.header(for: row)
        if sections.last?.header == header { sections[sections.count - 1].count += 1 } else { sections.append(.init(header: header, count: 1)) }
    }
    state.totals = TaskQueryTotals(count: total ?? rows.count, sections: sections, largestID: rows.map(\.id).max() ?? 0)
    state.window = TaskWindow(start: start, rows: rows)
    state.cursor = cursor
    state.cursorID = state.task(at: cursor)?.id
    return state
}

/// A frame as a golden file shows it: each row's text between bars, then the styled runs.
func dump(_ screen: ScreenBuffer) -> String {
    var text = ""
    for row in 0..<screen.rows {
        var line = ""
        for column in 0..<screen.columns { line += screen[row, column].text }
        text += "|" + line + "|\n"
    }
    text += "styles:\n"
    for row in 0..<screen.rows {
        var column = 0
        while column < screen.columns {
            let style = screen[row, column].style
            var end = column
            while end < screen.columns && screen[row, end].style == style { end += 1 }
            if style != .plain {
                var names: [String] = []
                if style.bold { names.append("bold") }
                if style.dim { names.append("dim") }
                if style.underline { names.append("underline") }
                if style.reverse { names.append("reverse") }
                if let color = style.foreground { names.append("\(color)") }
                if let color = style.background { names.append("on \(color)") }
                text += "  row \(row) columns \(column)-\(end - 1): \(names.joined(separator: " "))\n"
            }
            column = end
        }
    }
    return text
}

func assertGolden(_ screen: ScreenBuffer, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if let mismatch = goldenMismatch(dump(screen), named: "TaskUI/" + name) {
        Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
    }
}

@Suite("The list and editor screens: State in, cells out")
struct ScreenTests {
    let rows = [
        task(1, "Buy milk"),
        task(2, "한국어 제목이 있는 할 일", due: "2026-11-20", priority: .high, tags: ["집"]),
        task(3, "Emoji 😀 party 🎉", done: true, tags: ["fun", "weekend"]),
        task(12, "Write the quarterly report for the board", list: "Work", due: "2026-12-24", tags: ["q4"]),
        task(13, "Escape \u{1B}[2J in a title", list: "Work"),
    ]

    private func screen(_ state: TaskListReactor.State, rows: Int, columns: Int, color: Bool = true,
                        setUp: (ListScreen) -> Void = { _ in }) -> ScreenBuffer {
        let reactor = TaskListReactor(service: FakeTaskService())
        reactor.isStubEnabled = true
        reactor.stub.state.accept(state)
        let view = ListScreen(keys: .never(), size: (rows, columns), style: ScreenStyle(color: color), today: { today })
        view.reactor = reactor
        setUp(view)
        view.layout()
        var buffer = ScreenBuffer(rows: rows, columns: columns)
        _ = view.draw(into: &buffer)
        return buffer
    }

    @Test func theListWithKoreanAndEmojiTitlesAndTheCursor() {
        assertGolden(screen(listState(rows, cursor: 1), rows: 10, columns: 72), "list-72x10.txt")
    }

    @Test func aNarrowWindowKeepsTheTitlesAndDropsWhatDoesNotFit() {
        assertGolden(screen(listState(rows, cursor: 3), rows: 9, columns: 20), "list-20x9.txt")
    }

    @Test func withoutColourOnlyTheCursorAndTheStatusBarAreMarked() {
        assertGolden(screen(listState(rows, cursor: 0), rows: 8, columns: 60, color: false), "list-no-colour-60x8.txt")
    }

    @Test func aSearchThatFindsNothing() {
        assertGolden(screen(listState([], query: TaskQuery(search: "zebra")), rows: 4, columns: 40), "list-nothing-found.txt")
    }

    @Test func aDeleteAsksOnTheStatusLine() {
        var state = listState(rows, cursor: 1)
        state.pendingDelete = rows[1]
        assertGolden(screen(state, rows: 8, columns: 60), "list-delete-question.txt")
    }

    @Test func rowsFarDownAResultShowTheirSectionHeaderFirst() {
        let window = (500..<520).map { task(Int64($0), "Task \($0)", list: $0 < 510 ? "Inbox" : "Work") }
        var state = listState(window, start: 500, total: 100_000, cursor: 505)
        state.totals.sections = [.init(header: "Inbox", count: 60_000), .init(header: "Work", count: 40_000)]
        state.totals.largestID = 100_000
        assertGolden(screen(state, rows: 8, columns: 50), "list-deep.txt")
    }

    /// Subtasks are indented under their parent as in `tasks list`, a step a generation; a
    /// screen scrolled into a family keeps its steps (the rows above it in memory count), and
    /// a subtask whose parent is not right above it is not indented.
    @Test func subtasksAreIndentedUnderTheirParents() {
        func child(_ id: Int64, _ title: String, of parent: Int64) -> Task {
            var made = task(id, title)
            made.parent = "uuid-\(parent)"
            return made
        }
        let family = [task(1, "Plan the move"), child(2, "Book the van", of: 1), child(3, "Pack 📦 상자", of: 1),
                      child(4, "Kitchen", of: 3), task(5, "Water the plants"), child(6, "Orphan's step", of: 9)]
        let lines = dump(screen(listState(family, cursor: 4), rows: 8, columns: 40)).split(separator: "\n").map(String.init)
        #expect(lines[1] == "|   1  [ ]  Plan the move                |", "\(lines)")
        #expect(lines[2] == "|   2  [ ]    Book the van               |", "\(lines)")
        #expect(lines[3] == "|   3  [ ]    Pack 📦 상자               |", "\(lines)")
        #expect(lines[4] == "|   4  [ ]      Kitchen                  |", "\(lines)")
        #expect(lines[5].hasPrefix("|   5  [ ]  Water the plants"), "\(lines)")
        #expect(lines[6].hasPrefix("|   6  [ ]  Orphan's step"), "\(lines)")
        // Scrolled so that the parent is above the screen: Kitchen keeps its two steps.
        let scrolled = dump(screen(listState(family, cursor: 3), rows: 3, columns: 40)).split(separator: "\n").map(String.init)
        #expect(scrolled.contains("|   4  [ ]      Kitchen                  |"), "\(scrolled)")
    }

    @Test func theEditorWithAnErrorBesideItsField() {
        let reactor = TaskEditReactor(mode: .edit(rows[1]), service: FakeTaskService(), today: { today })
        let keys = PublishSubject<Key>()
        let view = EditScreen(keys: keys, size: (12, 70), style: ScreenStyle(color: true))
        view.reactor = reactor
        // To the due field, clear it, type a day that is not one, save.
        for key: Key in [.tab, .tab, .tab, .control("u"), .character("s"), .character("o"), .character("o"), .character("n"), .control("s")] {
            keys.onNext(key)
        }
        var buffer = ScreenBuffer(rows: 12, columns: 70)
        let caret = view.draw(into: &buffer)
        assertGolden(buffer, "editor-error.txt")
        #expect(caret?.row == 6, "the caret moved to the field in error (Due)")
    }

    /// Issue 28: a save with three fields in error shows why beside each of them at once (the
    /// cursor on the first), and mending one takes its reason away.
    @Test func everyFieldInErrorSaysWhyAtOnce() {
        let reactor = TaskEditReactor(mode: .new, service: FakeTaskService(), today: { today })
        let keys = PublishSubject<Key>()
        let view = EditScreen(keys: keys, size: (16, 120), style: ScreenStyle(color: false))
        view.reactor = reactor
        func type(_ text: String) { for character in text { keys.onNext(.character(character)) } }
        type("Pay rent")
        for _ in 1...3 { keys.onNext(.tab) }
        type("soon")
        keys.onNext(.tab)
        type("Z")
        for _ in 1...3 { keys.onNext(.tab) }
        type("fry")
        keys.onNext(.control("s"))
        var buffer = ScreenBuffer(rows: 16, columns: 120)
        let caret = view.draw(into: &buffer)
        let lines = (0..<16).map { buffer.text(row: $0) }
        func line(_ label: String) -> String { lines.first { $0.hasPrefix(" " + label) } ?? "" }
        #expect(line("Due").contains("soon") && line("Due").contains("not"), "\(lines)")
        #expect(line("Priority").contains("Z  "), "\(line("Priority"))")
        #expect(line("Priority").count > 30, "a reason beside the priority: \(line("Priority"))")
        #expect(line("Wait").contains("fry") && line("Wait").contains("not"), "\(line("Wait"))")
        #expect(caret?.row == lines.firstIndex { $0.hasPrefix(" Due") }, "the cursor on the first field in error")
        keys.onNext(.control("u"))
        type("fri")
        var mended = ScreenBuffer(rows: 16, columns: 120)
        _ = view.draw(into: &mended)
        let due = (0..<16).map { mended.text(row: $0) }.first { $0.hasPrefix(" Due") } ?? ""
        #expect(!due.contains("not"), "mended: its reason is gone: \(due)")
    }

    /// Issue 28: Tab completes a list name and a date word before it moves on.
    @Test func tabCompletesTheListAndADateWordThenMovesOn() {
        let reactor = TaskEditReactor(mode: .new, service: FakeTaskService(), today: { today })
        let keys = PublishSubject<Key>()
        let view = EditScreen(keys: keys, size: (16, 80), style: ScreenStyle(color: false))
        view.listNames = ["Home", "Home.Garden", "Work"]
        view.reactor = reactor
        func type(_ text: String) { for character in text { keys.onNext(.character(character)) } }
        type("Pay rent")
        keys.onNext(.tab)
        keys.onNext(.tab)
        #expect(view.focus == .list)
        for _ in 0..<5 { keys.onNext(.backspace) }
        type("wo")
        keys.onNext(.tab)
        #expect(reactor.currentState.fields.list == "Work" && view.focus == .list, "completed, still in the list")
        keys.onNext(.tab)
        #expect(view.focus == .due, "complete already: Tab moves on")
        type("fri 17:30 tom")
        keys.onNext(.tab)
        #expect(reactor.currentState.fields[.due] == "fri 17:30 tomorrow", "the word being typed")
        #expect(view.completion(of: "eo", in: .due) == "eo", "several words begin so: their common start")
        #expect(view.completion(of: "H", in: .list) == "Home", "Home and Home.Garden share Home")
        #expect(view.completion(of: "x", in: .title) == nil)
    }

    /// Issue 28: a title longer than its room scrolls with the caret, `…` marking what is cut
    /// before it; Home shows its start again.
    @Test func aLongLineScrollsWithTheCaret() {
        let reactor = TaskEditReactor(mode: .new, service: FakeTaskService(), today: { today })
        let keys = PublishSubject<Key>()
        let view = EditScreen(keys: keys, size: (12, 30), style: ScreenStyle(color: false))
        view.reactor = reactor
        let title = "Write the quarterly report 한국어 for the board"
        for character in title { keys.onNext(.character(character)) }
        var buffer = ScreenBuffer(rows: 12, columns: 30)
        let caret = view.draw(into: &buffer)
        let line = buffer.text(row: 2)
        #expect(line.contains("…") && line.contains("the board"), "\(line)")
        #expect(caret?.column == 28, "the caret on the field's last cell: \(String(describing: caret))")
        keys.onNext(.home)
        var start = ScreenBuffer(rows: 12, columns: 30)
        let home = view.draw(into: &start)
        #expect(start.text(row: 2).contains("Write the") && !start.text(row: 2).contains("…W"), "\(start.text(row: 2))")
        #expect(home?.column == 11)
        #expect(EditScreen.dropping(cells: 3, of: "한국어") == " 어", "a wide character cut in half goes, a space stands for its half")
    }

    /// Issue 26: the form grew to ten fields; in a short window it scrolls to the one focused.
    @Test func theEditorScrollsToTheFocusedFieldInAShortWindow() {
        let reactor = TaskEditReactor(mode: .edit(rows[1]), service: FakeTaskService(), today: { today })
        let keys = PublishSubject<Key>()
        let view = EditScreen(keys: keys, size: (10, 40), style: ScreenStyle(color: false))
        view.reactor = reactor
        for _ in 1...9 { keys.onNext(.tab) }  // to Until, the last field
        var buffer = ScreenBuffer(rows: 10, columns: 40)
        let caret = view.draw(into: &buffer)
        let text = (0..<10).map { buffer.text(row: $0) }
        #expect(text[8].hasPrefix(" Until"), "the focused field shows, on the last row above the status line: \(text)")
        #expect(caret?.row == 8)
        #expect(text[0].contains("Edit task"), "the heading stays")
    }
}
