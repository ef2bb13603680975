import TaskModel

/// One of Taskwarrior's holidays (`holiday.NAME.name`, `holiday.NAME.date`, or a span from
/// `holiday.NAME.start` to `holiday.NAME.end`), its days written `20261225` as Taskwarrior's
/// `dateformat.holiday` does, or `2026-12-25`.
struct HolidayDefinition: Equatable {
    var name: String?
    var date: CalendarDay?
    var start: CalendarDay?
    var end: CalendarDay?
}

extension Configuration {
    mutating func readHoliday(_ key: String, _ part: String, _ value: String, _ refuse: (String) -> CLIError) throws(CLIError) {
        var holiday = holidays[key] ?? HolidayDefinition()
        if part == "name" {
            holiday.name = value
        } else {
            guard ["date", "start", "end"].contains(part) else {
                throw refuse("unknown key 'holiday.\(key).\(part)'; a holiday has name, date, start and end")
            }
            guard let day = Self.holidayDay(value) else {
                throw refuse("holiday.\(key).\(part) is '\(value)'; write a day as 20261225 or 2026-12-25")
            }
            switch part {
            case "date": holiday.date = day
            case "start": holiday.start = day
            default: holiday.end = day
            }
        }
        holidays[key] = holiday
    }

    static func holidayDay(_ text: String) -> CalendarDay? {
        let digits = text.trimmingWhitespace
        if digits.count == 8, digits.allSatisfy(\.isASCII), let number = Int(digits) {
            return CalendarDay(year: number / 10_000, month: number / 100 % 100, day: number % 100)
        }
        return CalendarDay(digits)
    }

    /// The holidays' names on each day from `first` through `last` (a span walked only where
    /// it meets them), by day, names in order.
    func holidays(from first: CalendarDay, through last: CalendarDay) -> [CalendarDay: [String]] {
        var days: [CalendarDay: [String]] = [:]
        for key in holidays.keys.sorted() {
            guard let holiday = holidays[key] else { continue }
            let name = holiday.name ?? key
            if let date = holiday.date, first <= date, date <= last { days[date, default: []].append(name) }
            if let start = holiday.start, let end = holiday.end, start <= end {
                var day = max(start, first)
                while day <= min(end, last) {
                    days[day, default: []].append(name)
                    guard let next = day.adding(days: 1) else { break }
                    day = next
                }
            }
        }
        return days
    }
}
