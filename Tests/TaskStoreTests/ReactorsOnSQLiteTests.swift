import QueryLanguage
import ReactorCore
import _ReactorTesting
import TaskModel
import TaskReactors
import _TestSupport
import Testing
@testable import TaskStore

@Suite("The reactors on the real SQLite service")
struct ReactorsOnSQLiteTests {
    let today = CalendarDay(year: 2026, month: 11, day: 29) ?? CalendarDay(daysSince1970: 0)!

    @Test func createToggleMoveAndDeleteFlowIntoTwoLists() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try run(service.create([TaskDraft(title: "a", list: "Work"), TaskDraft(title: "b")]))
        let pending = TaskListReactor(service: service)
        let everything = TaskListReactor(service: service)
        pending.action.onNext(.refresh(TaskQuery()))
        everything.action.onNext(.refresh(TaskQuery(status: .all, grouping: .byStatus)))

        func check() throws {
            #expect(pending.currentState.tasks == (try service.fetchNow(pending.currentState.query)))
            #expect(everything.currentState.tasks == (try service.fetchNow(everything.currentState.query)))
            #expect(pending.currentState.sections == pending.currentState.query.sections(from: pending.currentState.tasks))
        }

        let editor = TaskEditReactor(mode: .new, service: service, today: { today })
        editor.action.onNext(.updateTitle("c"))
        editor.action.onNext(.updateList("Work"))
        editor.action.onNext(.submit)
        try check()
        #expect(pending.currentState.sections.map(\.header) == ["Inbox", "Work"])

        let c = try #require(editor.currentState.saved)
        pending.action.onNext(.toggleTasksDone([c.id]))
        try check()
        #expect(everything.currentState.sections.map(\.header) == ["Pending", "Done"])

        pending.action.onNext(.moveTask(c.id, to: .list("Inbox")))
        everything.action.onNext(.setDone([c.id], false))
        try check()

        let b = try service.fetchNow(TaskQuery(filter: .term(.list("Inbox", exact: true))))[0]
        pending.action.onNext(.moveTask(c.id, to: .before(b.id)))
        try check()
        #expect(pending.currentState.sections[0].items.map(\.title) == ["c", "b"])

        everything.action.onNext(.deleteTasks([b.id]))
        try check()
        #expect(pending.currentState.tasks.map(\.title) == ["c", "a"])
    }

    @Test func aMissingIdIsAFailurePulseAndNothingChanges() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try run(service.create([TaskDraft(title: "a")]))
        let store = TestStore(TaskListReactor(service: service))
        let query = TaskQuery()
        store.send(.refresh(query)) { $0.query = query }
        store.receive { $0.isLoading = true }
        store.receive {
            $0.totals = (try? service.totalsNow(query, measuringCells: false)) ?? TaskQueryTotals()
            $0.window = TaskWindow(start: 0, rows: (try? service.fetchNow(query)) ?? [])
            $0.cursorID = $0.window.rows.first?.id
        }
        store.receive { $0.isLoading = false }
        store.send(.deleteTasks([1, 42])) { $0.failure = TaskServiceError(TaskServiceError.notFound(ids: [42])) }
        #expect(try service.fetchNow(query).count == 1)
        store.finish()
    }

    @Test func refreshingAgainReplacesTheSections() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        for list in 0..<3 {
            _ = try service.createNow((0..<100).map { TaskDraft(title: "t\($0)", list: "L\(list)") })
        }
        let reactor = TaskListReactor(service: service)
        let query = TaskQuery(status: .all)
        reactor.action.onNext(.refresh(query))
        #expect(reactor.currentState.tasks.count == 300)
        reactor.action.onNext(.toggleTasksDone([150]))
        #expect(reactor.currentState.tasks.count == 300)
        reactor.action.onNext(.refresh(query))
        #expect(reactor.currentState.tasks.count == 300)
        #expect(reactor.currentState.sections.map(\.items.count) == [100, 100, 100])
    }

    /// Ungrouped totals are one aggregate without GROUP BY: one section when rows match, and
    /// none — as a grouped count gives — when none do; measured or not.
    @Test func ungroupedTotalsAreOneSectionOrNone() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try service.createNow([TaskDraft(title: "a", list: "Work"), TaskDraft(title: "bb"), TaskDraft(title: "c", tags: ["x"])])
        for measuring in [false, true] {
            let all = try service.totalsNow(TaskQuery(grouping: .none), measuringCells: measuring)
            #expect(all.count == 3)
            #expect(all.sections.map(\.count) == [3])
            let tagged = try service.totalsNow(TaskQuery(filter: .term(.tag("x")), grouping: .none), measuringCells: measuring)
            #expect(tagged.count == 1 && tagged.sections.map(\.count) == [1])
            let nothing = try service.totalsNow(TaskQuery(filter: .term(.tag("nope")), grouping: .none), measuringCells: measuring)
            #expect(nothing.count == 0 && nothing.sections.isEmpty)
            let grouped = try service.totalsNow(TaskQuery(), measuringCells: measuring)
            #expect(grouped.sections.map(\.header) == ["Inbox", "Work"] && grouped.sections.map(\.count) == [2, 1])
        }
        #expect(try service.totalsNow(TaskQuery(grouping: .none), measuringCells: true).titleCells == 2)
    }
}
