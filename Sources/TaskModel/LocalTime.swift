#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

/// `LocalTime` with its answers remembered: the C library looks at the zone file again on
/// every `mktime` (a `stat` per call: 100,000 of them for a 100,000-line todo.txt). Days are
/// remembered per day, times per quarter hour (every zone's offset and every change of it
/// falls on a quarter hour). For one reader or writer, on one thread.
public final class CachedLocalTime {
    public let zone: LocalTime
    private var midnights: [CalendarDay: Timestamp] = [:]
    private var days: [Int64: CalendarDay] = [:]

    public init(_ zone: LocalTime) { self.zone = zone }

    public func midnight(_ day: CalendarDay) -> Timestamp {
        if let known = midnights[day] { return known }
        let time = zone.midnight(day)
        midnights[day] = time
        return time
    }

    public func day(_ time: Timestamp) -> CalendarDay {
        let quarter = time.millisecondsSince1970 >= 0 ? time.millisecondsSince1970 / 900_000 : (time.millisecondsSince1970 - 899_999) / 900_000
        if let known = days[quarter] { return known }
        let day = zone.day(time)
        days[quarter] = day
        return day
    }
}
