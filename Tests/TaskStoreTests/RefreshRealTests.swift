import ReactorCore
import TaskKit
import Testing
@testable import TaskStore

@Suite("TaskListReactor refreshes on SQLite")
struct RefreshRealTests {
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
        reactor.action.onNext(.toggleTaskDone(150))
        #expect(reactor.currentState.tasks.count == 300)
        reactor.action.onNext(.refresh(query))
        #expect(reactor.currentState.tasks.count == 300)
        #expect(reactor.currentState.sections.map(\.items.count) == [100, 100, 100])
    }
}
