import QueryLanguage
import ReactorCore
import TaskModel
import TaskReactors
import _TestSupport
import Testing
@testable import TaskStore

/// What the ui's marks, `:42` and details pane read, on SQLite: the ids of a range of rows and
/// a task's place in the order agree with the rows themselves, in every order; marked tasks
/// change as one command (one undo); the details pane follows changes made anywhere.
@Suite("The screen's reads on SQLite: marks, jumps, details")
struct ScreenReadsSQLTests {
    @Test func idsAndPositionsAgreeWithTheRowsInRandomOrders() throws {
        let folder = TemporaryFolder()
        var random = SplitMix(seed: 2812)
        let (service, all) = try FilterSQLTests.store(FilterSQLTests.tasks(90, &random), folder)
        for round in 0..<40 {
            var query = FilterSQLTests.query(nil)
            query.sort = [.manual, .due, .priority, .created, .id, .keys(SortKeySQLTests.randomKeys(&random))][round % 6]
            query.grouping = [.none, .byList, .byStatus][Int(random.next() % 3)]
            if round % 4 == 1 { query.status = .pending }
            let rows = try service.rowsNow(query, .first(1000)).map(\.id)
            let lower = Int(random.next() % 50), upper = lower + Int(random.next() % 60)
            let ids = try Self.value(service.ids(query, in: lower..<upper))
            #expect(ids == Array(rows[min(lower, rows.count)..<min(upper, rows.count)]), "round \(round): \(query.sort)")
            for task in all where random.next() % 4 == 0 {
                let position = try Self.value(service.position(of: task.id, in: query))
                #expect(position == rows.firstIndex(of: task.id), "round \(round): task \(task.id) in \(query.sort) \(query.grouping)")
            }
        }
        #expect(try Self.value(service.position(of: 9_999, in: FilterSQLTests.query(nil))) == nil, "no such task")
    }

    @Test func markedTasksChangeAsOneCommandAndOneUndoTakesItBack() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try service.createNow((1...8).map { TaskDraft(title: "Task \($0)") })
        let reactor = TaskListReactor(service: service, query: TaskQuery(status: .pending))
        reactor.action.onNext(.refresh(TaskQuery(status: .pending)))
        reactor.action.onNext(.mark(.toggle(2)))
        reactor.action.onNext(.moveCursor(to: 5))
        reactor.action.onNext(.mark(.range(to: 5)))
        #expect(reactor.currentState.marks == [2, 3, 4, 5, 6], "from the anchor (2, row 1) to row 5 (task 6)")
        reactor.action.onNext(.mark(.toggle(4)))
        #expect(reactor.currentState.marks == [2, 3, 5, 6])
        let entries = try Self.value(service.history(HistoryQuery())).count
        var changes = TaskChanges()
        changes.values[.priority] = .priority(.high)
        changes.addTags = ["urgent"]
        reactor.action.onNext(.updateTasks(reactor.currentState.targets, changes))
        let after = try service.fetchNow(TaskQuery(status: .all, sort: .id))
        #expect(after.filter { $0.priority == .high }.map(\.id) == [2, 3, 5, 6])
        #expect(after.filter { $0.tags == ["urgent"] }.map(\.id) == [2, 3, 5, 6])
        #expect(try Self.value(service.history(HistoryQuery())).count == entries + 1, "one entry for the four")
        reactor.action.onNext(.undo(entry: nil))
        #expect(try service.fetchNow(TaskQuery(status: .all)).allSatisfy { $0.priority == nil && $0.tags.isEmpty })

        reactor.action.onNext(.mark(.all))
        #expect(reactor.currentState.marks == Set(1...8))
        reactor.action.onNext(.deleteTasks([3]))
        #expect(reactor.currentState.marks == Set([1, 2, 4, 5, 6, 7, 8]), "a deleted task loses its mark")
        reactor.action.onNext(.mark(.all))
        #expect(reactor.currentState.marks.isEmpty, "* with all marked clears them")
    }

    @Test func aJumpPutsTheCursorOnTheTaskFarBelowTheWindow() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try service.createNow((1...3000).map { TaskDraft(title: "Task \($0)", list: $0 % 2 == 0 ? "Even" : "Odd") })
        let reactor = TaskListReactor(service: service, query: TaskQuery(status: .pending), windowSize: 64)
        reactor.action.onNext(.refresh(TaskQuery(status: .pending)))
        reactor.action.onNext(.jump(toID: 2999))
        // Even's 1,500 first, then Odd's: 2999 is Odd's 1,500th.
        #expect(reactor.currentState.cursor == 2999)
        reactor.action.onNext(.showRows(2990..<3000))
        #expect(reactor.currentState.cursorTask?.id == 2999)
        var notice: String?
        _ = reactor.pulse(\.$notice).subscribe(onNext: { notice = $0 })
        reactor.action.onNext(.jump(toID: 99_999))
        #expect(notice == "task 99999 is not in this view")
        #expect(reactor.currentState.cursor == 2999, "the cursor stays")
    }

    @Test func theDetailsShowBlockersHistoryAndFollowChangesMadeAnywhere() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        _ = try service.createNow([TaskDraft(title: "Pay rent"), TaskDraft(title: "Get the money")])
        var changes = TaskChanges()
        changes.dependencies.blockedBy = [2]
        _ = try service.updateNow(id: 1, changes)
        let details = TaskDetailsReactor(service: service)
        details.action.onNext(.show(1))
        let shown = try #require(details.currentState.details)
        #expect(shown.task.title == "Pay rent")
        #expect(shown.blockers.map(\.id) == [2])
        #expect(details.currentState.history.map(\.summary).contains { $0.contains("Pay rent") }, "\(details.currentState.history)")
        let rows = shown.rows(zone: .fixed(offsetSeconds: 0), now: Timestamp(millisecondsSince1970: 0))
        #expect(rows.first { $0.name == "depends" }?.lines == ["2 — blocked"])

        let kept = details.currentState.history.count
        // Another reactor's change (the list's, or a catch-up of another process's) arrives.
        let list = TaskListReactor(service: service)
        var annotate = TaskChanges()
        annotate.annotate = ["called the landlord"]
        list.action.onNext(.update(1, annotate))
        #expect(details.currentState.details?.task.annotations.map(\.text) == ["called the landlord"])
        #expect(details.currentState.history.count == kept + 1, "the annotation's entry, newest first: \(details.currentState.history)")
        #expect(details.currentState.history.first?.summary.contains("annotated") == true || details.currentState.history.first?.summary.contains("edited") == true)
        list.action.onNext(.deleteTasks([1]))
        #expect(details.currentState.details == nil, "a task deleted is no details")
        details.action.onNext(.show(2))
        #expect(details.currentState.details?.blocking == [], "2 blocks nothing once 1 is gone")
    }

    static func value<T>(_ observable: Observable<T>) throws -> T {
        var result: Result<T, any Error>?
        _ = observable.subscribe(onNext: { result = .success($0) }, onError: { result = .failure($0) })
        return try #require(result).get()
    }
}
