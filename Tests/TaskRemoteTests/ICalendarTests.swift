#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import TaskModel
@testable import TaskRemote
import Testing

@Suite("An iCalendar item read, and patched line by line")
struct ICalendarTests {
    let berlin = LocalTime.fixed(offsetSeconds: 3600)

    func fixture(_ name: String) -> String {
        String(decoding: readBytes(fixturesFolder() + "/caldav/" + name), as: UTF8.self)
    }

    @Test func anItemFromThunderbirdReadsAsATask() throws {
        let calendar = ICalendar(fixture("thunderbird-todo.ics"))
        let fields = VTodoMapping.fields(of: calendar, zone: berlin)
        #expect(VTodoMapping.uid(of: calendar) == "3f1c2a9e-0b7d-4c1e-9a55-2d6c3b1f8e01")
        #expect(fields["title"] == .text("Renew passport, then book flights"), "the VALARM's SUMMARY is its own")
        #expect(fields["notes"] == .text("Bring two photos.\nForm on the table; fee 70 EUR."))
        #expect(fields["priority"] == .integer(0), "3 is high")
        #expect(fields["done"] == .integer(0))
        #expect(fields["tags"] == .text(" admin errands travel_plans "), "every CATEGORIES, a space made _")
        // December: Berlin is at +01:00 by the item's own VTIMEZONE.
        #expect(fields["due"] == .text("2026-12-10T17:00:00+01:00[Europe/Berlin]"))
        #expect(fields["wait"] == .text("2026-12-05T09:00:00+01:00[Europe/Berlin]"))
        #expect(fields["created"] == .integer(1_793_520_000_000))
        #expect(fields["start"] == .null && fields["annotations"] == .text("") && fields["depends"] == .text(""))
    }

    @Test func aSummerTimeReadsWithTheDaylightOffset() {
        let text = fixture("thunderbird-todo.ics").replacingOccurrences("DUE;TZID=Europe/Berlin:20261210T170000", "DUE;TZID=Europe/Berlin:20260710T170000")
        let fields = VTodoMapping.fields(of: ICalendar(text), zone: berlin)
        #expect(fields["due"] == .text("2026-07-10T17:00:00+02:00[Europe/Berlin]"))
    }

    /// The promise: a change writes the properties of the fields it changes (and the stamps),
    /// and every other line goes back exactly as it came — folds, parameters, the VALARM.
    @Test func changingTheTitleLeavesEveryOtherLineByteForByte() {
        let original = fixture("thunderbird-todo.ics")
        var calendar = ICalendar(original)
        VTodoMapping.write(["title": .text("Renew passport")], into: &calendar, now: Timestamp(millisecondsSince1970: 1_796_000_000_000))
        let before = ICalendar(original).lines.map(\.raw)
        let after = calendar.lines.map(\.raw)
        let owned: Set<String> = ["SUMMARY", "DTSTAMP", "LAST-MODIFIED"]
        let keptBefore = before.filter { !owned.contains(ICalendar.Line(raw: $0, content: $0).property.name) || $0.contains("Not the task") }
        let keptAfter = after.filter { !owned.contains(ICalendar.Line(raw: $0, content: $0).property.name) || $0.contains("Not the task") }
        #expect(keptBefore == keptAfter, "every line not written is there, in order, byte for byte")
        #expect(after.contains("SUMMARY:Renew passport\r\n"))
        #expect(after.contains("LAST-MODIFIED:20261130T005320Z\r\n") && after.contains("DTSTAMP:20261130T005320Z\r\n"))
        #expect(after.filter { $0.hasPrefix("SUMMARY") }.count == 2, "the task's and the alarm's")
        #expect(calendar.text.contains(" /over/two/lines.txt\r\n"), "a folded line keeps its fold")
    }

    @Test func everyFieldSurvivesAWriteAndARead() {
        let fields: [String: SyncValue] = [
            "title": .text("Büro; aufräumen, bitte \\ jetzt"), "notes": .text("line one\nline two, with; punctuation"),
            "done": .integer(0), "completed": .null, "due": .text("2026-12-24"), "wait": .text("2026-12-20T08:30:00+01:00[Europe/Berlin]"),
            "scheduled": .text("2026-12-21"), "until": .text("2027-01-31"), "priority": .integer(1), "tags": .text(" home shop "),
            "position": .integer(196_608), "created": .integer(1_796_000_000_000), "repeat": .text("every 1w"), "series": .text("abc"),
            "anchor": .text("2026-12-24"), "extras": .text(#"{"estimate":"1h"}"#), "start": .integer(1_796_000_100_000), "spent": .integer(3600),
            "depends": .text(" 0b0c0d0e-0000-4000-8000-000000000001 "),
            "annotations": .text(AnnotationsText.encode([Annotation(entry: Timestamp(millisecondsSince1970: 1_796_000_200_000), text: "called, no answer")])),
            "reminders": .text(" 20261224T080000Z due-1d start-15min "),
        ]
        var calendar = VTodoMapping.newItem(uuid: "u-1", now: Timestamp(millisecondsSince1970: 1_796_000_000_000))
        VTodoMapping.write(fields, into: &calendar, now: Timestamp(millisecondsSince1970: 1_796_000_300_000))
        let read = VTodoMapping.fields(of: ICalendar(calendar.text), zone: berlin)
        // The wait beside a due day: DTSTART is its day (one kind, RFC 5545), and the moment,
        // zone and all, is read back from X-TASKS-WAIT.
        for (field, value) in fields { #expect(read[field] == value, "\(field)") }
        #expect(calendar.text.contains("DTSTART;VALUE=DATE:20261220\r\n") && calendar.text.contains("X-TASKS-WAIT:2026-12-20T08:30:00+01:00[Europe/Berlin]"))
        var moments = fields
        moments["due"] = .text("2026-12-24T18:00:00+01:00")
        var utc = VTodoMapping.newItem(uuid: "u-2", now: Timestamp(millisecondsSince1970: 1_796_000_000_000))
        VTodoMapping.write(moments, into: &utc, now: Timestamp(millisecondsSince1970: 1_796_000_300_000))
        #expect(VTodoMapping.fields(of: ICalendar(utc.text), zone: berlin)["wait"] == .text("2026-12-20T08:30:00+01:00"),
                "beside a due moment: written in UTC and read on this clock")
        #expect(calendar.text.contains("STATUS:IN-PROCESS"), "started")
        #expect(calendar.text.contains("PRIORITY:5"), "M is 5")
        let names = calendar.lines.map(\.property.name)
        #expect((names.firstIndex(of: "DTSTART") ?? 99) < (names.firstIndex(of: "DUE") ?? 0), "DTSTART before DUE")
    }

    @Test func doneReopenedAndAnotherClientsCancelled() {
        let now = Timestamp(millisecondsSince1970: 1_796_000_000_000)
        var calendar = ICalendar(fixture("thunderbird-todo.ics"))
        VTodoMapping.write(["done": .integer(1), "completed": .integer(1_796_000_000_000)], into: &calendar, now: now)
        #expect(calendar.text.contains("STATUS:COMPLETED\r\n") && calendar.text.contains("PERCENT-COMPLETE:100\r\n") && calendar.text.contains("COMPLETED:20261130T005320Z"))
        VTodoMapping.write(["done": .integer(0), "completed": .null], into: &calendar, now: now)
        #expect(calendar.text.contains("STATUS:NEEDS-ACTION\r\n") && !calendar.text.contains("PERCENT-COMPLETE") && !calendar.text.contains("\r\nCOMPLETED:"))
        let cancelled = ICalendar(fixture("thunderbird-todo.ics").replacingOccurrences("STATUS:NEEDS-ACTION", "STATUS:CANCELLED"))
        #expect(VTodoMapping.fields(of: cancelled, zone: berlin)["done"] == .integer(1), "cancelled is done, never deleted")
        var stays = cancelled
        VTodoMapping.write(["title": .text("x"), "done": .integer(1)], into: &stays, now: now)
        #expect(stays.text.contains("STATUS:CANCELLED"), "and stays cancelled there")
    }

    @Test(arguments: [(1, Int64?.some(0)), (4, 0), (5, 1), (6, 2), (9, 2), (0, nil)])
    func prioritiesAsOtherClientsWriteThem(value: Int, rank: Int64?) {
        let text = fixture("thunderbird-todo.ics").replacingOccurrences("PRIORITY:3", "PRIORITY:\(value)")
        #expect(VTodoMapping.fields(of: ICalendar(text), zone: berlin)["priority"] == (rank.map { SyncValue.integer($0) } ?? .null))
    }

    /// The split convention: a pending occurrence carries the rule as an RRULE, a completed
    /// one none (the next occurrence, a new item, carries it); another client's RRULE reads as
    /// the rule it comes closest to.
    @Test func aRepeatingTaskCarriesItsRuleWhilePending() {
        let now = Timestamp(millisecondsSince1970: 0)
        var calendar = VTodoMapping.newItem(uuid: "u-3", now: now)
        VTodoMapping.write(["repeat": .text("every 2w"), "due": .text("2026-12-07"), "done": .integer(0)], into: &calendar, now: now)
        #expect(calendar.text.contains("RRULE:FREQ=WEEKLY;INTERVAL=2\r\n") && calendar.text.contains("X-TASKS-REPEAT:every 2w\r\n"))
        VTodoMapping.write(["done": .integer(1)], into: &calendar, now: now)
        #expect(!calendar.text.contains("RRULE"), "completed: the rule goes with the next occurrence")
        #expect(VTodoMapping.fields(of: calendar, zone: berlin)["repeat"] == .text("every 2w"))
        VTodoMapping.write(["done": .integer(0)], into: &calendar, now: now)
        #expect(calendar.text.contains("RRULE:FREQ=WEEKLY;INTERVAL=2\r\n"), "reopened: the rule is back")
        for (rrule, rule) in [("FREQ=DAILY", "every 1d"), ("FREQ=MONTHLY;INTERVAL=3;COUNT=4", "every 3m until 2027-09-05"), ("FREQ=DAILY;UNTIL=20261231T235959Z", "every 1d until 2026-12-31"), ("FREQ=YEARLY", "every 1y"),
                              ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "every weekday"), ("FREQ=WEEKLY;BYDAY=SA", "every 1w")] {
            let text = fixture("thunderbird-todo.ics").replacingOccurrences("PRIORITY:3", "RRULE:" + rrule)
            #expect(VTodoMapping.fields(of: ICalendar(text), zone: berlin)["repeat"] == .text(rule), "\(rrule)")
        }
        #expect(RepeatRule(kind: .every, count: 1, unit: .weekday).map { RepeatRRule.text(of: $0) } == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    }

    /// Thunderbird completes one occurrence of a weekly task with an override (`RECURRENCE-ID`,
    /// completed) and leaves the series' DUE where it began: the task here is the first
    /// occurrence not completed, its due and wait moved as many weeks on. A title edited here
    /// leaves the overrides byte for byte, and the item still reads the same occurrence.
    @Test func thunderbirdsCompletedOccurrencesMoveThePendingOne() {
        let text = fixture("thunderbird-repeating.ics")
        var calendar = ICalendar(text)
        let fields = VTodoMapping.fields(of: calendar, zone: berlin)
        #expect(fields["repeat"] == .text("every 1w"))
        #expect(fields["done"] == .integer(0))
        #expect(fields["due"] == .text("2026-11-16T18:00:00+01:00[Europe/Berlin]"), "two occurrences completed, the one in process is next")
        #expect(fields["wait"] == .text("2026-11-16T09:00:00+01:00[Europe/Berlin]"))
        VTodoMapping.write(["title": .text("Water the plants and the garden")], into: &calendar, now: Timestamp(millisecondsSince1970: 0))
        let overrides = { (text: String) in text.split(separator: "BEGIN:VTODO", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "|") }
        #expect(overrides(calendar.text) == overrides(text), "the overrides go back byte for byte")
        #expect(VTodoMapping.fields(of: calendar, zone: berlin)["due"] == fields["due"])
        let noneDone = text.replacingOccurrences("STATUS:COMPLETED", "STATUS:NEEDS-ACTION").replacingOccurrences("COMPLETED:2026", "X-WAS:2026")
        #expect(VTodoMapping.fields(of: ICalendar(noneDone), zone: berlin)["due"] == .text("2026-11-02T18:00:00+01:00[Europe/Berlin]"))
    }

    /// Issue 54: what tasks writes is valid RFC 5545, as a parser nobody here wrote reads it
    /// (`scripts/ical-validate`: Python's icalendar, and the rules for tasks it lets through) —
    /// a new item with every field, another client's items edited, a Thunderbird series
    /// completed here (its overrides go with its rule), the next occurrence made from it, a
    /// rule with an end.
    @Test(.enabled(if: access("/usr/bin/python3", X_OK) == 0, "needs python3-icalendar"))
    func whatIsWrittenIsValidAsAnotherParserReadsIt() throws {
        let folder = TemporaryFolder()
        let now = Timestamp(millisecondsSince1970: 1_796_032_800_000)
        var items: [(String, ICalendar)] = []
        var fresh = VTodoMapping.newItem(uuid: "u-1", now: now)
        var all: [String: SyncValue] = [:]
        for field in SyncField.all { all[field] = .null }
        all["title"] = .text("Pay rent; call Kim, then: done")
        all["notes"] = .text("two\nlines")
        all["due"] = .text("2026-12-24T14:00:00+01:00[Europe/Berlin]")
        all["wait"] = .text("2026-12-20T09:00:00+01:00[Europe/Berlin]")
        all["repeat"] = .text("every weekday until 2027-01-31")
        all["tags"] = .text(" a b ")
        all["priority"] = .integer(0)
        all["done"] = .integer(0)
        VTodoMapping.write(all, into: &fresh, now: now)
        items.append(("new", fresh))
        // A due day beside a start at 09:00: DTSTART takes DUE's kind, the exact start is kept.
        var mixed = VTodoMapping.newItem(uuid: "u-mixed", now: now)
        VTodoMapping.write(["title": .text("m"), "due": .text("2026-12-24"), "wait": .text("2026-12-20T09:00:00+01:00[Europe/Berlin]")], into: &mixed, now: now)
        #expect(mixed.text.contains("DUE;VALUE=DATE:20261224") && mixed.text.contains("DTSTART;VALUE=DATE:20261220"), "\(mixed.text)")
        #expect(VTodoMapping.fields(of: mixed, zone: berlin)["wait"] == .text("2026-12-20T09:00:00+01:00[Europe/Berlin]"), "read back whole")
        items.append(("mixed", mixed))
        // Another client's start at 09:00 in its zone, and a due day set here.
        var theirs = ICalendar(fixture("thunderbird-todo.ics"))
        let theirStart = VTodoMapping.fields(of: theirs, zone: berlin)["wait"]
        VTodoMapping.write(["due": .text("2026-12-11")], into: &theirs, now: now)
        #expect(theirs.text.contains("DTSTART;VALUE=DATE:20261205") && VTodoMapping.fields(of: theirs, zone: berlin)["wait"] == theirStart, "\(theirs.text)")
        items.append(("theirs-due-day", theirs))
        var edited = ICalendar(fixture("thunderbird-todo.ics"))
        VTodoMapping.write(["title": .text("t"), "due": .text("2026-12-11T17:00:00+01:00[Europe/Berlin]")], into: &edited, now: now)
        items.append(("edited", edited))
        var completed = ICalendar(fixture("thunderbird-repeating.ics"))
        VTodoMapping.write(["done": .integer(1), "completed": .integer(now.millisecondsSince1970)], into: &completed, now: now)
        #expect(!completed.text.contains("RECURRENCE-ID") && completed.property("RRULE") == nil, "no override outlives the rule")
        items.append(("completed", completed))
        var next = VTodoMapping.nextItem(from: ICalendar(fixture("thunderbird-repeating.ics")), uuid: "u-next", now: now)
        VTodoMapping.write(["due": .text("2026-11-23T18:00:00+01:00[Europe/Berlin]"), "wait": .text("2026-11-23T09:00:00+01:00[Europe/Berlin]"),
                            "repeat": .text("every 1w"), "done": .integer(0)], into: &next, now: now)
        #expect(next.text.contains("DUE;TZID=Europe/Berlin:20261123T180000") && !next.text.contains("RECURRENCE-ID"), "\(next.text)")
        items.append(("next", next))
        for (name, calendar) in items { writeBytes(folder.file(name + ".ics"), Array(calendar.text.utf8)) }
        let validator = fixturesFolder() + "/../scripts/ical-validate"
        let result = runShell("'\(validator)' " + items.map { "'\(folder.file($0.0 + ".ics"))'" }.joined(separator: " "), in: folder)
        #expect(result.status == 0 && result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("ok ") }, "\(result)")
        // And the validator finds what it is there to find.
        var broken = fresh
        broken.replace("DTSTART", with: ["DTSTART;VALUE=DATE:20261220"])
        writeBytes(folder.file("broken.ics"), Array(broken.text.utf8))
        let refused = runShell("'\(validator)' '\(folder.file("broken.ics"))'", in: folder)
        #expect(refused.status == 1 && refused.stdout.contains("DUE is a DATE-TIME, DTSTART a DATE"), "\(refused)")
    }

    /// A series' start moves with its due by the days between them (issue 54), whatever days a
    /// server's item names: across the whole calendar nothing traps, and a start that would
    /// leave the calendar stays where it is.
    @Test func aSeriesStartMovesWithItsDueAtTheCalendarsEnds() {
        let item = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:s\r\nDTSTAMP:20261201T000000Z\r\nSUMMARY:s\r\n"
            + "DTSTART;VALUE=DATE:99991227\r\nDUE;VALUE=DATE:99991231\r\nRRULE:FREQ=WEEKLY\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let now = Timestamp(millisecondsSince1970: 1_796_032_800_000)
        var early = ICalendar(item)
        VTodoMapping.write(["due": .text("0001-01-05")], into: &early, now: now, zone: berlin)
        #expect(early.text.contains("DUE;VALUE=DATE:00010105") && early.text.contains("DTSTART;VALUE=DATE:00010101"), "\(early.text)")
        var out = ICalendar(item)
        VTodoMapping.write(["due": .text("0001-01-01")], into: &out, now: now, zone: berlin)
        #expect(out.text.contains("DUE;VALUE=DATE:00010101"), "\(out.text)")
    }

    /// Issue 54: the items real clients wrote (Fixtures/caldav, their sources in SOURCES.md),
    /// each read, then edited here three ways — a new title, completed, a due day — with every
    /// line not meant to change kept byte for byte, and each edit valid wherever the item was
    /// (`scripts/ical-validate`; Horde's empty PRIORITY is not, before or after).
    @Test(.enabled(if: access("/usr/bin/python3", X_OK) == 0, "needs python3-icalendar"))
    func realClientsItemsAreReadAndEditedLineForLine() throws {
        let sources = String(decoding: readBytes(fixturesFolder() + "/caldav/SOURCES.md"), as: UTF8.self)
        let names = sources.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| "), let name = line.dropFirst(2).split(separator: " ").first, name.hasSuffix(".ics") else { return nil }
            return String(name)
        }
        #expect(names.count >= 12, "\(names)")
        let folder = TemporaryFolder()
        let now = Timestamp(millisecondsSince1970: 1_796_032_800_000)
        var written: [String] = []
        for name in names {
            let text = fixture(name)
            let item = ICalendar(text)
            let fields = VTodoMapping.fields(of: item, zone: berlin)
            #expect(fields["title"]?.text?.isEmpty == false && VTodoMapping.uid(of: item) != nil, "\(name) reads as a task")
            let owned: Set<String> = ["SUMMARY", "DTSTAMP", "LAST-MODIFIED"]
            var titled = item
            VTodoMapping.write(["title": .text("Renamed here")], into: &titled, now: now, zone: berlin)
            let kept = { (calendar: ICalendar) in calendar.lines.filter { !owned.contains($0.property.name) }.map(\.raw) }
            #expect(kept(titled) == kept(item), "\(name): every other line byte for byte")
            #expect(VTodoMapping.fields(of: titled, zone: berlin)["title"] == .text("Renamed here"), "\(name)")
            var done = item
            VTodoMapping.write(["done": .integer(1), "completed": .integer(now.millisecondsSince1970)], into: &done, now: now, zone: berlin)
            #expect(VTodoMapping.fields(of: done, zone: berlin)["done"] == .integer(1), "\(name)")
            var dayDue = item
            VTodoMapping.write(["due": .text("2026-12-24")], into: &dayDue, now: now, zone: berlin)
            #expect(VTodoMapping.fields(of: dayDue, zone: berlin)["due"] == .text("2026-12-24"), "\(name)")
            // The start is kept whole; a series' start moves as many days as its due (issue 54).
            var start = fields["wait"]?.text.flatMap(TaskDate.init)
            if item.property("RRULE") != nil, !item.todos.contains(where: { item.isOverride($0) }), let wait = start,
               let due = fields["due"]?.text.flatMap(TaskDate.init), let christmas = CalendarDay("2026-12-24"),
               let day = wait.day.adding(days: christmas.daysSince1970 - due.day.daysSince1970) {
                start = TaskDate(day.description + wait.description.dropFirst(10))
            }
            #expect(VTodoMapping.fields(of: dayDue, zone: berlin)["wait"]?.text == start?.description, "\(name): the start")
            for (suffix, calendar) in [("original", item), ("titled", titled), ("done", done), ("due-day", dayDue)] {
                let file = folder.file(name + "." + suffix)
                writeBytes(file, Array(calendar.text.utf8))
                written.append(file)
            }
        }
        let validator = fixturesFolder() + "/../scripts/ical-validate"
        let result = runShell("'\(validator)' " + written.map { "'\($0)'" }.joined(separator: " "), in: folder)
        var verdict: [String: Bool] = [:]
        for line in result.stdout.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 1)
            guard words.count == 2 else { continue }
            let path = String(words[1].split(separator: ":").first ?? "")
            verdict[String(path.split(separator: "/").last ?? "")] = words[0] == "ok"
        }
        #expect(verdict.count == written.count, "\(result)")
        for name in names where verdict[name + ".original"] == true {
            for suffix in ["titled", "done", "due-day"] { #expect(verdict[name + "." + suffix] == true, "\(name) \(suffix): \(result.stdout)") }
        }
        #expect(verdict["horde-empty-priority.ics.original"] == false, "the validator is no rubber stamp")
    }

    /// Issue 54: an item's alarms are its task's reminders — Thunderbird's an hour before the
    /// start and a quarter after the end, Apple's at a moment; Apple's place alarm (a
    /// placeholder moment of 1976) says none — and a reminder set here adds an alarm, while
    /// every alarm that still says a reminder stays as its client wrote it.
    @Test func alarmsAreRemindersAndStayAsTheirClientsWroteThem() {
        for (name, expected) in [("thunderbird-alarm-before-start.ics", " start-1h "), ("thunderbird-alarm-after-end.ics", " due+15min "),
                                 ("apple-ios-rrule-valarm.ics", " 20180417T190000Z "), ("apple-ios-geofence-alarm.ics", "")] {
            #expect(VTodoMapping.fields(of: ICalendar(fixture(name)), zone: berlin)["reminders"] == .text(expected), "\(name)")
        }
        let now = Timestamp(millisecondsSince1970: 1_796_032_800_000)
        let original = ICalendar(fixture("thunderbird-alarm-after-end.ics"))
        let theirs = original.alarms.flatMap { original.lines[$0].map(\.raw) }
        #expect(theirs.count >= 4)
        var added = original
        VTodoMapping.write(["reminders": .text(" due+15min due-1d ")], into: &added, now: now, zone: berlin)
        #expect(VTodoMapping.fields(of: added, zone: berlin)["reminders"] == .text(" due+15min due-1d "))
        #expect(added.alarms.count == 2 && added.alarms.first.map { added.lines[$0].map(\.raw) } == theirs, "theirs byte for byte, ours after it")
        let unified = added.text.replacingOccurrences("\r\n", "\n")
        #expect(unified.contains("BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:") && unified.contains("TRIGGER;RELATED=END:-P1D\n"), "\(added.text)")
        var taken = added
        VTodoMapping.write(["reminders": .text(" due-1d ")], into: &taken, now: now, zone: berlin)
        #expect(taken.alarms.count == 1 && !taken.text.contains("PT15M") && VTodoMapping.fields(of: taken, zone: berlin)["reminders"] == .text(" due-1d "))
        var place = ICalendar(fixture("apple-ios-geofence-alarm.ics"))
        VTodoMapping.write(["reminders": .text(" 20261210T090000Z ")], into: &place, now: now, zone: berlin)
        #expect(place.alarms.count == 2 && place.text.contains("19760401T005545Z") && place.text.contains("TRIGGER;VALUE=DATE-TIME:20261210T090000Z"),
                "the place's alarm stays: \(place.text)")
        var cleared = place
        VTodoMapping.write(["reminders": .text("")], into: &cleared, now: now, zone: berlin)
        #expect(cleared.alarms.count == 1 && cleared.text.contains("19760401T005545Z"), "no reminders: only the place's alarm is left")
    }

    /// An RRULE's numbers as another client may write them — a COUNT or INTERVAL at or past
    /// the end of the integers, an UNTIL that is no date — read without a trap: a count no day
    /// can reach ends nothing, a bad UNTIL is no end, an interval past 9999 is no rule here.
    @Test func anRRULEsNumbersAtTheEndsOfTheIntegersAreReadWithoutATrap() {
        let base = fixture("thunderbird-todo.ics")
        for (rrule, repeatRule) in [("FREQ=DAILY;COUNT=9223372036854775807", "every 1d"),
                                   ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=9223372036854775807", "every weekday"),
                                   ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=2000000000", "every weekday"),
                                   ("FREQ=YEARLY;COUNT=99999999999999999999999", "every 1y"),
                                   ("FREQ=MONTHLY;INTERVAL=3;COUNT=5", "every 3m until 2027-12-05"), ("FREQ=MONTHLY;INTERVAL=9223372036854775807", ""),
                                   ("FREQ=DAILY;COUNT=-3", "every 1d"), ("FREQ=DAILY;UNTIL=99999999", "every 1d"),
                                   ("FREQ=DAILY;UNTIL=20261299T000000Z", "every 1d"), ("FREQ=DAILY;UNTIL=", "every 1d")] {
            let text = base.replacingOccurrences("PRIORITY:3", "RRULE:" + rrule)
            let read = VTodoMapping.fields(of: ICalendar(text), zone: berlin)["repeat"] ?? .null
            #expect(read == (repeatRule.isEmpty ? .null : .text(repeatRule)), "\(rrule): an interval no rule holds is none")
        }
    }

    @Test func aLongKoreanAndEmojiTitleIsFoldedAt75OctetsAndReadBack() {
        let title = String(repeating: "한국어 할 일 🍽️ ", count: 12)
        var calendar = VTodoMapping.newItem(uuid: "u-2", now: Timestamp(millisecondsSince1970: 0))
        VTodoMapping.write(["title": .text(title)], into: &calendar, now: Timestamp(millisecondsSince1970: 0))
        for line in calendar.text.split(separator: "\r\n") { #expect(line.utf8.count <= 75) }
        #expect(String(validating: Array(calendar.text.utf8), as: UTF8.self) != nil)
        #expect(VTodoMapping.fields(of: ICalendar(calendar.text), zone: berlin)["title"] == .text(title))
    }

    @Test func lineFeedOnlyTextGetsLineFeedsBack() {
        let text = fixture("thunderbird-todo.ics").replacingOccurrences("\r\n", "\n")
        var calendar = ICalendar(text)
        VTodoMapping.write(["title": .text("t")], into: &calendar, now: Timestamp(millisecondsSince1970: 0))
        #expect(!calendar.text.contains("\r"))
    }

    @Test func aMultistatusWithPrefixesEntitiesAndCDATA() throws {
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment --><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:response><D:href>/cal/a%20b.ics</D:href><D:propstat><D:prop><D:getetag>"e&amp;1"</D:getetag>
              <C:calendar-data><![CDATA[BEGIN:VCALENDAR
            SUMMARY:a < b & c
            END:VCALENDAR]]></C:calendar-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
              <response xmlns="DAV:"><href>/cal/x.ics</href><propstat><prop><getetag>&#34;2&#x22;</getetag></prop></propstat></response>
            </D:multistatus>
            """
        let root = try DAVXML.parse(xml)
        #expect(root.name == "DAV:multistatus")
        let responses = root.all("DAV:response")
        #expect(responses.count == 2)
        #expect(responses[0].find("DAV:getetag")?.text == "\"e&1\"")
        #expect(responses[0].find(DAV.caldav + "calendar-data")?.allText.contains("SUMMARY:a < b & c") == true)
        #expect(responses[1].find("DAV:getetag")?.text == "\"2\"")
        #expect(throws: DAVXMLError.self) { try DAVXML.parse("<a><b></a>") }
        #expect(throws: DAVXMLError.self) { try DAVXML.parse("<x:a/>") }
    }

    @Test func theMemoryReadsBackWhatItWrote() {
        var memory = CalDAVMemory()
        memory.home = "/alice/"
        memory.collections = [.init(href: "/alice/tasks/", name: "Tasks\twith tab", ctag: "\"3\"", token: "http://radicale.org/ns/sync/abc"),
                              .init(href: "/alice/other/", name: "Other", ctag: "")]
        memory.items["u"] = .init(uuid: "u", href: "/alice/tasks/u.ics", etag: "\"e\"", collection: "/alice/tasks/",
                                  text: fixture("thunderbird-todo.ics"), base: #"{"title":"x"}"#)
        memory.others["/alice/tasks/event.ics"] = "\"9\""
        #expect(CalDAVMemory(memory.encoded) == memory)
    }

    @Test(arguments: [
        ("https://me:s3cr%40t@dav.example.com:8443/remote.php/dav/", "https://me@dav.example.com:8443/remote.php/dav/"),
        ("http://127.0.0.1:5232/", "http://127.0.0.1:5232/"),
        ("https://me@dav.example.com", "https://me@dav.example.com"),
        // A password written with # ? / unescaped (issue 50: printed in full, and the sync broke).
        ("https://me:s3cr#t@dav.example.com/dav/", "https://me@dav.example.com/dav/"),
        ("https://me:s3cr?t@dav.example.com:8443/dav/", "https://me@dav.example.com:8443/dav/"),
        ("https://me:s3cr/t@dav.example.com/dav/", "https://me@dav.example.com/dav/"),
        ("https://me:s3cr%23t@dav.example.com/", "https://me@dav.example.com/"),
        // An @ in the path is a path (a principal named by e-mail), and a port is a port.
        ("https://dav.example.com:8443/dav/calendars/me@example.com/", "https://dav.example.com:8443/dav/calendars/me@example.com/"),
        ("https://dav.example.com/dav/calendars/me@example.com/", "https://dav.example.com/dav/calendars/me@example.com/"),
    ])
    func anAddressIsNamedWithoutItsPassword(address: String, name: String) throws {
        #expect(CalDAVAddress.withoutPassword(address) == name)
        #expect(CalDAVAddress.isCalDAV(address))
        let parts = try #require(CalDAVAddress.split(address))
        #expect(!parts.origin.contains("s3cr") && !parts.path.contains("s3cr"))
        #expect(parts.origin == "https://dav.example.com:8443" || parts.origin == "https://dav.example.com" || parts.origin == "http://127.0.0.1:5232")
        if address.contains("s3cr") {
            #expect(parts.user == "me")
            #expect(["s3cr@t", "s3cr#t", "s3cr?t", "s3cr/t"].contains(parts.password ?? ""), "\(parts)")
        }
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
