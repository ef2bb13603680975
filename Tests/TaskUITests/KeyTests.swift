import QueryLanguage
import ReactorCore
import TaskModel
import _TaskServiceFake
import TaskReactors
import TerminalKit
import Testing
@testable import TaskUI

/// Keys in, Actions out: the screens against a stubbed reactor, keys arriving on the
/// virtual-time scheduler as a person types them.
@Suite("The list screen's keys")
struct KeyTests {
    let rows = [task(1, "a"), task(2, "b"), task(3, "c", list: "Work")]

    /// The actions `keys` (one every 10 ticks) make, the reactor stubbed with `state`; and
    /// the screen's requests to the app.
    private func actions(_ keys: [Key], state: TaskListReactor.State) -> (actions: [String], requests: [ScreenRequest]) {
        let scheduler = TestScheduler(initialClock: 0)
        let typed = scheduler.createHotObservable(keys.enumerated().map { .next(10 * ($0.offset + 1), $0.element) })
        let reactor = TaskListReactor(service: FakeTaskService())
        reactor.isStubEnabled = true
        reactor.stub.state.accept(state)
        let view = ListScreen(keys: typed.asObservable(), size: (10, 60), style: ScreenStyle(color: false), today: { today })
        var requests: [ScreenRequest] = []
        view.onRequest = { requests.append($0) }
        view.reactor = reactor
        scheduler.start()
        return (reactor.stub.actions.map { String(describing: $0) }, requests)
    }

    @Test func movingTogglingAndTheRest() {
        let state = listState(rows, cursor: 1)
        let got = actions([.character("j"), .down, .character("k"), .character("G"), .character("g"), .character(" "), .character("x"),
                           .character("J"), .character("K"), .character("f"), .character("u"), .control("r")], state: state)
        #expect(got.actions == [
            "moveCursor(to: 2)", "moveCursor(to: 2)", "moveCursor(to: 0)", "moveCursor(to: 2)", "moveCursor(to: 0)",
            "toggleTasksDone([2])", "toggleTasksDone([2])", "nudge(2, down: true)", "nudge(2, down: false)", "showStatus(QueryLanguage.TaskQuery.Status.done)",
            "undo(entry: nil)", "redo",
        ], "the stub's cursor stays at 1: each key acts on that state")
    }

    @Test func editAddAndQuitAreRequestsToTheApp() {
        let got = actions([.enter, .character("e"), .character("a"), .character("q"), .control("c")], state: listState(rows, cursor: 2))
        #expect(got.actions == [])
        #expect(got.requests == [.edit(rows[2]), .add(list: "Work"), .quit, .interrupt], "Enter opens the details pane, no request")
    }

    @Test func deleteAsksThenTheAnswerDecides() {
        var asking = listState(rows, cursor: 0)
        #expect(actions([.character("d")], state: asking).actions == ["askToDelete(1)"])
        asking.pendingDelete = rows[0]
        #expect(actions([.character("j"), .character("y")], state: asking).actions == ["confirmDelete"], "other keys wait for y or n")
        #expect(actions([.character("n")], state: asking).actions == ["cancelDelete"])
        #expect(actions([.escape], state: asking).actions == ["cancelDelete"])
    }

    @Test func searchNarrowsWithEachKeyAndEscapeClearsIt() {
        let got = actions([.character("/"), .character("m"), .character("i"), .backspace, .escape], state: listState(rows))
        #expect(got.actions == ["search(\"m\")", "search(\"mi\")", "search(\"m\")", "search(\"\")"])
        let kept = actions([.character("/"), .character("b"), .enter, .character("j")], state: listState(rows))
        #expect(kept.actions == ["search(\"b\")", "moveCursor(to: 1)"], "Enter keeps the search and gives the keys back")
    }

    @Test func moveToAnotherListCompletesItsName() {
        var state = listState(rows, cursor: 0)
        state.lists = [TaskListSummary(name: "Inbox", pending: 2, done: 0), TaskListSummary(name: "Work", pending: 1, done: 0)]
        let got = actions([.character("m"), .character("w"), .tab, .enter], state: state)
        #expect(got.actions == ["loadLists", "moveTask(1, to: TaskModel.TaskPlacement.list(\"Work\"))"])
    }

    @Test func completion() {
        #expect(ListScreen.complete("w", among: ["Inbox", "Work", "Weekend"]) == "W")
        #expect(ListScreen.complete("wo", among: ["Inbox", "Work", "Weekend"]) == "Work")
        #expect(ListScreen.complete("x", among: ["Inbox"]) == nil)
    }
}
