import QueryLanguage
import ReactorCore
import Testing
@testable import TaskReactors
import TaskModel
import _TaskServiceFake

/// What the screen needs of the list reactor: a cursor that stays on its task, search as you
/// type, a delete that waits for its answer, and a task moved one place in its list.
@Suite("TaskListReactor's cursor and the screen's actions")
struct TaskListCursorTests {
    @Test func theCursorStaysOnItsTaskWhateverHappensAboveIt() {
        let service = FakeTaskService()
        let tasks = seed(service, (0..<5).map { TaskDraft(title: "t\($0)") })
        let list = TaskListReactor(service: service, windowSize: 10)
        list.action.onNext(.refresh(TaskQuery()))
        list.action.onNext(.moveCursor(to: 3))
        #expect(list.currentState.cursorTask?.id == tasks[3].id)
        // Another reactor (or another process, through the feed) puts a task at the top.
        let other = TaskListReactor(service: service)
        _ = service.create([TaskDraft(title: "new")]).subscribe()
        other.action.onNext(.moveTask(6, to: .top))
        #expect(list.currentState.cursorTask?.id == tasks[3].id)
        #expect(list.currentState.cursor == 4, "one row further down")
        other.action.onNext(.deleteTasks([tasks[0].id, tasks[1].id]))
        #expect(list.currentState.cursorTask?.id == tasks[3].id)
        #expect(list.currentState.cursor == 2)
        // The task itself leaves: the cursor stays on its row, now the next task's.
        other.action.onNext(.setDone([tasks[3].id], true))
        #expect(list.currentState.cursorTask?.id == tasks[4].id)
        list.action.onNext(.moveCursor(to: 99))
        #expect(list.currentState.cursor == 2, "clamped to the last row (new, t2, t4)")
    }

    @Test func searchAsYouTypeStartsTheCursorOverAndClearingShowsAllAgain() {
        let service = FakeTaskService()
        _ = seed(service, [TaskDraft(title: "milk"), TaskDraft(title: "bread"), TaskDraft(title: "more milk")])
        let list = TaskListReactor(service: service)
        list.action.onNext(.refresh(TaskQuery()))
        list.action.onNext(.moveCursor(to: 1))
        list.action.onNext(.search("mi"))
        #expect(list.currentState.tasks.map(\.title) == ["milk", "more milk"])
        #expect(list.currentState.cursor == 0 && list.currentState.query.search == "mi")
        list.action.onNext(.search(""))
        #expect(list.currentState.tasks.count == 3 && list.currentState.query.search == nil)
        list.action.onNext(.showStatus(.done))
        #expect(list.currentState.tasks.isEmpty && list.currentState.query.status == .done)
    }

    @Test func aDeleteWaitsForItsAnswer() {
        let service = FakeTaskService()
        let tasks = seed(service, [TaskDraft(title: "a"), TaskDraft(title: "b")])
        let list = TaskListReactor(service: service)
        list.action.onNext(.refresh(TaskQuery()))
        list.action.onNext(.askToDelete(tasks[0].id))
        #expect(list.currentState.pendingDelete == tasks[0])
        #expect(service.tasks.count == 2, "nothing deleted yet")
        list.action.onNext(.cancelDelete)
        #expect(list.currentState.pendingDelete == nil && service.tasks.count == 2)
        list.action.onNext(.askToDelete(tasks[0].id))
        list.action.onNext(.confirmDelete)
        #expect(list.currentState.pendingDelete == nil)
        #expect(service.tasks.map(\.id) == [tasks[1].id])
        #expect(list.currentState.tasks.map(\.id) == [tasks[1].id])
        list.action.onNext(.confirmDelete)
        #expect(service.tasks.count == 1, "a second yes deletes nothing more")
    }

    @Test func aNudgeMovesPastTheNeighbourInItsListOnly() {
        let service = FakeTaskService()
        let tasks = seed(service, [TaskDraft(title: "a"), TaskDraft(title: "b"), TaskDraft(title: "c", list: "Work")])
        let list = TaskListReactor(service: service)
        var notices: [String] = []
        _ = list.pulse(\.$notice).compactMap { $0 }.subscribe(onNext: { notices.append($0) })
        list.action.onNext(.refresh(TaskQuery()))
        list.action.onNext(.nudge(tasks[0].id, down: true))
        #expect(list.currentState.tasks.map(\.title) == ["b", "a", "c"])
        list.action.onNext(.nudge(tasks[0].id, down: true))
        #expect(list.currentState.tasks.map(\.title) == ["b", "a", "c"], "c is in another list")
        list.action.onNext(.refresh(TaskQuery(sort: .created)))
        list.action.onNext(.nudge(tasks[0].id, down: false))
        #expect(notices == ["already the last of Inbox", "tasks move one place in manual order only (this list is sorted)"])
    }
}
