/// How a task repeats: on a fixed schedule (`--every`), or an interval after the day the last
/// occurrence was done (`--after`). Written `every 2w`, `after 3d`, `every weekday`.
public struct RepeatRule: Equatable, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable { case every, after }

    public enum Unit: String, Sendable {
        case day = "d", week = "w", month = "m", year = "y"
        /// Monday to Friday: the next weekday (a count of weekdays to skip).
        case weekday
    }

    public var kind: Kind
    /// The count (the low 16 bits) and the end's day (days since 1970 plus `untilOffset`, above
    /// them; 0: none) in one word. A rule is a field of every `Task`, and a task grown by an
    /// optional day of three words made the release compiler (Swift 6.3.1) crash in its
    /// LoadableByAddress pass on the field table's closures, as `TaskDate` once did.
    private var packed: Int
    public var unit: Unit

    public var count: Int {
        get { packed & 0xFFFF }
        set { packed = (packed & ~0xFFFF) | (newValue & 0xFFFF) }
    }

    /// The last day an occurrence may fall on, when the series ends (another client's RRULE
    /// with UNTIL or COUNT): no occurrence is made after it.
    public var until: CalendarDay? {
        get {
            let stored = packed >> 16
            return stored == 0 ? nil : CalendarDay(daysSince1970: stored - Self.untilOffset)
        }
        set { packed = (packed & 0xFFFF) | ((newValue.map { $0.daysSince1970 + Self.untilOffset } ?? 0) << 16) }
    }

    /// Added to an end's days since 1970 so that every day from year 1 on is above zero.
    private static let untilOffset = 1_000_000

    /// The largest count a rule holds: what four digits can say (`9999d`), and what the text
    /// the database keeps (`every 9999d`) reads back as.
    public static let maxCount = 9999

    /// A rule of `count` units; `nil` for a count outside 1 through `maxCount` (every reader —
    /// the options, todo.txt's `rec:`, Taskwarrior's `recur` — comes through here, so no date
    /// arithmetic ever sees a count that could overflow it).
    public init?(kind: Kind, count: Int, unit: Unit) {
        guard (1...Self.maxCount).contains(count) else { return nil }
        self.kind = kind
        self.packed = count
        self.unit = unit
    }

    /// The names an interval may be given by.
    private static let unitNames: [String: Unit] = [
        "day": .day, "days": .day, "daily": .day, "week": .week, "weeks": .week, "weekly": .week,
        "month": .month, "months": .month, "monthly": .month, "year": .year, "years": .year,
        "yearly": .year, "weekday": .weekday, "weekdays": .weekday,
    ]

    /// `INTERVAL` as typed after `--every` or `--after`: `day`, `weekday`, `week`, `month`,
    /// `year` (and their plurals), or a count with `d`, `w`, `m`, `y` (`2w`, `3m`, `1d`).
    public init?(_ kind: Kind, interval text: String) {
        let word = text.lowercased()
        if let unit = Self.unitNames[word] {
            self.init(kind: kind, count: 1, unit: unit)
            return
        }
        guard let last = word.last, let unit = Unit(rawValue: String(last)), unit != .weekday else { return nil }
        let digits = word.dropLast()
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCII), let count = Int(digits) else { return nil }
        self.init(kind: kind, count: count, unit: unit)
    }

    /// `every 2w`, `after 3d`, `every weekday until 2020-07-31` — what `show`, JSON and the
    /// database hold.
    public init?(_ text: String) {
        let words = text.split(separator: " ")
        guard words.count == 2 || (words.count == 4 && words[2] == "until"), let kind = Kind(rawValue: String(words[0])) else { return nil }
        self.init(kind, interval: String(words[1]))
        if words.count == 4 {
            guard let until = CalendarDay(words[3]) else { return nil }
            self.until = until
        }
    }

    /// The interval as typed: `2w`, `1d`, `weekday`.
    public var interval: String { unit == .weekday ? (count == 1 ? "weekday" : "\(count)weekday") : "\(count)\(unit.rawValue)" }

    public var description: String { "\(kind.rawValue) \(interval)" + (until.map { " until \($0)" } ?? "") }

    /// `step` intervals after `anchor`: months and years counted on the anchor's own day,
    /// clamped to the month's last (Jan 31 → Feb 28 → Mar 31); weekdays skip Saturday and Sunday.
    public func date(_ step: Int, after anchor: CalendarDay) -> CalendarDay? {
        // A step may come from another client (an RRULE's COUNT): a product past Int is no day.
        let (steps, overflow) = step.multipliedReportingOverflow(by: count)
        guard !overflow else { return nil }
        func times(_ factor: Int) -> Int? {
            let (product, overflow) = steps.multipliedReportingOverflow(by: factor)
            return overflow ? nil : product
        }
        switch unit {
        case .day: return anchor.adding(days: steps)
        case .week: return times(7).flatMap { anchor.adding(days: $0) }
        case .month: return anchor.adding(months: steps)
        case .year: return times(12).flatMap { anchor.adding(months: $0) }
        case .weekday:
            var day = anchor
            var left = steps
            if left > 5 {
                // Any seven days in a row hold five weekdays: whole weeks at once, the rest
                // (one to five) day by day.
                let weeks = (left - 1) / 5
                let (days, overflow) = weeks.multipliedReportingOverflow(by: 7)
                guard !overflow, let jumped = day.adding(days: days) else { return nil }
                day = jumped
                left -= weeks * 5
            }
            while left > 0 {
                guard let next = day.adding(days: 1) else { return nil }
                day = next
                if day.weekday < 5 { left -= 1 }
            }
            return day
        }
    }

    /// The due date of the occurrence after one due `due` (nil: none) and done on `doneOn`:
    /// for `every`, the first date of the schedule from `anchor` after both `due` and
    /// `doneOn` — so that finishing late never piles up missed occurrences; for `after`,
    /// the interval after `doneOn`.
    public func nextDue(after due: CalendarDay?, anchor: CalendarDay?, doneOn: CalendarDay) -> CalendarDay? {
        guard let next = unbounded(after: due, anchor: anchor, doneOn: doneOn) else { return nil }
        if let until, next > until { return nil }  // the series has ended
        return next
    }

    private func unbounded(after due: CalendarDay?, anchor: CalendarDay?, doneOn: CalendarDay) -> CalendarDay? {
        switch kind {
        case .after:
            return date(1, after: doneOn)
        case .every:
            let start = anchor ?? due ?? doneOn
            let floor = max(due ?? doneOn, doneOn)
            // Jump close to the floor, then step: a yearly rule from 1990 is a few steps.
            var step = 1
            if unit == .day || unit == .week {
                let length = count * (unit == .week ? 7 : 1)
                step = max(1, (floor.daysSince1970 - start.daysSince1970) / length)
            } else if unit == .weekday {
                // Any 7 days hold 5 weekdays: at most this many steps end on or before the floor.
                step = max(1, 5 * ((floor.daysSince1970 - start.daysSince1970) / 7) / count)
            } else if unit == .month || unit == .year {
                let length = count * (unit == .year ? 12 : 1)
                let months = (floor.year - start.year) * 12 + (floor.month - start.month)
                step = max(1, months / length)
            }
            while let date = date(step, after: start) {
                if date > floor { return date }
                step += 1
            }
            return nil
        }
    }
}

extension CalendarDay {
    /// `count` months later (or earlier), on this day of the month or the month's last.
    public func adding(months count: Int) -> CalendarDay? {
        let (index, overflow) = (year * 12 + (month - 1)).addingReportingOverflow(count)
        guard !overflow else { return nil }
        let newYear = index / 12, newMonth = index % 12 + 1
        guard newYear >= 1, newYear <= 9999 else { return nil }
        return CalendarDay(year: newYear, month: newMonth, day: min(day, CalendarDay.daysIn(month: newMonth, year: newYear)))
    }
}
