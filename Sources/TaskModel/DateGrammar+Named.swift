/// Taskwarrior 2.6's named days, each the day `task calc` names on the same clock (its moment
/// at the day's first or last second is the day here): the starts and ends of days, weeks,
/// months, quarters and years — current, next and previous — the work week, months by name,
/// and the feasts it knows.
extension DateGrammar {
    /// The named days, for completions and suggestions (weekdays are `CalendarDay.weekdayNames`).
    public static let namedDays: [String] = ["today", "tomorrow", "yesterday", "now", "someday", "later", "soww", "eoww"]
        + ["d", "w", "m", "q", "y"].flatMap { unit in ["", "n", "p"].flatMap { when in ["so" + when + unit, "eo" + when + unit] } }
        + monthNames + ["easter", "goodfriday", "eastermonday", "ascension", "pentecost", "midsommar", "midsommarafton", "juhannus"]

    /// The day a period word names (`sow`, `eonm`, `sopq`, `soww`…), nil when the word is none.
    /// `so`/`eo`, then `c` (current, also without it), `n` (next) or `p` (previous), then `d`,
    /// `w`, `m`, `q` or `y`: `sow` is this week's first day, `eopm` last month's last.
    static func periodDay(_ word: String, _ context: DateContext) -> CalendarDay?? {
        let today = context.today
        if word == "soww" || word == "eoww" {
            // Monday to Friday of the week that runs Sunday to Saturday: on a Sunday, the coming
            // one (as Taskwarrior counts it, whatever the week's first day).
            guard let monday = today.adding(days: today.weekday == 6 ? 1 : -today.weekday) else { return .some(nil) }
            return .some(word == "soww" ? monday : monday.adding(days: 4))
        }
        let letters = Array(word.utf8)
        guard (3...4).contains(letters.count), letters[1] == UInt8(ascii: "o"),
              letters[0] == UInt8(ascii: "s") || letters[0] == UInt8(ascii: "e") else { return nil }
        let isStart = letters[0] == UInt8(ascii: "s")
        let offset: Int
        switch letters.count == 4 ? letters[2] : UInt8(ascii: "c") {
        case UInt8(ascii: "c"): offset = 0
        case UInt8(ascii: "n"): offset = 1
        case UInt8(ascii: "p"): offset = -1
        default: return nil
        }
        let start: CalendarDay?, end: CalendarDay?
        switch letters[letters.count - 1] {
        case UInt8(ascii: "d"):
            start = today.adding(days: offset)
            end = start
        case UInt8(ascii: "w"):
            start = today.adding(days: 7 * offset - (today.weekday - context.weekStart + 7) % 7)
            end = start?.adding(days: 6)
        case UInt8(ascii: "m"):
            start = CalendarDay(year: today.year, month: today.month, day: 1)?.adding(months: offset)
            end = start?.adding(months: 1)?.adding(days: -1)
        case UInt8(ascii: "q"):
            start = CalendarDay(year: today.year, month: (today.month - 1) / 3 * 3 + 1, day: 1)?.adding(months: 3 * offset)
            end = start?.adding(months: 3)?.adding(days: -1)
        case UInt8(ascii: "y"):
            start = CalendarDay(year: today.year + offset, month: 1, day: 1)
            end = CalendarDay(year: today.year + offset, month: 12, day: 31)
        default: return nil
        }
        return .some(isStart ? start : end)
    }

    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                             "october", "november", "december"]

    /// A month by name or its first three letters or more: its first day, this year when the
    /// month is still ahead, else next year (`mar` in March is next March, as Taskwarrior has it).
    static func monthDay(_ word: String, after today: CalendarDay) -> CalendarDay?? {
        guard word.count >= 3, let index = monthNames.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
        let month = index + 1
        return .some(CalendarDay(year: today.year + (month > today.month ? 0 : 1), month: month, day: 1))
    }

    /// The feasts Taskwarrior names, each its next day after today: Easter and the days counted
    /// from it, and the Swedish and Finnish midsummer (eve).
    static func feastDay(_ word: String, after today: CalendarDay) -> CalendarDay?? {
        let find: (Int) -> CalendarDay?
        switch word {
        case "easter", "goodfriday", "eastermonday", "ascension", "pentecost":
            let shift = ["easter": 0, "goodfriday": -2, "eastermonday": 1, "ascension": 39, "pentecost": 49][word] ?? 0
            find = { year in easter(year)?.adding(days: shift) }
        case "midsommar": find = { year in firstWeekday(5, from: CalendarDay(year: year, month: 6, day: 20)) }
        case "midsommarafton", "juhannus": find = { year in firstWeekday(4, from: CalendarDay(year: year, month: 6, day: 19)) }
        default: return nil
        }
        for year in today.year...(today.year + 1) {
            if let day = find(year), today < day { return .some(day) }
        }
        return .some(nil)
    }

    /// Easter Sunday of `year` in the Gregorian calendar (the anonymous Gregorian algorithm).
    static func easter(_ year: Int) -> CalendarDay? {
        guard (1583...9999).contains(year) else { return nil }
        let a = year % 19, b = year / 100, c = year % 100
        let d = b / 4, e = b % 4, f = (b + 8) / 25, g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31, day = (h + l - 7 * m + 114) % 31 + 1
        return CalendarDay(year: year, month: month, day: day)
    }

    /// The first day on or after `day` that is `weekday` (0 Monday … 6 Sunday).
    private static func firstWeekday(_ weekday: Int, from day: CalendarDay?) -> CalendarDay? {
        guard let day else { return nil }
        return day.adding(days: (weekday - day.weekday + 7) % 7)
    }

    /// A time of day as a clock word: `14:00`, `9am`, `9:30pm`, `12am` (midnight), `12pm`
    /// (noon); seconds after midnight.
    static func clockWord(_ word: String) -> Int? {
        if let time = timeOfDay(word) { return time }
        guard word.hasSuffix("am") || word.hasSuffix("pm") else { return nil }
        let body = String(word.dropLast(2)), afternoon = word.hasSuffix("pm")
        let hour: Int, minutes: Int
        if body.contains(":") {
            guard let time = timeOfDay(body) else { return nil }
            (hour, minutes) = (time / 3600, time % 3600)
        } else {
            guard (1...2).contains(body.count), let value = Int(body) else { return nil }
            (hour, minutes) = (value, 0)
        }
        guard (1...12).contains(hour) else { return nil }
        return (hour % 12 + (afternoon ? 12 : 0)) * 3600 + minutes
    }
}
