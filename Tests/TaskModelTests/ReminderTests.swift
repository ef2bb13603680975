import Testing
import TaskModel

/// Issue 54: a reminder's words, read and written back, and the moment it rings.
@Suite("Reminders: their words and their moments")
struct ReminderTests {
    let today = CalendarDay("2026-12-01") ?? .unixEpoch

    @Test func relativeWordsAreReadAndWrittenOneWay() {
        for (typed, canonical) in [("due-15min", "due-15min"), ("due-15m", "due-15min"), ("DUE-15MIN", "due-15min"), ("-15min", "due-15min"),
                                   ("due", "due"), ("start", "start"), ("wait-1h", "start-1h"), ("start+1h30min", "start+1h30min"),
                                   ("due-1d", "due-1d"), ("due-2w", "due-14d"), ("due+90s", "due+1min30s"), ("due-366d", "due-366d")] {
            #expect(Reminder(relative: typed)?.description == canonical, "\(typed)")
            #expect(Reminder(relative: canonical)?.description == canonical, "\(canonical) reads back as itself")
        }
        for bad in ["", "due-", "due-367d", "due-15", "dues-1h", "due*1h", "due-1y", "due-99999999999w", "due--1h", "due-1h1h1", "soon"] {
            #expect(Reminder(relative: bad) == nil, "\(bad)")
        }
    }

    @Test func momentsAreReadByTheDateGrammarToTheSecond() throws {
        let context = DateContext.on(today)
        #expect(Reminder.judge("tomorrow 9:00", in: context)?.description == "20261202T090000Z")
        #expect(Reminder.judge("2026-12-24T18:00+01:00", in: context)?.description == "20261224T170000Z")
        #expect(Reminder.judge("20261224T170000Z", in: context)?.description == "20261224T170000Z")
        #expect(Reminder.judge("tomorrow", in: context) == nil, "a day alone is no moment")
        #expect(Reminder(at: Timestamp(millisecondsSince1970: 1_796_000_000_999)).moment?.millisecondsSince1970 == 1_796_000_000_000,
                "milliseconds dropped")
        #expect(Reminder(at: Timestamp(millisecondsSince1970: -1)).moment?.millisecondsSince1970 == -1000, "before 1970 too: floored")
    }

    @Test func theMomentItRingsForATask() throws {
        let zone = LocalTime.fixed(offsetSeconds: -5 * 3600)
        var task = Task(unsaved: "Dentist")
        let due = try #require(Reminder(relative: "due-15min")), start = try #require(Reminder(relative: "start+1h"))
        #expect(due.fires(for: task, in: zone) == nil, "no due: it never rings")
        task.due = TaskDate("2026-12-10T14:00:00Z")
        #expect(due.fires(for: task, in: zone) == TimestampText.parse("2026-12-10T13:45:00Z"))
        task.due = TaskDate("2026-12-10")
        #expect(due.fires(for: task, in: zone) == TimestampText.parse("2026-12-10T04:45:00Z"), "a day's due counts from its local midnight")
        task.wait = TaskDate("2026-12-09")
        #expect(start.fires(for: task, in: zone) == TimestampText.parse("2026-12-09T06:00:00Z"))
        let far = Reminder(at: Timestamp(millisecondsSince1970: .max))
        #expect(far.fires(for: task, in: zone) != nil, "a moment rings when it says, whatever the task's dates")
    }

    @Test func aPeersWordsThatAreNoRemindersAreRefused() {
        #expect(ReceivedFieldRules.refusal("reminders", .text(" due-15min 20261224T170000Z ")) == nil)
        #expect(ReceivedFieldRules.refusal("reminders", .text(" due-15min whenever ")) == "reminders: 'whenever' is not a reminder")
        #expect(ReceivedFieldRules.refusal("reminders", .null) == "reminders is null")
        #expect(ReceivedFieldRules.refusal("reminders", .integer(3)) != nil)
    }
}
