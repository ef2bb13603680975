import TaskModel
import TerminalKit
import Testing
@testable import TaskUI

/// The calendar pane, pure: a month's grid from the week's first day, the signs `tasks
/// calendar` writes without colour, the chosen day in reverse, the count under the grid.
@Suite("The calendar pane")
struct CalendarPaneTests {
    static func day(_ text: String) -> CalendarDay { CalendarDay(text) ?? .unixEpoch }
    static let due: [CalendarDay: Int] = [day("2026-12-01"): 2, day("2026-12-09"): 1, day("2026-12-24"): 3, day("2026-11-30"): 5]

    func pane(weekStart: Int, color: Bool, due: [CalendarDay: Int]? = due) -> ScreenBuffer {
        var buffer = ScreenBuffer(rows: 11, columns: 40)
        CalendarPane(selected: Self.day("2026-12-09"), today: Self.day("2026-12-07"), due: due, weekStart: weekStart,
                     style: ScreenStyle(color: color)).draw(into: &buffer)
        return buffer
    }

    @Test func decemberFromMondayAndFromSunday() {
        assertGolden(pane(weekStart: 0, color: true), "calendar-pane-monday.txt")
        assertGolden(pane(weekStart: 6, color: false), "calendar-pane-sunday.txt")
    }

    @Test func theWeeksHoldEveryDayOnce() {
        for weekStart in 0..<7 {
            let days = CalendarPane(selected: Self.day("2027-02-14"), today: Self.day("2027-02-01"), due: [:], weekStart: weekStart,
                                    style: ScreenStyle(color: false)).weeks
            #expect(days.allSatisfy { $0.count == 7 })
            #expect(days.joined().compactMap { $0 }.map(\.day) == Array(1...28))
            for week in days {
                for (position, day) in week.enumerated() {
                    if let day { #expect(day.weekday == (position + weekStart) % 7, "\(day) under the wrong day of the week") }
                }
            }
        }
    }

    @Test func aMonthAwayKeepsTheDayWhereItCan() {
        #expect(ListScreen.month(Self.day("2027-01-31"), by: 1) == Self.day("2027-02-28"))
        #expect(ListScreen.month(Self.day("2026-12-09"), by: 1) == Self.day("2027-01-09"))
        #expect(ListScreen.month(Self.day("2026-01-15"), by: -1) == Self.day("2025-12-15"))
        #expect(ListScreen.month(Self.day("2024-03-31"), by: -1) == Self.day("2024-02-29"))
    }

    @Test func whileTheCountsAreReadThePaneSaysSo() {
        #expect(pane(weekStart: 0, color: false, due: nil).lines.contains { $0.contains("2026-12-09 · Reading…") })
    }
}
