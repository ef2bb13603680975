import QueryLanguage
import ReactorCore
import TaskModel
import _TaskServiceFake
import TaskReactors
import TerminalKit
import Testing
import TextFormats
@testable import TaskUI

/// The keys that work without the editor — marks, the quick changes, `:42`, the details pane,
/// the sort, the help — on a list screen over the fake service: keys in, the service's tasks
/// and the frame out.
@Suite("The list screen's working keys")
struct WorkingKeysTests {
    /// A screen over a fake service seeded with `titles` (ids from 1), the keys typed in turn.
    final class Harness {
        let service = FakeTaskService()
        let keys = PublishSubject<Key>()
        let reactor: TaskListReactor
        let screen: ListScreen
        var size: (rows: Int, columns: Int) {
            didSet { screen.size = size }
        }

        init(_ drafts: [TaskDraft], rows: Int = 12, columns: Int = 80) {
            _ = service.create(drafts).subscribe()
            size = (rows, columns)
            reactor = TaskListReactor(service: service, query: TaskQuery(status: .pending))
            screen = ListScreen(keys: keys, size: (rows, columns), style: ScreenStyle(color: false), today: { today })
            screen.dateContext = { DateContext(now: Timestamp(millisecondsSince1970: 1_796_032_800_000), today: today, zone: .fixed(offsetSeconds: 0)) }
            screen.zone = .fixed(offsetSeconds: 0)
            screen.now = { Timestamp(millisecondsSince1970: 1_796_032_800_000) }
            screen.details = TaskDetailsReactor(service: service)
            screen.reactor = reactor
            reactor.action.onNext(.refresh(TaskQuery(status: .pending)))
        }

        func type(_ keys: Key...) { for key in keys { self.keys.onNext(key) } }
        func type(text: String) { for character in text { keys.onNext(.character(character)) } }

        var frame: ScreenBuffer {
            screen.layout()
            var buffer = ScreenBuffer(rows: size.rows, columns: size.columns)
            _ = screen.draw(into: &buffer)
            return buffer
        }
        var status: String { frame.text(row: size.rows - 1) }
        func task(_ id: Int64) -> Task? { service.tasks.first { $0.id == id } }
    }

    static let drafts = [TaskDraft(title: "Buy milk"), TaskDraft(title: "한국어 할 일"), TaskDraft(title: "Emoji 🍽️ party 🗑️"),
                         TaskDraft(title: "Pay rent", list: "Home"), TaskDraft(title: "Call mum", list: "Home")]

    @Test func vMarksAndMovesOnAndAChangeKeyActsOnEveryMarkOnce() {
        let ui = Harness(Self.drafts)
        ui.type(.character("v"), .character("v"))
        #expect(ui.reactor.currentState.marks == [4, 5], "Home comes first; v marks and moves on")
        #expect(ui.status.contains("2 marked"), "\(ui.status)")
        ui.type(.character("p"))
        #expect(ui.status.hasPrefix("Priority of 2 tasks"), "\(ui.status)")
        ui.type(.character("h"))
        #expect([4, 5].map { ui.task($0)?.priority } == [.high, .high])
        #expect([1, 2, 3].allSatisfy { ui.task($0)?.priority == nil }, "only the marked ones")
        #expect(ui.reactor.currentState.marks.isEmpty, "used, the marks are cleared")
        #expect(ui.service.updates.count == 1, "one command for both: \(ui.service.updates)")
    }

    @Test func capitalVMarksARangeAndStarMarksAllOrNone() {
        let ui = Harness(Self.drafts)
        ui.type(.character("v"))  // 4, cursor to 5
        ui.type(.character("j"), .character("j"), .character("V"))  // to row 3 (task 2)
        #expect(ui.reactor.currentState.marks == [4, 5, 1, 2])
        ui.type(.escape)
        #expect(ui.reactor.currentState.marks.isEmpty, "Esc clears")
        ui.type(.character("*"))
        #expect(ui.reactor.currentState.marks == [1, 2, 3, 4, 5])
        ui.type(.character("t"))
        ui.type(text: "+errand -none")
        ui.type(.enter)
        #expect(ui.service.tasks.allSatisfy { $0.tags == ["errand"] })
        ui.type(.character("*"), .character("*"))
        #expect(ui.reactor.currentState.marks.isEmpty)
    }

    @Test func dueShowsWhatTheDateResolvesToAndABadOneStaysInPlace() {
        let ui = Harness(Self.drafts)
        ui.type(.character("D"))
        ui.type(text: "2026-12-24")
        #expect(ui.status.contains("→ Thu 2026-12-24"), "\(ui.status)")
        ui.type(.control("u"))
        ui.type(text: "fry")
        #expect(ui.status.contains("'fry' is not"), "\(ui.status)")
        ui.type(.enter)
        #expect(ui.screen.prompt != nil, "Enter on an error keeps what was typed")
        #expect(ui.status.contains("fry"))
        ui.type(.control("u"))
        ui.type(text: "tomorrow")
        #expect(ui.status.contains("→ Mon 2026-11-30"), "\(ui.status)")
        ui.type(.enter)
        #expect(ui.task(4)?.due?.description == "2026-11-30")
        #expect(ui.screen.prompt == nil)
    }

    @Test func waitAnnotateStartAndMoveWithoutTheEditor() {
        let ui = Harness(Self.drafts)
        ui.type(.character("A"))
        ui.type(text: "asked at the shop")
        ui.type(.enter)
        #expect(ui.task(4)?.annotations.map(\.text) == ["asked at the shop"])
        ui.type(.character("b"))
        #expect(ui.task(4)?.isActive == true)
        ui.type(.character("b"))
        #expect(ui.task(4)?.isActive == false, "b again stops it")
        ui.type(.character("m"))
        ui.type(text: "Work")
        ui.type(.enter)
        #expect(ui.task(4)?.list == "Work")
        ui.type(.character("g"), .character("w"))
        ui.type(text: "2026-12-20")
        ui.type(.enter)
        #expect(ui.service.tasks.filter { $0.wait != nil }.count == 1)
    }

    @Test func colonJumpsToAnIdAndAnUnknownKeySaysSo() {
        let ui = Harness(Self.drafts)
        ui.type(.character(":"), .character("3"), .enter)
        #expect(ui.reactor.currentState.cursorTask?.id == 3)
        ui.type(.character("Z"))
        #expect(ui.status.contains("no key 'Z' here; ? lists the keys"), "\(ui.status)")
        ui.type(.character(":"), .character("9"), .character("9"), .enter)
        #expect(ui.status.contains("task 99 is not in this view"), "\(ui.status)")
        #expect(ui.reactor.currentState.cursorTask?.id == 3)
    }

    @Test func sCyclesTheSortAndTheStatusLineNamesIt() {
        let ui = Harness(Self.drafts)
        #expect(ui.status.contains("by list order"), "\(ui.status)")
        ui.type(.character("s"))
        #expect(ui.reactor.currentState.query.sort == .due)
        #expect(ui.status.contains("by due"), "\(ui.status)")
    }

    @Test func theDetailsPaneBesideTheListInAWideWindowAndBelowInANarrowOne() {
        var notes = TaskDraft(title: "Pay rent", list: "Home")
        notes.fields.notes = "Ask for the receipt\nand the new contract"
        let wide = Harness([TaskDraft(title: "한국어 할 일"), notes], rows: 10, columns: 110)
        wide.type(.enter)
        assertGolden(wide.frame, "details-wide-110x10.txt")
        let narrow = Harness([TaskDraft(title: "Emoji 🍽️ party 🗑️"), notes], rows: 16, columns: 44)
        narrow.type(.character("i"), .character("j"))
        assertGolden(narrow.frame, "details-narrow-44x16.txt")
        narrow.type(.character("i"))
        #expect(!narrow.frame.lines.joined().contains("Ask for"), "i closes it")
    }

    @Test func theHelpListsEveryKeyInAnEightyColumnWindow() {
        let lines = ListScreen.helpLines(columns: 80)
        #expect(lines.count <= 22, "fits a 24-row terminal: \(lines.count) lines")
        for (key, _) in ListScreen.keys { #expect(lines.contains { $0.contains(key) }, "\(key)") }
        #expect(lines.allSatisfy { TerminalText.displayWidth($0) <= 79 })
    }
}
