import Testing
import TaskModel

private let today = CalendarDay(year: 2026, month: 11, day: 29) ?? .unixEpoch

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
