import QueryLanguage
import ReactorCore
import TaskModel
import _TaskServiceFake
import TaskReactors
import TerminalKit
import Testing
@testable import TaskUI

/// `/` with the filter grammar: each key reads the words again and sends the query they make,
/// ANDed with the query the screen opened with; a word that cannot be read is shown in place
/// and nothing is sent.
@Suite("The list screen's filter bar")
struct FilterBarTests {
    let rows = [task(1, "a"), task(2, "b"), task(3, "c", list: "Work")]
    static let settings = FilterSettings(dates: DateContext(now: Timestamp(millisecondsSince1970: 1_796_032_800_000), today: today, zone: .fixed(offsetSeconds: 0)))

    /// The queries the keys send (`refresh`), the screen's prompt after them, and its status line.
    private func typing(_ keys: [Key], base: TaskQuery) -> (queries: [TaskQuery], screen: ListScreen, others: [String]) {
        let scheduler = TestScheduler(initialClock: 0)
        let typed = scheduler.createHotObservable(keys.enumerated().map { .next(10 * ($0.offset + 1), $0.element) })
        let reactor = TaskListReactor(service: FakeTaskService())
        reactor.isStubEnabled = true
        reactor.stub.state.accept(listState(rows, query: base))
        let view = ListScreen(keys: typed.asObservable(), size: (10, 60), style: ScreenStyle(color: false), today: { today })
        view.filterSettings = { Self.settings }
        view.reactor = reactor
        scheduler.start()
        var queries: [TaskQuery] = [], others: [String] = []
        for action in reactor.stub.actions {
            if case .refresh(let query) = action { queries.append(query) } else { others.append(String(describing: action)) }
        }
        return (queries, view, others)
    }

    private func parsed(_ text: String) -> TaskFilter? {
        try? FilterParser(settings: Self.settings).parse(FilterParser.words(of: text)).filter
    }

    @Test func eachKeyReadsTheGrammarAndANDsItWithTheScreensFilter() {
        var base = TaskQuery()
        base.filter = parsed("list:Work")
        let got = typing([.character("/"), .character("+"), .character("a"), .enter, .character("j")], base: base)
        // "+" alone is a word of a title; "+a" the tag.
        #expect(got.queries.map(\.filter) == [TaskFilter.all([parsed("list:Work"), parsed("+")]), TaskFilter.all([parsed("list:Work"), parsed("+a")])])
        #expect(got.others == ["moveCursor(to: 1)"], "Enter closes the bar and gives the keys back")
        #expect(got.screen.prompt == nil && got.screen.filterText == "+a")
    }

    @Test func anErrorIsShownInPlaceAndEnterKeepsWhatWasTyped() {
        let keys: [Key] = [.character("/")] + "due:fry".map { .character($0) } + [.enter]
        let got = typing(keys, base: TaskQuery())
        guard case .filter(let field, let error)? = got.screen.prompt else {
            Issue.record("the bar closed: \(String(describing: got.screen.prompt))")
            return
        }
        #expect(field.text == "due:fry")
        #expect(error?.contains("'due:fry'") == true, "\(error ?? "")")
        // "d", "du", "due" read (words of a title) and "due:" (no due date); "due:f", "due:fr" did not.
        #expect(got.queries.count == 4)
    }

    @Test func aStatusTypedChoosesAmongEveryTaskAndEscapeGoesBack() {
        let base = TaskQuery()
        let got = typing([.character("/")] + "status:done".map { .character($0) } + [.escape], base: base)
        let done = got.queries.first { $0.filter == parsed("status:done") }
        #expect(done?.status == .all && done?.waiting == .shown, "the typed words name the status")
        #expect(got.queries.last == base, "Escape reads the screen's own query again")
        #expect(got.screen.filterText.isEmpty)
    }
}

/// `f` and `@`: the reports and contexts the program names, each choice read as its query.
@Suite("The list screen's reports and contexts")
struct ScreenQueriesTests {
    @Test func fCyclesTheReportsAndAtChoosesAContext() {
        let scheduler = TestScheduler(initialClock: 0)
        let keys: [Key] = [.character("f"), .character("f"), .character("@"), .character("w"), .tab, .enter, .character("@"), .enter,
                           .character("@"), .character("x"), .enter]
        let typed = scheduler.createHotObservable(keys.enumerated().map { .next(10 * ($0.offset + 1), $0.element) })
        let reactor = TaskListReactor(service: FakeTaskService())
        reactor.isStubEnabled = true
        reactor.stub.state.accept(listState([task(1, "a")]))
        let view = ListScreen(keys: typed.asObservable(), size: (10, 60), style: ScreenStyle(color: false), today: { today })
        var asked: [String] = []
        view.queries = ScreenQueries(reports: ["list", "waiting"], contexts: ["home", "work"], context: nil) { report, context in
            asked.append(report + "@" + (context ?? "-"))
            var query = TaskQuery()
            query.search = report + (context ?? "")
            return .success(query)
        }
        view.reactor = reactor
        scheduler.start()
        // The screen opens on list: f goes on to waiting, then round to list; @w Tab: work;
        // @ Enter: none; @x: refused (no such context), nothing read.
        #expect(asked == ["waiting@-", "list@-", "list@work", "list@-"])
        let searched = reactor.stub.actions.compactMap { action -> String? in
            if case .refresh(let query) = action { return query.search }
            return nil
        }
        #expect(searched == ["waiting", "list", "listwork", "list"])
        #expect(view.report == "list" && view.context == nil)
        #expect(view.message?.text == "no context 'x'; defined: home, work")
    }
}
