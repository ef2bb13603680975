import QueryLanguage
import TaskModel
import TaskReactors
import TerminalKit
import Testing
@testable import TaskUI

/// Where the screen scrolls to: the cursor's row always on screen with its section's header
/// above it, whatever the window has read, and no blank rows while rows above are hidden.
@Suite("The list screen's scrolling")
struct ScrollingTests {
    /// 6 tasks in Home, 6 in Inbox, 40 in Work: three headers.
    static let drafts: [TaskDraft] = (1...6).map { TaskDraft(title: "Home \($0)", list: "Home") }
        + (1...6).map { TaskDraft(title: "Inbox \($0)") }
        + (1...40).map { TaskDraft(title: "Work \($0)", list: "Work") }

    /// The list area's lines (the status line left out) and the one the cursor is on.
    private func shown(_ ui: WorkingKeysTests.Harness) -> (lines: [String], cursorLine: Int?) {
        let frame = ui.frame
        let lines = (0..<(ui.size.rows - 1)).map { frame.text(row: $0).trimmingTrailingSpaces }
        let cursor = (0..<(ui.size.rows - 1)).first { frame[$0, 2].style.reverse }
        return (lines, cursor)
    }

    @Test func capitalGWithSeveralListsShowsTheLastRow() {
        let ui = WorkingKeysTests.Harness(Self.drafts, rows: 8, columns: 40)
        ui.type(.character("G"))
        let (lines, cursor) = shown(ui)
        #expect(cursor == lines.count - 1, "the last row is the cursor's: \(lines)")
        #expect(lines.last?.hasSuffix("Work 40") == true, "\(lines)")
        #expect(lines.first == "Work (40)", "its header first: \(lines)")
    }

    @Test func everyRowTheCursorReachesIsOnScreenWithAHeaderAbove() {
        let ui = WorkingKeysTests.Harness(Self.drafts, rows: 7, columns: 40)
        for step in 0..<Self.drafts.count {
            let (lines, cursor) = shown(ui)
            #expect(cursor != nil, "row \(step) is on screen: \(lines)")
            #expect(lines.first?.hasSuffix(")") == true, "a header at the top: \(lines)")
            ui.type(.character("j"))
        }
        ui.type(.character("g"))
        #expect(shown(ui).cursorLine == 1, "g: the first row, under Home's header")
    }

    @Test func aWindowGrownTallerShowsTheTopAgain() {
        let ui = WorkingKeysTests.Harness(Array(Self.drafts.prefix(12)), rows: 6, columns: 40)
        ui.type(.character("G"))
        #expect(shown(ui).lines.first == "Inbox (6)")
        ui.size = (20, 40)
        let (lines, cursor) = shown(ui)
        #expect(lines.first == "Home (6)", "all 14 lines fit: none hidden above \(lines)")
        #expect(cursor == 13, "the cursor stays on the last task: \(lines)")
    }

    @Test func aTaskAddedOrChangedOutOfTheViewSaysWhy() {
        var query = TaskQuery(status: .pending)
        query.filter = .and([.term(.tag("bills"))])
        let zero = Timestamp(millisecondsSince1970: 0)
        var task = Task(id: 21, uuid: "u", title: "Call mum", list: "Home", created: zero, modified: zero)
        #expect(ListScreen.hiddenNote(for: .create(task), in: query) == " — hidden by the filter +bills")
        task.tags = ["bills"]
        #expect(ListScreen.hiddenNote(for: .create(task), in: query) == "")
        task.isDone = true
        #expect(ListScreen.hiddenNote(for: .markAsDone(task), in: query) == "", "done leaves as expected")
        #expect(ListScreen.hiddenNote(for: .update(task), in: query) == " — done")
        let waiting = Task(id: 22, uuid: "w", title: "Renew passport", list: "Inbox", created: zero, modified: zero,
                           wait: CalendarDay(year: 2027, month: 1, day: 4))
        var pending = TaskQuery(status: .pending)
        pending.today = CalendarDay(year: 2026, month: 12, day: 3)
        #expect(ListScreen.hiddenNote(for: .update(waiting), in: pending) == " — waiting until 2027-01-04 (f: the waiting report)")
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
