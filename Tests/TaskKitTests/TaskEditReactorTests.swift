import ReactorCore
import ReactorTesting
import Testing
@testable import TaskKit

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

    @Test func everyFieldIsValidatedWithAMessageAPersonCanActOn() {
        let service = FakeTaskService()
        let cases: [(TaskEditReactor.Action, TaskFieldError)] = [
            (.updateTitle("two\nlines"), .multilineTitle),
            (.updateList("  "), .emptyList),
            (.updateDue("next blursday"), .badDue("next blursday")),
            (.updateDue("2026-02-30"), .badDue("2026-02-30")),
            (.updatePriority("urgent"), .badPriority("urgent")),
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
        #expect(TaskFieldError.badDue("x").description.contains("YYYY-MM-DD"))
    }

    @Test func submitCreatesWithParsedFieldsAndDismisses() {
        let service = FakeTaskService()
        let store = TestStore(TaskEditReactor(mode: .new, service: service, today: { today }))
        store.send(.updateTitle("  Call mum  ")) { $0.fields.title = "  Call mum  " }
        store.send(.updateDue("tomorrow")) { $0.fields.due = "tomorrow" }
        store.send(.updatePriority("h")) { $0.fields.priority = "h" }
        store.send(.addTag("family")) { $0.fields.tags = ["family"] }
        store.send(.submit) { $0.saved = service.tasks.first }
        store.receive { $0.isDismissed = true }
        let saved = service.tasks[0]
        #expect(saved.title == "Call mum")
        #expect(saved.due == CalendarDay("2026-11-30"))
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
        store.send(.submit) { $0.failure = ServiceFailure(FakeFailure()) }
        store.send(.submit) { $0.saved = service.tasks.first }
        store.receive { $0.isDismissed = true }
        store.finish()
    }
}

@Suite("Due dates as typed")
struct DueDateTests {
    @Test func relativeAndAbsoluteDates() {
        // 2026-11-29 is a Sunday.
        #expect(today.weekday == 6)
        let cases: [(String, String?)] = [
            ("2026-12-24", "2026-12-24"), ("today", "2026-11-29"), ("Tomorrow", "2026-11-30"),
            ("+3d", "2026-12-02"), ("+2w", "2026-12-13"), ("monday", "2026-11-30"), ("sun", "2026-12-06"),
            ("fri", "2026-12-04"), ("2026-13-01", nil), ("+d", nil), ("mo", nil), ("", nil), ("2024-02-29", "2024-02-29"),
            ("2025-02-29", nil),
        ]
        for (text, expected) in cases {
            #expect(DueDate.parse(text, today: today)?.description == expected, "\(text)")
        }
    }

    @Test func calendarArithmeticRoundTrips() {
        for days in stride(from: -719_162, through: 2_932_896, by: 997) {  // 0001-01-01 to 9999-12-31
            let day = CalendarDay(daysSince1970: days)
            #expect(day?.daysSince1970 == days)
        }
        #expect(CalendarDay("1970-01-01")?.daysSince1970 == 0)
        #expect(CalendarDay(daysSince1970: -719_163) == nil, "before year 1")
        #expect(CalendarDay(daysSince1970: 2_932_897) == nil, "after year 9999")
        #expect(CalendarDay("2000-03-01")?.adding(days: -1)?.description == "2000-02-29")
    }
}

@Suite("CalendarDay from text")
struct CalendarDayParsingTests {
    @Test func exactlyYYYYMMDD() {
        #expect(CalendarDay("2026-11-29") == CalendarDay(year: 2026, month: 11, day: 29))
        #expect(CalendarDay("2024-02-29"[...]) == CalendarDay(year: 2024, month: 2, day: 29))
        for bad in ["2026-11-2", "2026-11-290", "2026/11/29", "２０２６-11-29", "2026-1a-29", "-026-11-29", "2026-11-29 ", "",
                    "2025-02-29", "0000-01-01", "2026-00-10"] {
            #expect(CalendarDay(bad) == nil, "\(bad)")
        }
    }
}
