import TextFormats

/// What a date expression names: a calendar day, or a moment (a time of day on a day, `now`,
/// `+4h`).
public enum DateValue: Equatable, Sendable {
    case day(CalendarDay)
    case instant(Timestamp)
}

/// What a date expression counts from: the moment, the local day and zone, where the week
/// starts, and the task's other dates (`--wait due-3d`).
public struct DateContext: Sendable {
    public var now: Timestamp
    public var today: CalendarDay
    public var zone: LocalTime
    /// The first day of a week, 0 for Monday through 6 for Sunday (`eow`, `sow`).
    public var weekStart: Int
    /// The task's own dates, for an expression that counts from one (`due-3d`).
    public var fields: @Sendable (TaskField) -> TaskDate?

    public init(now: Timestamp, today: CalendarDay, zone: LocalTime, weekStart: Int = 0,
                fields: @escaping @Sendable (TaskField) -> TaskDate? = { _ in nil }) {
        self.now = now
        self.today = today
        self.zone = zone
        self.weekStart = weekStart
        self.fields = fields
    }

    /// Counting from `today` at its midnight in UTC: for callers that know only the day.
    public static func on(_ today: CalendarDay) -> DateContext {
        DateContext(now: Timestamp(millisecondsSince1970: Int64(today.daysSince1970) * 86_400_000), today: today,
                    zone: .fixed(offsetSeconds: 0))
    }
}

/// Why a date expression names no date.
public enum DateGrammarError: Error, Equatable, Sendable {
    /// None of the grammar's forms.
    case unreadable
    /// It counts from a field of the task that is not set (`due-3d` with no due date).
    case missingField(TaskField)
    /// It names a time of day where only a day is kept.
    case timeOfDay
}

/// The one grammar of dates, wherever a date is typed: `--due`, `--wait`, `--scheduled`,
/// `--until`, `--due-before`, the editor of `tasks ui`, `tasks date`. Case is ignored; words
/// are separated by spaces. See docs/cli.md, "Dates".
public enum DateGrammar {
    /// The forms, in one line: what a refusal says after "use".
    public static let forms = "YYYY-MM-DD, today, tomorrow, yesterday, +3d, +2w, a weekday, a month, eow/eom/eoq/eoy, sow/som/soq/soy, "
        + "sonw/eopm…, 1st–31st, easter, someday, -1d, +1m, +1y, in 3 days, 3 days ago, due-3d, 14:00, 9am, fri 17:30, "
        + "2026-12-25T14:00, +4h, now "
        + "(docs/cli.md, Dates)"

    /// The date of a task `text` names in `context`: a day, or a moment read on the clock of
    /// `context.zone` — or in the offset it names (`2026-12-25T14:00+05:00` keeps `+05:00`).
    public static func date(_ text: String, in context: DateContext) throws(DateGrammarError) -> TaskDate {
        let trimmed = text.trimmingWhitespace
        if let given = TaskDate(trimmed) { return given }
        switch try resolve(trimmed, in: context) {
        case .day(let day): return TaskDate(day)
        case .instant(let time): return TaskDate(time, in: context.zone)
        }
    }

    /// The day or moment `text` names in `context`.
    public static func resolve(_ text: String, in context: DateContext) throws(DateGrammarError) -> DateValue {
        let words = CaseFolding.folded(text).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch words.count {
        case 1:
            if let time = clockWord(words[0]) {
                // The next such time: today's unless it has passed, else tomorrow's (as Taskwarrior).
                let today = context.zone.moment(context.today, time)
                guard today.millisecondsSince1970 < context.now.millisecondsSince1970, let tomorrow = context.today.adding(days: 1) else {
                    return .instant(today)
                }
                return .instant(context.zone.moment(tomorrow, time))
            }
            return try expression(words[0], context)
        case 2:
            if let time = clockWord(words[1]) {
                // A day and a time: `tomorrow 9:00`, `2026-12-25 14:00`.
                guard case .day(let day) = try expression(words[0], context) else { throw .unreadable }
                return .instant(context.zone.moment(day, time))
            }
        case 3:
            // `in 3 days`, `3 days ago`.
            if words[0] == "in", let step = Step(count: words[1], unit: words[2], sign: 1) { return try step.applied(to: base(context, step), context) }
            if words[2] == "ago", let step = Step(count: words[0], unit: words[1], sign: -1) { return try step.applied(to: base(context, step), context) }
        default: break
        }
        throw .unreadable
    }

    /// The day `text` names, where only a day is kept: `now` is today, and any other moment
    /// (`14:00`, `+4h`) is refused rather than cut to its day.
    public static func day(_ text: String, in context: DateContext) throws(DateGrammarError) -> CalendarDay {
        switch try resolve(text, in: context) {
        case .day(let day): return day
        case .instant(let time):
            guard CaseFolding.folded(text.trimmingWhitespace) == "now" else { throw .timeOfDay }
            return context.zone.day(time)
        }
    }

    /// One word: a base (`eow`, `due`, `2026-12-25`), a step from today or now (`+3d`, `-4h`),
    /// or a base and a step (`due-3d`, `eom+1d`).
    private static func expression(_ word: String, _ context: DateContext) throws(DateGrammarError) -> DateValue {
        if let value = isoDate(word, context) { return value }
        guard let first = word.first else { throw .unreadable }
        if first == "+" || first == "-" {
            guard let step = Step(word) else { throw .unreadable }
            return try step.applied(to: base(context, step), context)
        }
        // A bare duration (`3d`, `2w`, `4h`) counts from now, as `+3d` does (Taskwarrior's `due:3d`).
        if first.isASCII, first.isNumber, let step = Step("+" + word) { return try step.applied(to: base(context, step), context) }
        // A base, then maybe a step: split before the first sign after it (an ISO date's own
        // dashes are its first ten characters).
        let searchFrom = word.count > 10 && isoDate(String(word.prefix(10)), context) != nil ? 10 : 1
        if let sign = word.dropFirst(searchFrom).firstIndex(where: { $0 == "+" || $0 == "-" }) {
            guard let step = Step(String(word[sign...])) else { throw .unreadable }
            return try step.applied(to: named(String(word[..<sign]), context), context)
        }
        return try named(word, context)
    }

    /// What a step with no base counts from: today for days and longer, now for hours and minutes.
    private static func base(_ context: DateContext, _ step: Step) -> DateValue {
        step.unit.isClock ? .instant(context.now) : .day(context.today)
    }

    /// A named day, a field's value or an ordinal.
    private static func named(_ word: String, _ context: DateContext) throws(DateGrammarError) -> DateValue {
        if let day = isoDate(word, context) { return day }
        let today = context.today
        func day(_ value: CalendarDay?) throws(DateGrammarError) -> DateValue {
            guard let value else { throw .unreadable }
            return .day(value)
        }
        switch word {
        case "today": return .day(today)
        case "now": return .instant(context.now)
        case "tomorrow": return try day(today.adding(days: 1))
        case "yesterday": return try day(today.adding(days: -1))
        case "someday", "later": return try day(CalendarDay(year: 9999, month: 12, day: 30))
        default: break
        }
        if let period = periodDay(word, context) ?? monthDay(word, after: today) ?? feastDay(word, after: today) { return try day(period) }
        if let field = TaskField(rawValue: word), TaskFields.edited.contains(where: { $0.field == field && $0.kind == .date }) {
            guard let value = context.fields(field) else { throw .missingField(field) }
            return value.time.map(DateValue.instant) ?? .day(value.day)
        }
        if let ordinal = ordinal(word) { return try day(nextDay(ordinal, after: today)) }
        if word.count >= 3, let weekday = CalendarDay.weekdayNames.firstIndex(where: { $0.hasPrefix(word) }) {
            let ahead = (weekday - today.weekday + 7) % 7
            return try day(today.adding(days: ahead == 0 ? 7 : ahead))
        }
        throw .unreadable
    }

    /// The first of the month `months` after `day`'s.
    private static func firstOfMonth(after day: CalendarDay, months: Int) -> CalendarDay? {
        firstOfMonth(day.month, months: months, year: day.year)
    }

    private static func firstOfMonth(_ month: Int, months: Int, year: Int) -> CalendarDay? {
        CalendarDay(year: year, month: month, day: 1)?.adding(months: months)
    }

    /// `1st` … `31st` (any of st, nd, rd, th).
    private static func ordinal(_ word: String) -> Int? {
        guard word.count >= 3, ["st", "nd", "rd", "th"].contains(String(word.suffix(2))),
              let number = Int(word.dropLast(2)), (1...31).contains(number) else { return nil }
        return number
    }

    /// The next day numbered `number` of a month, after `today`.
    private static func nextDay(_ number: Int, after today: CalendarDay) -> CalendarDay? {
        for months in 0..<13 {
            guard let first = firstOfMonth(after: today, months: months),
                  let candidate = CalendarDay(year: first.year, month: first.month, day: number) else { continue }
            if today < candidate { return candidate }
        }
        return nil
    }

    /// `2026-12-25` (a day), `2026-12-25T14:00` or `…T14:00:30` (local), with `Z` or `±HH:MM`.
    private static func isoDate(_ word: String, _ context: DateContext) -> DateValue? {
        guard word.count >= 10, let day = CalendarDay(word.prefix(10)) else { return nil }
        if word.count == 10 { return .day(day) }
        var rest = Substring(word.dropFirst(10))
        guard rest.first == "t" else { return nil }
        rest = rest.dropFirst()
        var offset: Int?
        if rest.hasSuffix("z") {
            offset = 0
            rest = rest.dropLast()
        } else if rest.count > 6, let sign = rest.dropLast(5).last, sign == "+" || sign == "-",
                  let zone = timeOfDay(String(rest.suffix(5))) {
            offset = (sign == "+" ? 1 : -1) * zone
            rest = rest.dropLast(6)
        }
        var seconds = 0
        if rest.count == 8, rest.dropFirst(5).first == ":", let extra = Int(rest.suffix(2)), extra < 60 {
            seconds = extra
            rest = rest.dropLast(3)
        }
        guard rest.count == 5, let time = timeOfDay(String(rest)) else { return nil }
        guard let offset else { return .instant(context.zone.moment(day, time + seconds)) }
        let utc = (Int64(day.daysSince1970) * 86_400 + Int64(time + seconds - offset)) * 1000
        return .instant(Timestamp(millisecondsSince1970: utc))
    }

    /// `H:MM` or `HH:MM` as seconds after midnight.
    static func timeOfDay(_ word: String) -> Int? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        return hour * 3600 + minute * 60
    }
}

/// `+3d`, `-2w`, `+1m`, `+1y`, `+4h`, `+30min`, or a count and a unit as words (`3 days`).
private struct Step {
    enum Unit {
        case days, weeks, months, years, hours, minutes
        var isClock: Bool { self == .hours || self == .minutes }

        init?(_ word: Substring) {
            switch word {
            case "d", "day", "days": self = .days
            case "w", "wk", "wks", "week", "weeks": self = .weeks
            case "m", "mo", "month", "months": self = .months
            case "y", "yr", "yrs", "year", "years": self = .years
            case "h", "hr", "hrs", "hour", "hours": self = .hours
            case "min", "mins", "minute", "minutes": self = .minutes
            default: return nil
            }
        }
    }

    let count: Int
    let unit: Unit

    /// `+3d`: a sign, a count, a unit.
    init?(_ word: String) {
        guard let sign = word.first, sign == "+" || sign == "-" else { return nil }
        let body = word.dropFirst()
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let count = Int(digits), count <= 100_000, let unit = Unit(body.dropFirst(digits.count)) else { return nil }
        self.count = sign == "-" ? -count : count
        self.unit = unit
    }

    init?(count: String, unit: String, sign: Int) {
        guard let number = Int(count), (0...100_000).contains(number), let unit = Unit(Substring(unit)) else { return nil }
        self.count = sign * number
        self.unit = unit
    }

    /// `value` moved by the step: calendar arithmetic for days and longer (a month from the
    /// 31st is the last day of the next month; a moment keeps its time on the clock, across a
    /// change of daylight saving time), elapsed time for hours and minutes.
    func applied(to value: DateValue, _ context: DateContext) throws(DateGrammarError) -> DateValue {
        switch (value, unit.isClock) {
        case (.day(let day), false):
            guard let moved = moved(day) else { throw .unreadable }
            return .day(moved)
        case (.instant(let time), false):
            let (day, seconds) = context.zone.clock(time)
            guard let moved = moved(day) else { throw .unreadable }
            return .instant(context.zone.moment(moved, seconds))
        case (.day(let day), true):
            return .instant(elapsed(from: context.zone.midnight(day)))
        case (.instant(let time), true):
            return .instant(elapsed(from: time))
        }
    }

    private func elapsed(from time: Timestamp) -> Timestamp {
        Timestamp(millisecondsSince1970: time.millisecondsSince1970 + Int64(count) * (unit == .hours ? 3_600_000 : 60_000))
    }

    private func moved(_ day: CalendarDay) -> CalendarDay? {
        switch unit {
        case .days: return day.adding(days: count)
        case .weeks: return day.adding(days: count * 7)
        case .months: return day.adding(months: count)
        case .years: return day.adding(months: count * 12)
        case .hours, .minutes: return nil
        }
    }
}
