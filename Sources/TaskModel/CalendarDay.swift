/// A local calendar day (`YYYY-MM-DD`), with no time and no time zone: what "due" means.
public struct CalendarDay: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The day, or `nil` when it does not exist (2026-02-30, month 13, year 0).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...CalendarDay.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// 1970-01-01, the day `daysSince1970` counts from.
    public static let unixEpoch = CalendarDay(checkedYear: 1970, month: 1, day: 1)

    private init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`; `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        // Byte by byte: ten ASCII bytes, digits with dashes at 4 and 7.
        var parts = (0, 0, 0)
        var count = 0
        for byte in text.utf8 {
            defer { count += 1 }
            if count == 4 || count == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard count < 10, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            switch count {
            case 0..<4: parts.0 = parts.0 * 10 + digit
            case 5, 6: parts.1 = parts.1 * 10 + digit
            default: parts.2 = parts.2 * 10 + digit
            }
        }
        guard count == 10 else { return nil }
        self.init(year: parts.0, month: parts.1, day: parts.2)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        String(unsafeUninitializedCapacity: 10) { text in
            CalendarDay.writeDigits(year, count: 4, into: text, at: 0)
            text[4] = UInt8(ascii: "-")
            CalendarDay.writeDigits(month, count: 2, into: text, at: 5)
            text[7] = UInt8(ascii: "-")
            CalendarDay.writeDigits(day, count: 2, into: text, at: 8)
            return 10
        }
    }

    /// Writes `value` as `count` decimal digits, zero-padded, at `offset`.
    public static func writeDigits(_ value: Int, count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        var rest = value
        for index in stride(from: offset + count - 1, through: offset, by: -1) {
            buffer[index] = UInt8(48 + rest % 10)
            rest /= 10
        }
    }

    /// The number of days since 1970-01-01 (negative before): for arithmetic and ordering.
    public var daysSince1970: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `daysSince1970` days after 1970-01-01.
    public init?(daysSince1970 days: Int) {
        // Year 1 to 9999 lie well inside this: anything beyond is no day, and never overflows below.
        guard (-800_000...3_000_000).contains(days) else { return nil }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> CalendarDay? {
        let (days, overflow) = daysSince1970.addingReportingOverflow(count)
        return overflow ? nil : CalendarDay(daysSince1970: days)
    }

    /// The weekdays' names, Monday (0) first, as `weekday` numbers them.
    public static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The months' names, January first.
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                    "October", "November", "December"]

    /// The day of the year, 1 for January 1st.
    public var dayOfYear: Int {
        (CalendarDay(year: year, month: 1, day: 1)).map { daysSince1970 - $0.daysSince1970 + 1 } ?? 1
    }

    /// The week of the year, ISO 8601's (1–53, a week belonging to the year of its Thursday),
    /// as Taskwarrior numbers weeks whatever day they start on.
    public var isoWeek: Int {
        guard let thursday = adding(days: 3 - weekday) else { return 1 }
        return (thursday.dayOfYear - 1) / 7 + 1
    }

    /// 0 for Monday through 6 for Sunday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday (3).
        ((daysSince1970 % 7) + 7 + 3) % 7
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
