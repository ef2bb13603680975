import QueryLanguage
import ReactorCore
import _ReactorTesting
import Testing
@testable import TaskReactors
import TaskModel
import _TaskServiceFake

let today = CalendarDay(year: 2026, month: 11, day: 29) ?? CalendarDay(year: 2000, month: 1, day: 1)!

func seed(_ service: FakeTaskService, _ drafts: [TaskDraft]) -> [Task] {
    var made: [Task] = []
    _ = service.create(drafts).subscribe(onNext: { made = $0 })
    return made
}

@Suite("TaskListReactor")
struct TaskListReactorTests {
    @Test func refreshLoadsSectionsByList() {
        let service = FakeTaskService()
        let tasks = seed(service, [TaskDraft(title: "a", list: "Work"), TaskDraft(title: "b"), TaskDraft(title: "c", list: "Work")])
        let store = TestStore(TaskListReactor(service: service))
        let query = TaskQuery()
        store.send(.refresh(query)) { $0.query = query }
        store.receive { $0.isLoading = true }
        store.receive {
            $0.totals = TaskQueryTotals(count: 3, sections: [.init(header: "Inbox", count: 1), .init(header: "Work", count: 2)],
                                        largestID: 3)
            $0.window = TaskWindow(start: 0, rows: [tasks[1], tasks[0], tasks[2]])
            $0.cursorID = tasks[1].id
        }
        store.receive { $0.isLoading = false }
        #expect(store.reactor.currentState.sections == [
            TaskSection(header: "Inbox", items: [tasks[1]]),
            TaskSection(header: "Work", items: [tasks[0], tasks[2]]),
        ])
        #expect(store.reactor.currentState.isComplete)
        store.finish()
    }

    @Test func toggleThreeTimes() {
        let service = FakeTaskService()
        let tasks = seed(service, [TaskDraft(title: "a"), TaskDraft(title: "b")])
        let store = TestStore(TaskListReactor(service: service))
        refresh(store, service, TaskQuery(status: .all))
        for round in 1...3 {
            store.send(.toggleTasksDone([tasks[0].id])) {
                $0.window.rows[0].isDone = round % 2 == 1
                $0.window.rows[0].completed = service.tasks[0].completed
                $0.applied = round % 2 == 1 ? .markAsDone(service.tasks[0]) : .markAsUndone(service.tasks[0])
            }
            // Then the action's own result: what the service committed.
            store.receive { $0.change = round % 2 == 1 ? .markAsDone(service.tasks[0]) : .markAsUndone(service.tasks[0]) }
        }
        #expect(store.reactor.currentState.tasks.map(\.isDone) == [true, false])
        store.finish()
    }

    @Test func aDoneTaskLeavesAPendingListAndAnEmptiedSectionDisappears() {
        let service = FakeTaskService()
        let tasks = seed(service, [TaskDraft(title: "a", list: "Solo"), TaskDraft(title: "b")])
        let store = TestStore(TaskListReactor(service: service))
        refresh(store, service, TaskQuery())
        store.send(.setDone([tasks[0].id], true)) {
            $0.window.rows = [tasks[1]]
            $0.totals = service.totalsNow(TaskQuery())
            $0.applied = .markAsDone(service.tasks[0])
        }
        store.receive { $0.change = .markAsDone(service.tasks[0]) }
        // Already done: no event; the result is a change of nothing.
        store.send(.setDone([tasks[0].id], true)) { $0.change = .batch([]) }
        store.finish()
    }

    @Test func deleteRemovesTheTasks() {
        let service = FakeTaskService()
        let tasks = seed(service, [TaskDraft(title: "a"), TaskDraft(title: "b"), TaskDraft(title: "c")])
        let store = TestStore(TaskListReactor(service: service))
        refresh(store, service, TaskQuery())
        store.send(.deleteTasks([tasks[0].id, tasks[2].id])) {
            $0.window.rows.remove(at: 0)
            $0.totals.count = 2
            $0.totals.sections[0].count = 2
            $0.cursorID = tasks[1].id
            $0.applied = .delete(tasks[0])
        }
        store.receive {
            $0.window.rows.remove(at: 1)
            $0.totals.count = 1
            $0.totals.sections[0].count = 1
            $0.applied = .delete(tasks[2])
        }
        store.receive { $0.change = .batch([.delete(tasks[0]), .delete(tasks[2])]) }
        #expect(store.reactor.currentState.tasks.map(\.title) == ["b"])
        store.finish()
    }

    @Test func moveWithinAndAcrossLists() {
        let service = FakeTaskService()
        let tasks = seed(service, [TaskDraft(title: "a"), TaskDraft(title: "b"), TaskDraft(title: "c")])
        let store = TestStore(TaskListReactor(service: service))
        refresh(store, service, TaskQuery())
        store.send(.moveTask(tasks[2].id, to: .top)) {
            $0.window.rows = service.fetchedOrder()
            $0.cursor = 1  // still on "a", by id, now below "c"
            $0.applied = service.tasks.first { $0.id == tasks[2].id }.map(TaskEvent.move)
        }
        store.receive { $0.change = service.tasks.first { $0.id == tasks[2].id }.map(TaskEvent.move) }
        #expect(store.reactor.currentState.tasks.map(\.title) == ["c", "a", "b"])
        store.send(.moveTask(tasks[0].id, to: .list("Later"))) {
            $0.window.rows = service.fetchedOrder()
            $0.totals = service.totalsNow(TaskQuery())
            $0.cursor = 2  // "a" moved to Later, the last section
            $0.applied = service.tasks.first { $0.id == tasks[0].id }.map(TaskEvent.move)
        }
        store.receive { $0.change = service.tasks.first { $0.id == tasks[0].id }.map(TaskEvent.move) }
        #expect(store.reactor.currentState.sections.map(\.header) == ["Inbox", "Later"])
        #expect(store.reactor.currentState.tasks.map(\.title) == ["c", "b", "a"])
        store.finish()
    }

    @Test func aTaskCreatedInAnEditorAppearsInTheRightPlaceOfTwoLists() {
        let service = FakeTaskService()
        _ = seed(service, [
            TaskDraft(title: "early", due: CalendarDay("2026-12-01")),
            TaskDraft(title: "late", due: CalendarDay("2026-12-31")),
        ])
        let byList = TaskListReactor(service: service)
        let byDue = TaskListReactor(service: service)
        byList.action.onNext(.refresh(TaskQuery()))
        byDue.action.onNext(.refresh(TaskQuery(sort: .due, grouping: .none)))

        let editor = TaskEditReactor(mode: .new, service: service, today: { today })
        editor.action.onNext(.updateTitle("middle"))
        editor.action.onNext(.update(.due, "2026-12-15"))
        editor.action.onNext(.submit)
        #expect(editor.currentState.isDismissed)

        #expect(byList.currentState.tasks.map(\.title) == ["early", "late", "middle"], "manual order: the bottom")
        #expect(byDue.currentState.tasks.map(\.title) == ["early", "middle", "late"], "due order: between")
        #expect(byList.currentState.tasks == service.fetchNow(TaskQuery()))
        #expect(byDue.currentState.tasks == service.fetchNow(TaskQuery(sort: .due, grouping: .none)))
    }

    @Test func anEditThatStopsMatchingTheFilterLeavesTheList() {
        let service = FakeTaskService()
        let tasks = seed(service, [TaskDraft(title: "buy milk"), TaskDraft(title: "buy bread")])
        let list = TaskListReactor(service: service)
        list.action.onNext(.refresh(TaskQuery(search: "milk")))
        #expect(list.currentState.tasks.map(\.id) == [tasks[0].id])
        let editor = TaskEditReactor(mode: .edit(tasks[0]), service: service, today: { today })
        editor.action.onNext(.updateTitle("buy cheese"))
        editor.action.onNext(.submit)
        #expect(list.currentState.sections.isEmpty)
        let bread = TaskEditReactor(mode: .edit(tasks[1]), service: service, today: { today })
        bread.action.onNext(.updateNotes("and milk"))
        bread.action.onNext(.submit)
        #expect(list.currentState.tasks.map(\.id) == [tasks[1].id], "and one that starts matching joins it")
    }

    @Test func aServiceFailureIsAnErrorPulseAndTheNextActionWorks() {
        let service = FakeTaskService()
        let tasks = seed(service, [TaskDraft(title: "a")])
        let store = TestStore(TaskListReactor(service: service))
        refresh(store, service, TaskQuery(status: .all))
        var failures: [TaskServiceError?] = []
        let subscription = store.reactor.pulse(\.$failure).subscribe(onNext: { failures.append($0) })
        service.failNext = true
        store.send(.toggleTasksDone([tasks[0].id])) { $0.failure = TaskServiceError(FakeFailure()) }
        store.send(.toggleTasksDone([999])) { $0.failure = TaskServiceError(TaskServiceError.notFound(ids: [999])) }
        store.send(.toggleTasksDone([tasks[0].id])) {
            $0.window.rows[0].isDone = true
            $0.window.rows[0].completed = service.tasks[0].completed
            $0.applied = .markAsDone(service.tasks[0])
        }
        store.receive { $0.change = .markAsDone(service.tasks[0]) }
        #expect(failures == [nil, TaskServiceError(FakeFailure()), TaskServiceError(TaskServiceError.notFound(ids: [999]))],
                "the value at subscription (none yet), then one per failure; a success assigns nothing")
        subscription.dispose()
        store.finish()
    }

    @Test func aFailedRefreshReportsAndStopsLoading() {
        let service = FakeTaskService()
        let store = TestStore(TaskListReactor(service: service))
        service.failNext = true
        let query = TaskQuery(filter: .term(.list("x", exact: true)))
        store.send(.refresh(query)) { $0.query = query }
        store.receive { $0.isLoading = true }
        store.receive { $0.failure = TaskServiceError(FakeFailure()) }
        store.receive { $0.isLoading = false }
        store.finish()
    }

    /// A refresh, its four states checked against what the service itself returns.
    private func refresh(_ store: TestStore<TaskListReactor>, _ service: FakeTaskService, _ query: TaskQuery) {
        store.send(.refresh(query)) { $0.query = query }
        store.receive { $0.isLoading = true }
        store.receive {
            $0.totals = service.totalsNow(query)
            $0.window = TaskWindow(start: 0, rows: service.fetchNow(query))
            $0.cursorID = $0.window.rows.first?.id
        }
        store.receive { $0.isLoading = false }
    }
}

extension FakeTaskService {
    func fetchNow(_ query: TaskQuery) -> [Task] {
        var result: [Task] = []
        _ = fetch(query).subscribe(onNext: { result = $0 })
        return result
    }

    func totalsNow(_ query: TaskQuery) -> TaskQueryTotals {
        var result = TaskQueryTotals()
        _ = totals(query, measuringCells: false).subscribe(onNext: { result = $0 })
        return result
    }

    func fetchedOrder() -> [Task] { fetchNow(TaskQuery()) }
}

@Suite("TaskListReactor with a large list")
struct TaskListReactorLargeListTests {
    @Test func aToggleChangesOneItemInPlaceWithoutCopyingTheList() {
        let service = FakeTaskService()
        _ = seed(service, (0..<10_000).map { TaskDraft(title: "task \($0)") })
        let reactor = TaskListReactor(service: service, windowSize: 10_000)
        reactor.action.onNext(.refresh(TaskQuery(status: .all)))
        func itemsAddress() -> UInt {
            reactor.currentState.window.rows.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        }
        let before = itemsAddress()
        for id: Int64 in [5, 5_000, 9_999, 5] { reactor.action.onNext(.toggleTasksDone([id])) }
        #expect(itemsAddress() == before, "the 10,000 rows were copied")
        #expect(reactor.currentState.tasks.filter(\.isDone).map(\.id) == [5_000, 9_999])
        #expect(reactor.currentState.tasks.count == 10_000)
    }
}
