import ReactorCore
import _ReactorTesting
import Testing
@testable import TaskReactors
import TaskModel
import _TaskServiceFake

@Suite("TaskImportReactor")
struct TaskImportReactorTests {
    @Test func importsInOneCallWithImportingAroundIt() {
        let service = FakeTaskService()
        let reactor = TaskImportReactor(service: service)
        var importing: [Int?] = []
        let disposable = reactor.state.map(\.importing).distinctUntilChanged().bind { importing.append($0) }
        reactor.action.onNext(.importTasks(TaskImportBatch(records: [
            TaskRecord(uuid: "0190F1E2-7C3A-7B4D-8E5F-123456789ABC", title: "  Buy milk  ", list: " Home ", tags: ["errand"]),
            TaskRecord(title: "Call mom", isDone: true),
        ])))
        #expect(importing == [nil, 2, nil])
        #expect(reactor.currentState.result == TaskImportResult(created: 2))
        #expect(service.tasks.map(\.title) == ["Buy milk", "Call mom"], "titles trimmed like add's")
        #expect(service.tasks[0].uuid == "0190f1e2-7c3a-7b4d-8e5f-123456789abc" && service.tasks[0].list == "Home")
        #expect(service.tasks[1].isDone && service.tasks[1].completed != nil)
        disposable.dispose()
    }

    @Test func theSameRecordsAgainChangeNothing() {
        let service = FakeTaskService()
        let records = [TaskRecord(uuid: "0190f1e2-7c3a-7b4d-8e5f-123456789abc", title: "Buy milk")]
        let first = TaskImportReactor(service: service)
        first.action.onNext(.importTasks(TaskImportBatch(records: records)))
        let before = service.tasks
        let second = TaskImportReactor(service: service)
        second.action.onNext(.importTasks(TaskImportBatch(records: records)))
        #expect(second.currentState.result == TaskImportResult(unchanged: 1))
        #expect(service.tasks == before)
        var changed = records
        changed[0].fields.title = "Buy oat milk"
        let third = TaskImportReactor(service: service)
        third.action.onNext(.importTasks(TaskImportBatch(records: changed)))
        #expect(third.currentState.result == TaskImportResult(updated: 1))
        #expect(service.tasks.map(\.title) == ["Buy oat milk"] && service.tasks[0].id == before[0].id)
    }

    @Test func aBadRecordStopsAllNamedByItsNumberAndNothingIsWritten() {
        let service = FakeTaskService()
        let store = TestStore(TaskImportReactor(service: service))
        let batch = TaskImportBatch(records: [TaskRecord(title: "fine"), TaskRecord(title: "two\nlines")], unit: "line", numbers: [3, 7])
        store.send(.importTasks(batch)) { $0.validationError = .inRecord("line", 7, .multilineTitle) }
        let uuid = "0190f1e2-7c3a-7b4d-8e5f-123456789abc"
        store.send(.importTasks(TaskImportBatch(records: [TaskRecord(uuid: uuid, title: "a"), TaskRecord(uuid: uuid.uppercased(), title: "b")]))) {
            $0.validationError = .inRecord("record", 2, .duplicateUUID(uuid, first: 1))
        }
        store.send(.importTasks(TaskImportBatch(records: [TaskRecord(uuid: "not-a-uuid", title: "a")]))) {
            $0.validationError = .inRecord("record", 1, .badUUID("not-a-uuid"))
        }
        store.send(.importTasks(TaskImportBatch(records: [TaskRecord(title: "a", tags: ["two words"])]))) {
            $0.validationError = .inRecord("record", 1, .badTag("two words"))
        }
        store.send(.importTasks(TaskImportBatch(records: [TaskRecord(title: "a", completed: Timestamp(millisecondsSince1970: 1))]))) {
            $0.validationError = .inRecord("record", 1, .completedButPending)
        }
        store.finish()
        #expect(service.tasks.isEmpty)
    }

    @Test func aServiceFailureIsReported() {
        let service = FakeTaskService()
        service.failNext = true
        let reactor = TaskImportReactor(service: service)
        reactor.action.onNext(.importTasks(TaskImportBatch(records: [TaskRecord(title: "a")])))
        #expect(reactor.currentState.failure == TaskServiceError(FakeFailure()))
        #expect(reactor.currentState.result == nil && reactor.currentState.importing == nil)
    }
}

@Suite("TaskRecord over a task")
struct TaskRecordTests {
    let now = Timestamp(millisecondsSince1970: 5_000)

    @Test func whatARecordLeavesOutIsKeptOrNow() {
        let existing = Task(id: 7, uuid: "u", title: "a", list: "Work", isDone: true, completed: Timestamp(millisecondsSince1970: 2),
                            position: 42, created: Timestamp(millisecondsSince1970: 1), modified: Timestamp(millisecondsSince1970: 3))
        let same = TaskRecord(uuid: "u", title: "a", list: "Work", isDone: true)
        #expect(same.task(over: existing, id: 99, uuid: "v", bottom: 1000, now: now) == existing, "nothing differs: nothing changes")
        let moved = TaskRecord(uuid: "u", title: "a", list: "Home", isDone: true, tags: ["b", "a", "b", ""])
        let task = moved.task(over: existing, id: 99, uuid: "v", bottom: 1000, now: now)
        #expect(task.id == 7 && task.uuid == "u" && task.position == 1000 && task.tags == ["a", "b"])
        #expect(task.created == existing.created && task.completed == existing.completed && task.modified == now)
        let new = TaskRecord(title: "n", isDone: true, modified: Timestamp(millisecondsSince1970: 4))
            .task(over: nil, id: 8, uuid: "w", bottom: 65536, now: now)
        #expect(new.id == 8 && new.uuid == "w" && new.created == now && new.completed == Timestamp(millisecondsSince1970: 4))
    }
}
