#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskKit

/// The local time zone, as the formats that hold days need it: Taskwarrior's `due` is a UTC
/// time meant as a local day, todo.txt's dates are local days. Injected, so tests are exact
/// in any zone.
public struct LocalTime: Sendable {
    /// The local calendar day `time` falls on.
    public let day: @Sendable (Timestamp) -> CalendarDay
    /// The first moment of local `day`.
    public let midnight: @Sendable (CalendarDay) -> Timestamp

    public init(day: @escaping @Sendable (Timestamp) -> CalendarDay, midnight: @escaping @Sendable (CalendarDay) -> Timestamp) {
        self.day = day
        self.midnight = midnight
    }

    /// A zone `seconds` east of UTC, with no daylight saving time.
    public static func fixed(offsetSeconds seconds: Int) -> LocalTime {
        LocalTime(
            day: { time in
                let local = time.millisecondsSince1970 / 1000 + Int64(seconds)
                let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
                return CalendarDay(daysSince1970: Int(days)) ?? .unixEpoch
            },
            midnight: { day in Timestamp(millisecondsSince1970: (Int64(day.daysSince1970) * 86_400 - Int64(seconds)) * 1000) }
        )
    }

    /// The C library's zone (`TZ`, else /etc/localtime).
    public static let system = LocalTime(
        day: { time in
            var seconds = time_t(time.millisecondsSince1970 / 1000 - (time.millisecondsSince1970 % 1000 < 0 ? 1 : 0))
            var parts = tm()
            guard localtime_r(&seconds, &parts) != nil,
                  let day = CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)) else {
                return LocalTime.fixed(offsetSeconds: 0).day(time)
            }
            return day
        },
        midnight: { day in
            var parts = tm()
            parts.tm_year = Int32(day.year - 1900)
            parts.tm_mon = Int32(day.month - 1)
            parts.tm_mday = Int32(day.day)
            parts.tm_isdst = -1
            let seconds = mktime(&parts)
            guard seconds != -1 else { return LocalTime.fixed(offsetSeconds: 0).midnight(day) }
            return Timestamp(millisecondsSince1970: Int64(seconds) * 1000)
        }
    )
}

/// Timestamps as text: ISO 8601 in UTC (our JSON) and Taskwarrior's compact form.
public enum TimestampText {
    /// `2026-11-29T23:44:46.123Z`: ISO 8601 in UTC, to the millisecond.
    public static func iso8601(_ time: Timestamp) -> String {
        let (day, ofDay) = split(time)
        return String(unsafeUninitializedCapacity: 24) { text in
            CalendarDay.writeDigits(day.year, count: 4, into: text, at: 0)
            text[4] = UInt8(ascii: "-")
            CalendarDay.writeDigits(day.month, count: 2, into: text, at: 5)
            text[7] = UInt8(ascii: "-")
            CalendarDay.writeDigits(day.day, count: 2, into: text, at: 8)
            text[10] = UInt8(ascii: "T")
            CalendarDay.writeDigits(ofDay / 3_600_000, count: 2, into: text, at: 11)
            text[13] = UInt8(ascii: ":")
            CalendarDay.writeDigits(ofDay / 60_000 % 60, count: 2, into: text, at: 14)
            text[16] = UInt8(ascii: ":")
            CalendarDay.writeDigits(ofDay / 1000 % 60, count: 2, into: text, at: 17)
            text[19] = UInt8(ascii: ".")
            CalendarDay.writeDigits(ofDay % 1000, count: 3, into: text, at: 20)
            text[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// `20261129T234446Z`: Taskwarrior's form, in UTC, to the second.
    public static func taskwarrior(_ time: Timestamp) -> String {
        let (day, ofDay) = split(time)
        return String(unsafeUninitializedCapacity: 16) { text in
            CalendarDay.writeDigits(day.year, count: 4, into: text, at: 0)
            CalendarDay.writeDigits(day.month, count: 2, into: text, at: 4)
            CalendarDay.writeDigits(day.day, count: 2, into: text, at: 6)
            text[8] = UInt8(ascii: "T")
            CalendarDay.writeDigits(ofDay / 3_600_000, count: 2, into: text, at: 9)
            CalendarDay.writeDigits(ofDay / 60_000 % 60, count: 2, into: text, at: 11)
            CalendarDay.writeDigits(ofDay / 1000 % 60, count: 2, into: text, at: 13)
            text[15] = UInt8(ascii: "Z")
            return 16
        }
    }

    private static func split(_ time: Timestamp) -> (CalendarDay, Int) {
        let (days, rest) = time.millisecondsSince1970.quotientAndRemainder(dividingBy: 86_400_000)
        let dayCount = rest < 0 ? days - 1 : days
        let ofDay = Int(rest < 0 ? rest + 86_400_000 : rest)
        return (CalendarDay(daysSince1970: Int(dayCount)) ?? .unixEpoch, ofDay)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` and Taskwarrior's
    /// `YYYYMMDDTHHMMSSZ`; `nil` for anything else (a time without a zone is ambiguous).
    public static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func skip(_ byte: Character, required: Bool) -> Bool {
            if index < bytes.count && bytes[index] == byte.asciiValue {
                index += 1
                return true
            }
            return !required
        }
        let compact = bytes.count > 8 && bytes[8] == UInt8(ascii: "T")
        guard let year = number(4), skip("-", required: !compact), let month = number(2), skip("-", required: !compact),
              let dayOfMonth = number(2), skip("T", required: true), let hour = number(2), skip(":", required: !compact),
              let minute = number(2), skip(":", required: !compact), let second = number(2),
              let day = CalendarDay(year: year, month: month, day: dayOfMonth), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        var milliseconds = 0
        if !compact && index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count && (0x30...0x39).contains(bytes[index]) {
                if digits < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard !compact else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), skip(":", required: true), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = Int64(day.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offset)
        return Timestamp(millisecondsSince1970: seconds * 1000 + Int64(milliseconds))
    }
}

/// `LocalTime` with its answers remembered: the C library looks at the zone file again on
/// every `mktime` (a `stat` per call: 100,000 of them for a 100,000-line todo.txt). Days are
/// remembered per day, times per quarter hour (every zone's offset and every change of it
/// falls on a quarter hour). For one reader or writer, on one thread.
final class CachedLocalTime {
    let zone: LocalTime
    private var midnights: [CalendarDay: Timestamp] = [:]
    private var days: [Int64: CalendarDay] = [:]

    init(_ zone: LocalTime) { self.zone = zone }

    func midnight(_ day: CalendarDay) -> Timestamp {
        if let known = midnights[day] { return known }
        let time = zone.midnight(day)
        midnights[day] = time
        return time
    }

    func day(_ time: Timestamp) -> CalendarDay {
        let quarter = time.millisecondsSince1970 >= 0 ? time.millisecondsSince1970 / 900_000 : (time.millisecondsSince1970 - 899_999) / 900_000
        if let known = days[quarter] { return known }
        let day = zone.day(time)
        days[quarter] = day
        return day
    }
}
