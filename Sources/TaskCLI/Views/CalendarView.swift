import TaskModel
import TextFormats

/// `tasks calendar`: Taskwarrior's month grids — a week-number column and the days under
/// their weekdays, months side by side as many as fit — with today, due, overdue and holiday
/// days marked: coloured on a colour terminal, else by a sign after the day (`<` today, `*`
/// due, `!` overdue, `+` holiday); the marked days as records with `--format`.
final class CalendarView: CommandView {
    struct Marks {
        var today: CalendarDay
        var due: [CalendarDay: Int]
        var holidays: [CalendarDay: [String]]

        enum Kind { case overdue, due, today, holiday }

        /// What a day is, the strongest first: overdue (due, before today), due, today, holiday.
        func kind(_ day: CalendarDay) -> Kind? {
            if due[day] != nil { return day < today ? .overdue : .due }
            if day == today { return .today }
            return holidays[day] != nil ? .holiday : nil
        }
    }

    func write(first: CalendarDay, months: Int, perLine: Int, weekStart: Int, marks: Marks) {
        let console = context.console
        let output = console.stdout
        let monthStarts = (0..<months).reduce(into: [first]) { starts, _ in
            if starts.count < months, let last = starts.last, let next = ReportPeriod.monthly.next(after: last) { starts.append(next) }
        }
        let end = monthStarts.last.flatMap { ReportPeriod.monthly.next(after: $0) }
        let marked = Set(marks.due.keys).union(marks.holidays.keys).union([marks.today])
        let days = marked.filter { day in day >= first && (end.map { day < $0 } ?? true) }.sorted()
        func state(_ day: CalendarDay) -> String {
            guard let kind = marks.kind(day) else { return "" }
            switch kind {
            case .overdue: return "overdue"
            case .due: return day == marks.today ? "due-today" : "due"
            case .today: return "today"
            case .holiday: return "holiday"
            }
        }
        switch console.settings.format {
        case .json:
            let members = days.map { day in
                "{\"day\":\"\(day)\",\"state\":\"\(state(day))\",\"due\":\(marks.due[day] ?? 0),\"holidays\":["
                    + (marks.holidays[day] ?? []).map { JSONValue.string($0).serialized() }.joined(separator: ",") + "]}"
            }
            let last = end?.adding(days: -1).map(\.description) ?? ""
            output.write("{\"first\":\"\(first)\",\"last\":\"\(last)\",\"today\":\"\(marks.today)\",\"days\":[" + members.joined(separator: ",") + "]}\n")
        case .csv:
            output.write(CSV.line(["day", "state", "due", "holidays"]))
            for day in days { output.write(CSV.line([day.description, state(day), String(marks.due[day] ?? 0), (marks.holidays[day] ?? []).joined(separator: ", ")])) }
        case .tsv, .ids:
            if console.settings.header { output.write(TSV.line(["day", "state", "due", "holidays"])) }
            for day in days { output.write(TSV.line([day.description, state(day), String(marks.due[day] ?? 0), (marks.holidays[day] ?? []).joined(separator: ", ")])) }
        case .table:
            let style = pictureStyle
            var text = ""
            for line in stride(from: 0, to: monthStarts.count, by: perLine) {
                text += "\n" + grids(Array(monthStarts[line..<min(line + perLine, monthStarts.count)]), weekStart: weekStart, marks: marks, style: style)
            }
            let legend: [String] = [style.on(.onBlue, "today"), style.on(.onRed, "due"), style.on(.onBrightRed, "overdue"), style.on(.onYellow, "holiday")]
            text += "\n" + (style.enabled ? "Legend: " + legend.joined(separator: ", ") + ".\n" : "Legend: < today, * due, ! overdue, + holiday.\n")
            writePicture(text, title: "Calendar")
        }
    }

    /// Months side by side: titles, weekdays, the underline, and up to six weeks.
    private func grids(_ starts: [CalendarDay], weekStart: Int, marks: Marks, style: Style) -> String {
        func trimmed(_ line: String) -> String { String(line.reversed().drop { $0 == " " }.reversed()) + "\n" }
        let titles = starts.map { start -> String in
            // Centred in the month's 26 columns, as Taskwarrior centres it.
            let title = CalendarDay.monthNames[start.month - 1] + " " + String(start.year)
            let left = 13 - title.count / 2
            return String(repeating: " ", count: max(0, left)) + title + String(repeating: " ", count: max(0, 26 - left - title.count))
        }
        var header = "    "
        for place in 0..<7 {
            let name: String = CalendarDay.weekdayNames[(weekStart + place) % 7]
            header += " " + name.prefix(1).uppercased() + name.dropFirst().prefix(1)
        }
        let underline = "----" + String(repeating: " --", count: 7)
        var text = trimmed(titles.joined())
        text += trimmed(Array(repeating: header, count: starts.count).joined(separator: " "))
        text += trimmed(Array(repeating: underline, count: starts.count).joined(separator: " "))
        let weeks = starts.map { weeksOf($0, weekStart: weekStart) }
        for row in 0..<(weeks.map(\.count).max() ?? 0) {
            let cells = weeks.map { month -> String in
                guard row < month.count else { return String(repeating: " ", count: 25) }
                let week = month[row]
                // The week's number is its last day's, as Taskwarrior numbers a row.
                guard let lastDay = week.compactMap({ $0 }).last else { return String(repeating: " ", count: 25) }
                var cell = TerminalText.leftPadded(String(lastDay.isoWeek), toWidth: 4)
                var previousMark = false
                for day in week {
                    guard let day else {
                        cell += previousMark ? "  " : "   "
                        previousMark = false
                        continue
                    }
                    let number = TerminalText.leftPadded(String(day.day), toWidth: 2)
                    cell += previousMark ? "" : " "
                    guard let kind = marks.kind(day) else {
                        cell += number
                        previousMark = false
                        continue
                    }
                    if style.enabled {
                        let background: TerminalText.Mark = switch kind {
                        case .overdue: .onBrightRed
                        case .due: .onRed
                        case .today: .onBlue
                        case .holiday: .onYellow
                        }
                        cell += style.on(background, number)
                        previousMark = false
                    } else {
                        let sign = switch kind {
                        case .overdue: "!"
                        case .due: "*"
                        case .today: "<"
                        case .holiday: "+"
                        }
                        cell += number + sign
                        previousMark = true
                    }
                }
                return cell
            }
            // A sign after a month's last day takes the gap before the next month.
            var line = ""
            for (index, cell) in cells.enumerated() {
                line += cell
                let endsMarked = !style.enabled && cell.last.map { "<*!+".contains($0) } == true
                if index < cells.count - 1 && !endsMarked { line += " " }
            }
            text += trimmed(line)
        }
        return text
    }

    /// A month's weeks, seven places each (nil: a day of another month), from the week's first day.
    private func weeksOf(_ start: CalendarDay, weekStart: Int) -> [[CalendarDay?]] {
        var weeks: [[CalendarDay?]] = []
        var week = [CalendarDay?](repeating: nil, count: 7)
        var day = start
        while day.month == start.month {
            let place = (day.weekday - weekStart + 7) % 7
            week[place] = day
            if place == 6 {
                weeks.append(week)
                week = [CalendarDay?](repeating: nil, count: 7)
            }
            guard let next = day.adding(days: 1) else { break }
            day = next
        }
        if week.contains(where: { $0 != nil }) { weeks.append(week) }
        return weeks
    }
}
