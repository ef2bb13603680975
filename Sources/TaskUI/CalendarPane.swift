import TaskModel
import TerminalKit
import TextFormats

/// The calendar pane (`c`): the month of the day chosen, each day with its sign as
/// `tasks calendar` writes them without colour (`*` tasks due, `!` overdue ones, `<` today),
/// the chosen day in reverse video, and under the grid how many tasks are due that day and
/// the keys. Pure: the day, the counts and the clock in, cells out. The list beside it shows
/// the tasks due on the chosen day.
struct CalendarPane {
    let selected: CalendarDay
    let today: CalendarDay
    /// Tasks due by day in the month (nil: still being read).
    let due: [CalendarDay: Int]?
    /// The week's first day: 0 Monday … 6 Sunday.
    let weekStart: Int
    let style: ScreenStyle

    static let dayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    /// The grid's rows: each week a row of seven days (nil outside the month).
    var weeks: [[CalendarDay?]] {
        guard let first = CalendarDay(year: selected.year, month: selected.month, day: 1) else { return [] }
        let count = CalendarDay.daysIn(month: selected.month, year: selected.year)
        var week: [CalendarDay?] = Array(repeating: nil, count: (first.weekday - weekStart + 7) % 7)
        var weeks: [[CalendarDay?]] = []
        for number in 1...count {
            week.append(CalendarDay(year: selected.year, month: selected.month, day: number))
            if week.count == 7 {
                weeks.append(week)
                week = []
            }
        }
        if !week.isEmpty { weeks.append(week + Array(repeating: nil, count: 7 - week.count)) }
        return weeks
    }

    /// The sign after a day: overdue, due, today, or none.
    func sign(_ day: CalendarDay) -> String {
        if let count = due?[day], count > 0 { return day < today ? "!" : "*" }
        return day == today ? "<" : " "
    }

    func draw(into screen: inout ScreenBuffer) {
        let title = CalendarDay.monthNames[selected.month - 1] + " " + String(selected.year)
        screen.write(title, row: 0, column: 1, style: style.label)
        let names = (0..<7).map { Self.dayNames[($0 + weekStart) % 7] }.joined(separator: " ")
        screen.write(names, row: 1, column: 1, style: style.color ? CellStyle(dim: true) : .plain)
        let weeks = self.weeks
        for (index, week) in weeks.enumerated() {
            for (position, day) in week.enumerated() {
                guard let day else { continue }
                let number = day.day < 10 ? " " + String(day.day) : String(day.day)
                let sign = sign(day)
                var cell = CellStyle.plain
                if style.color, sign == "!" { cell = style.overdue }
                if style.color, sign == "*" { cell.bold = true }
                if day == selected { cell.reverse = true }
                screen.write(number + sign, row: 2 + index, column: 1 + position * 3, style: cell)
            }
        }
        let row = 2 + weeks.count
        let count = due?[selected] ?? 0
        let said = due == nil ? "Reading…" : count == 0 ? "Nothing due" : count == 1 ? "1 task due" : "\(count) tasks due"
        screen.write("\(selected) · \(said)", row: row, column: 1)
        // The keys, in two short lines: a pane is 40 cells wide beside the list.
        let dim = style.color ? CellStyle(dim: true) : CellStyle.plain
        screen.write("h l day · H L week · [ ] month", row: row + 1, column: 1, style: dim)
        screen.write(". today · c closes", row: row + 2, column: 1, style: dim)
    }
}
