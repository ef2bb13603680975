import Testing
@testable import TaskModel

@Suite("The field rules every way in shares")
struct FieldRulesTests {
    @Test func titlesAreTrimmedOneLineAndBounded() throws {
        #expect(try FieldRules.title("  Buy milk \t") == "Buy milk")
        #expect(try FieldRules.title("사과 사기") == "사과 사기")
        #expect(throws: TaskFieldError.emptyTitle) { try FieldRules.title(" \t ") }
        #expect(throws: TaskFieldError.multilineTitle) { try FieldRules.title("one\ntwo") }
        #expect(throws: TaskFieldError.multilineTitle) { try FieldRules.title("één\u{2028}twee") }
        let long = String(repeating: "é", count: 2049)
        #expect(throws: TaskFieldError.titleTooLong(bytes: 4098, limit: 4096)) { try FieldRules.title(long) }
    }

    @Test func listsTagsPrioritiesDaysAndUUIDs() throws {
        #expect(try FieldRules.list(" Work ") == "Work")
        #expect(throws: TaskFieldError.emptyList) { try FieldRules.list("  ") }
        #expect(throws: TaskFieldError.emptyListPart("Work..Reports")) { try FieldRules.list("Work..Reports", typed: true) }
        #expect(try FieldRules.list("Work..Reports") == "Work..Reports", "what another client wrote is kept")
        try FieldRules.checkTag("errand")
        try FieldRules.checkTag("장보기")
        #expect(throws: TaskFieldError.badTag("two words")) { try FieldRules.checkTag("two words") }
        #expect(throws: TaskFieldError.badTag("")) { try FieldRules.checkTag("") }
        #expect(try FieldRules.priority(" h ") == .high)
        #expect(try FieldRules.priority("") == nil)
        #expect(throws: TaskFieldError.badValue(.priority, "urgent")) { try FieldRules.priority("urgent") }
        let today = CalendarDay(year: 2026, month: 11, day: 29) ?? .unixEpoch
        #expect(try FieldRules.date("tomorrow", today: today) == CalendarDay(year: 2026, month: 11, day: 30).map(TaskDate.init))
        #expect(try FieldRules.date("tomorrow 9:30", today: today)?.description == "2026-11-30T09:30:00+00:00", "counted in UTC")
        #expect(try FieldRules.date("", today: today) == nil)
        #expect(throws: TaskFieldError.badValue(.due, "soon")) { try FieldRules.date("soon", today: today) }
        #expect(try FieldRules.uuid("0190F1E2-7C3A-7B4D-8E5F-123456789ABC") == "0190f1e2-7c3a-7b4d-8e5f-123456789abc")
        #expect(throws: TaskFieldError.badUUID("0190f1e2")) { try FieldRules.uuid("0190f1e2") }
    }

    @Test func uuidsHaveTheirVersionAndTheStoresAreIncreasing() {
        let random = UUIDText.random()
        #expect(UUIDText.normalized(random) == random)
        #expect(Array(random)[14] == "4")
        var clock: Int64 = 1_764_000_000_000
        let next = TimeOrderedUUID.generator { Timestamp(millisecondsSince1970: clock) }
        var made: [String] = []
        for step in 0..<5000 {
            if step % 1000 == 0 { clock += 1 }
            made.append(next())
        }
        #expect(made == made.sorted(), "increasing within a millisecond and across them")
        #expect(Set(made).count == made.count)
        #expect(made.allSatisfy { Array($0)[14] == "7" })
    }
}
