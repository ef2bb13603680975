import ReactorCore
import _ReactorTesting
import Testing
@testable import TaskReactors
import TaskModel
import _TaskServiceFake

@Suite("TaskEditReactor")
struct TaskEditReactorTests {
    @Test func canSubmitInNewMode() {
        let store = TestStore(TaskEditReactor(mode: .new, service: FakeTaskService(), today: { today }))
        #expect(!store.reactor.currentState.canSubmit)
        store.send(.updateTitle("   ")) { $0.fields.title = "   " }
        #expect(!store.reactor.currentState.canSubmit, "whitespace is not a title")
        store.send(.updateTitle("Buy milk")) { $0.fields.title = "Buy milk" }
        #expect(store.reactor.currentState.canSubmit)
        store.finish()
    }

    @Test func canSubmitInEditMode() {
        let service = FakeTaskService()
        let task = seed(service, [TaskDraft(title: "Buy milk")])[0]
        let store = TestStore(TaskEditReactor(mode: .edit(task), service: service, today: { today }))
        #expect(store.reactor.currentState.canSubmit)
        store.send(.updateTitle("")) { $0.fields.title = "" }
        #expect(!store.reactor.currentState.canSubmit)
        store.finish()
    }

    @Test func shouldConfirmCancelGoesBackToFalseWhenTheTextIsRestored() {
        let service = FakeTaskService()
        let task = seed(service, [TaskDraft(title: "Buy milk", tags: ["shop"])])[0]
        let store = TestStore(TaskEditReactor(mode: .edit(task), service: service, today: { today }))
        #expect(!store.reactor.currentState.shouldConfirmCancel)
        store.send(.updateTitle("Buy milk!")) { $0.fields.title = "Buy milk!" }
        #expect(store.reactor.currentState.shouldConfirmCancel)
        store.send(.updateTitle("Buy milk")) { $0.fields.title = "Buy milk" }
        #expect(!store.reactor.currentState.shouldConfirmCancel)
        store.send(.removeTag("shop")) { $0.fields.tags = [] }
        #expect(store.reactor.currentState.shouldConfirmCancel)
        store.send(.addTag("shop")) { $0.fields.tags = ["shop"] }
        #expect(!store.reactor.currentState.shouldConfirmCancel)
        store.finish()
    }

    @Test func cancelDismissesAndSavesNothing() {
        let service = FakeTaskService()
        let store = TestStore(TaskEditReactor(mode: .new, service: service, today: { today }))
        store.send(.updateTitle("never")) { $0.fields.title = "never" }
        store.send(.cancel) { $0.isDismissed = true }
        #expect(service.tasks.isEmpty)
        store.finish()
    }

    @Test func anEmptyTitleIsRefusedAndNothingChanges() {
        let service = FakeTaskService()
        let store = TestStore(TaskEditReactor(mode: .new, service: service, today: { today }))
        store.send(.updateTitle(" \t ")) { $0.fields.title = " \t " }
        store.send(.submit) { $0.validationError = .emptyTitle }
        #expect(service.tasks.isEmpty)
        #expect(!store.reactor.currentState.isDismissed)
        store.finish()
    }

    /// Issue 24: the ui's editor stored `+writing` as the tag `+writing` (the command line
    /// takes the `+` off), and `--tag ++a` stored `+a`.
    @Test func aTagTypedWithItsPlusIsTheTagAndTwoPlusesAreRefused() {
        let service = FakeTaskService()
        let store = TestStore(TaskEditReactor(mode: .new, service: service, today: { today }))
        store.send(.updateTitle("Draft")) { $0.fields.title = "Draft" }
        store.send(.setTags(["+writing", "home", "writing"])) { $0.fields.tags = ["home", "writing"] }
        store.send(.addTag("+errand")) { $0.fields.tags = ["errand", "home", "writing"] }
        store.send(.addTag("++a")) { $0.fields.tags = ["+a", "errand", "home", "writing"] }
        store.send(.submit) { $0.validationError = .badTag("+a") }
        #expect(service.tasks.isEmpty)
        store.finish()
    }

    /// `add -`: the store sees every line's title in order, and a bad line far past the first
    /// is named by its number with nothing created.
    @Test func streamedLinesKeepTheirOrderAndABadLineItsNumber() {
        func lines(_ count: Int, blankAt blank: Int? = nil) -> TaskTitleSource {
            var read = 0
            return {
                read += 1
                guard read <= count else { return nil }
                return read == blank ? "  " : "Line \(read)"
            }
        }
        let count = 1_027
        let service = FakeTaskService()
        let reactor = TaskEditReactor(mode: .new, service: service, today: { today })
        reactor.action.onNext(.submitLines(lines(count)))
        #expect(reactor.currentState.validationError == nil)
        #expect(reactor.currentState.creation.map { if case .committed(_, let made, _) = $0 { made } else { -1 } } == count)
        #expect(service.tasks.map(\.title) == (1...count).map { "Line \($0)" })
        #expect(service.checkedCounts == [count], "read to its end and checked before the store was called")

        let failing = FakeTaskService()
        let refused = TaskEditReactor(mode: .new, service: failing, today: { today })
        let blank = 778
        refused.action.onNext(.submitLines(lines(count, blankAt: blank)))
        #expect(refused.currentState.validationError == .inItem(blank, .emptyTitle))
        #expect(failing.tasks.isEmpty)
        #expect(failing.checkedCounts.isEmpty, "the store was never called")
    }

    /// A tag kept from before (an import of an older file) does not stop an edit of another field.
    @Test func aTagAlreadyOnTheTaskIsKeptAsItIs() {
        let service = FakeTaskService()
        let task = seed(service, [TaskDraft(title: "Old", tags: ["+old"])])[0]
        let reactor = TaskEditReactor(mode: .edit(task), service: service, today: { today })
        reactor.action.onNext(.updateTitle("New"))
        reactor.action.onNext(.submit)
        #expect(reactor.currentState.validationError == nil)
        #expect(service.tasks.first?.title == "New" && service.tasks.first?.tags == ["+old"])
    }

    @Test func everyFieldIsValidatedWithAMessageAPersonCanActOn() {
        let service = FakeTaskService()
        let cases: [(TaskEditReactor.Action, TaskFieldError)] = [
            (.updateTitle("two\nlines"), .multilineTitle),
            (.updateList("  "), .emptyList),
            (.update(.due, "next blursday"), .badValue(.due, "next blursday")),
            (.update(.due, "2026-02-30"), .badValue(.due, "2026-02-30")),
            (.update(.priority, "urgent"), .badValue(.priority, "urgent")),
            (.addTag("two words"), .badTag("two words")),
        ]
        for (action, error) in cases {
            let reactor = TaskEditReactor(mode: .new, service: service, today: { today })
            reactor.action.onNext(.updateTitle("ok"))
            reactor.action.onNext(action)
            reactor.action.onNext(.submit)
            #expect(reactor.currentState.validationError == error)
            #expect(!reactor.currentState.isDismissed)
            #expect(!error.description.isEmpty)
        }
        #expect(service.tasks.isEmpty)
        #expect(TaskFieldError.badValue(.due, "x").description.contains("YYYY-MM-DD"))
    }

    @Test func submitCreatesWithParsedFieldsAndDismisses() {
        let service = FakeTaskService()
        let store = TestStore(TaskEditReactor(mode: .new, service: service, today: { today }))
        store.send(.updateTitle("  Call mum  ")) { $0.fields.title = "  Call mum  " }
        store.send(.update(.due, "tomorrow")) { $0.fields[.due] = "tomorrow" }
        store.send(.update(.priority, "h")) { $0.fields[.priority] = "h" }
        store.send(.addTag("family")) { $0.fields.tags = ["family"] }
        store.send(.submit) { $0.saved = service.tasks.first }
        store.receive { $0.isDismissed = true }
        let saved = service.tasks[0]
        #expect(saved.title == "Call mum")
        #expect(saved.due?.day == CalendarDay("2026-11-30"))
        #expect(saved.priority == .high)
        #expect(saved.tags == ["family"])
        store.finish()
    }

    @Test func editingKeepsTheFieldsItDidNotTouch() {
        let service = FakeTaskService()
        let task = seed(service, [TaskDraft(title: "Report", notes: "the long memo", due: CalendarDay("2026-12-01"), priority: .low, tags: ["work"])])[0]
        let editor = TaskEditReactor(mode: .edit(task), service: service, today: { today })
        editor.action.onNext(.updateTitle("Quarterly report"))
        editor.action.onNext(.submit)
        let saved = service.tasks[0]
        #expect(saved.title == "Quarterly report")
        #expect(saved.notes == "the long memo", "RxTodo's edit wiped the memo")
        #expect(saved.due == task.due)
        #expect(saved.priority == .low)
        #expect(saved.tags == ["work"])
        #expect(editor.currentState.saved == saved)
        #expect(editor.currentState.isDismissed)
    }

    @Test func aServiceFailureOnSubmitIsReportedAndDoesNotDismiss() {
        let service = FakeTaskService()
        let store = TestStore(TaskEditReactor(mode: .new, service: service, today: { today }))
        store.send(.updateTitle("x")) { $0.fields.title = "x" }
        service.failNext = true
        store.send(.submit) { $0.failure = TaskServiceError(FakeFailure()) }
        store.send(.submit) { $0.saved = service.tasks.first }
        store.receive { $0.isDismissed = true }
        store.finish()
    }

    /// The task being edited was deleted by another process: the save fails as not found, the
    /// fields stay as typed, and `submitAsNew` makes them a new task (issue 50).
    @Test func anEditOfATaskDeletedMeanwhileCanBeSavedAsANewTask() {
        let service = FakeTaskService()
        let task = seed(service, [TaskDraft(title: "Report", notes: "the long memo", priority: .low, tags: ["work"])])[0]
        let editor = TaskEditReactor(mode: .edit(task), service: service, today: { today })
        editor.action.onNext(.updateTitle("Quarterly report"))
        _ = service.delete(ids: [task.id]).subscribe()
        editor.action.onNext(.submit)
        #expect(editor.currentState.failure == .notFound(ids: [task.id]))
        #expect(editor.currentState.fields.title == "Quarterly report" && !editor.currentState.isDismissed, "nothing typed is lost")
        editor.action.onNext(.submitAsNew)
        #expect(editor.currentState.mode == .new && editor.currentState.isDismissed)
        let saved = service.tasks.first
        #expect(saved?.title == "Quarterly report" && saved?.notes == "the long memo" && saved?.priority == .low && saved?.tags == ["work"])
        #expect(saved?.id != task.id && saved?.uuid != task.uuid)
    }
}
