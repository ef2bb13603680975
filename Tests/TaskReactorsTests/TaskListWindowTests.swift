import QueryLanguage
import ReactorCore
import _TestSupport
import Testing
@testable import TaskReactors
import TaskModel
import _TaskServiceFake

/// A window over part of a result: moved as a screen scrolls, and kept true to the result as
/// changes arrive — the rows it holds are always those the query would read at its place.
@Suite("TaskListReactor's window")
struct TaskListWindowTests {
    /// Issue 28: a screen opening on a long list shows its first rows before they are counted
    /// (a scan of every row), then the count; a short list is counted by its rows.
    @Test func openShowsTheFirstRowsThenCountIsTheTotals() {
        let service = FakeTaskService()
        _ = seed(service, (0..<30).map { TaskDraft(title: "t\($0)", list: $0 < 5 ? "Home" : "Work") })
        let reactor = TaskListReactor(service: service, windowSize: 10)
        reactor.action.onNext(.open(TaskQuery()))
        var state = reactor.currentState
        #expect(state.window.rows.count == 10 && !state.isCounted)
        #expect(state.totals.count == 10 && state.totals.sections.map(\.count) == [5, 5], "the rows held, summed up")
        reactor.action.onNext(.count)
        state = reactor.currentState
        #expect(state.isCounted && state.totals.count == 30 && state.totals.sections.map(\.count) == [5, 25])
        #expect(state.window.rows.count == 10, "the rows stay")
        let short = TaskListReactor(service: service, windowSize: 64)
        short.action.onNext(.open(TaskQuery()))
        #expect(short.currentState.isCounted && short.currentState.totals.count == 30, "all its rows: counted")
        // A count that arrives after another query was shown changes nothing.
        let moved = TaskListReactor(service: service, windowSize: 10)
        moved.action.onNext(.open(TaskQuery()))
        moved.action.onNext(.refresh(TaskQuery(filter: .term(.list("Home", exact: true)))))
        moved.action.onNext(.count)
        #expect(moved.currentState.totals.count == 5)
    }

    @Test func showingRowsReadsFromTheWindowsEdgeThenByPosition() {
        let service = FakeTaskService()
        _ = seed(service, (0..<50).map { TaskDraft(title: "t\($0)") })
        let all = service.fetchNow(TaskQuery())
        let reactor = TaskListReactor(service: service, windowSize: 10)
        reactor.action.onNext(.refresh(TaskQuery()))
        #expect(reactor.currentState.window == TaskWindow(start: 0, rows: Array(all[0..<10])))
        #expect(reactor.currentState.totals.count == 50 && !reactor.currentState.isComplete)

        func show(_ range: Range<Int>, reads expected: TaskRowRequest?, holds held: Range<Int>? = nil) {
            let before = service.rowRequests.count
            reactor.action.onNext(.showRows(range))
            let window = reactor.currentState.window
            let held = held ?? range
            #expect(window == TaskWindow(start: held.lowerBound, rows: Array(all[held])), "rows \(range)")
            #expect(service.rowRequests.count == before + (expected == nil ? 0 : 1))
            if let expected { #expect(service.rowRequests.last == expected) }
        }
        show(10..<20, reads: .after(all[9], count: 10))
        show(15..<25, reads: .after(all[19], count: 5))
        show(12..<22, reads: .before(all[15], count: 3))
        show(14..<18, reads: nil)
        show(40..<60, reads: .last(10), holds: 40..<50)
        show(20..<30, reads: .at(offset: 20, count: 10))
        show(0..<10, reads: .first(10))
    }

    @Test func aChangeToAHeldRowIsPlacedWithoutReading() {
        let service = FakeTaskService()
        let tasks = seed(service, (0..<50).map { TaskDraft(title: "t\($0)") })
        let reactor = TaskListReactor(service: service, windowSize: 10)
        reactor.action.onNext(.refresh(TaskQuery(status: .all)))
        reactor.action.onNext(.showRows(20..<30))
        let reads = service.rowRequests.count
        reactor.action.onNext(.toggleTasksDone([tasks[25].id]))
        reactor.action.onNext(.setDone([tasks[26].id], true))
        _ = service.create([TaskDraft(title: "at the bottom, past the window")]).subscribe()
        #expect(service.rowRequests.count == reads, "placed from the event alone")
        #expect(reactor.currentState.window.rows.filter(\.isDone).map(\.id) == [tasks[25].id, tasks[26].id])
        #expect(reactor.currentState.totals.count == 51)
        #expect(!reactor.currentState.isStale)
    }

    /// Random changes, by this reactor and behind its back, to a window in the middle of four
    /// differently ordered and filtered results; after each, the window holds exactly the rows
    /// the query reads at its place, and the totals are the store's.
    @Test(arguments: [
        TaskQuery(),
        TaskQuery(status: .all, sort: .due, grouping: .byStatus),
        TaskQuery(status: .all, sort: .priority, grouping: .none),
        TaskQuery(search: "7", sort: .created, grouping: .byList),
    ])
    func randomChangesKeepAWindowInTheMiddleTrue(query: TaskQuery) {
        var random = SplitMix(seed: 19)
        let service = FakeTaskService()
        let lists = ["Inbox", "Work", "Home"]
        func draft(_ number: Int) -> TaskDraft {
            TaskDraft(title: "task \(number)", list: lists[random.below(3)],
                      due: random.below(3) == 0 ? nil : CalendarDay(daysSince1970: 20_000 + random.below(30)),
                      priority: [nil, .high, .medium, .low][random.below(4)])
        }
        _ = seed(service, (0..<120).map(draft))
        let reactor = TaskListReactor(service: service, windowSize: 12)
        reactor.action.onNext(.refresh(query))
        reactor.action.onNext(.showRows(10..<22))
        var reloads = 0
        for step in 0..<300 {
            let ids = service.tasks.map(\.id)
            let id = ids[random.below(ids.count)]
            let before = service.rowRequests.count
            switch random.below(7) {
            case 0: reactor.action.onNext(.toggleTasksDone([id]))
            case 1: reactor.action.onNext(.moveTask(id, to: [.top, .bottom, .list(lists[random.below(3)])][random.below(3)]))
            case 2: _ = service.create([draft(1_000 + step)]).subscribe()
            case 3: reactor.action.onNext(.deleteTasks([id]))
            case 4: _ = service.update(id: id, TaskChanges(title: "task \(random.below(100))")).subscribe()
            case 5: _ = service.update(id: id, TaskChanges(due: .to(CalendarDay(daysSince1970: 20_000 + random.below(30))))).subscribe()
            default:
                let start = random.below(max(1, reactor.currentState.totals.count))
                reactor.action.onNext(.showRows(start..<start + 12))
            }
            if service.rowRequests.count > before { reloads += 1 }
            let state = reactor.currentState
            let result = service.fetchNow(query)
            #expect(state.totals == service.totalsNow(query), "step \(step)")
            #expect(state.window.start >= 0 && state.window.end <= result.count, "step \(step)")
            if state.window.end <= result.count && state.window.start >= 0 {
                #expect(state.window.rows == Array(result[state.window.start..<state.window.end]), "step \(step)")
            }
            #expect(!state.isStale)
        }
        #expect(reloads < 300, "some changes placed without reading")
    }
}

