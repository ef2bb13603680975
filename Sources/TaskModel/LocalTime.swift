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

    /// The moment local `day` shows `seconds` after midnight on the clock (across a change of
    /// daylight saving time, the clock's reading, not the time elapsed since midnight).
    public let moment: @Sendable (_ day: CalendarDay, _ seconds: Int) -> Timestamp
    /// The local day `time` falls on and the clock's reading then, in seconds after midnight.
    public let clock: @Sendable (Timestamp) -> (CalendarDay, Int)
    /// The zone's name (`Europe/Berlin`), when it has one: kept beside a moment given in it.
    /// The system zone's is looked up (`TZ`, the /etc/localtime link) the first time a moment
    /// asks for it, not when a command starts.
    public var name: String? {
        get { givenName ?? lookUpName() }
        set { givenName = newValue }
    }
    private var givenName: String? = nil
    private var lookUpName: @Sendable () -> String? = { nil }

    /// A zone of `day` and `midnight`; a moment is midnight and the time elapsed since (exact
    /// for every zone on a day without a change of daylight saving time).
    public init(day: @escaping @Sendable (Timestamp) -> CalendarDay, midnight: @escaping @Sendable (CalendarDay) -> Timestamp) {
        self.init(day: day, midnight: midnight,
                  moment: { day, seconds in Timestamp(millisecondsSince1970: midnight(day).millisecondsSince1970 + Int64(seconds) * 1000) },
                  clock: { time in
                      // A moment past the calendar's ends (a file may hold any integer) is on its
                      // first or last day: the seconds since that day's midnight kept within it.
                      let local = day(time)
                      let (since, overflow) = time.millisecondsSince1970.subtractingReportingOverflow(midnight(local).millisecondsSince1970)
                      return (local, overflow ? (since < 0 ? 86_399 : 0) : Int(min(max(since / 1000, 0), 86_399)))
                  })
    }

    public init(day: @escaping @Sendable (Timestamp) -> CalendarDay, midnight: @escaping @Sendable (CalendarDay) -> Timestamp,
                moment: @escaping @Sendable (CalendarDay, Int) -> Timestamp, clock: @escaping @Sendable (Timestamp) -> (CalendarDay, Int)) {
        self.day = day
        self.midnight = midnight
        self.moment = moment
        self.clock = clock
    }

    /// How far east of UTC the clock is at `time`, in seconds.
    public func offsetSeconds(at time: Timestamp) -> Int {
        let (local, seconds) = clock(time)
        let wall = Int64(local.daysSince1970) * 86_400 + Int64(seconds)
        // Seconds since 1970 toward the past, with no arithmetic that a moment at the ends of
        // the integers (a file the sqlite3 shell wrote) could overflow; no zone is more than a
        // day off UTC, so a difference beyond that (a clamped day) is no offset.
        let milliseconds = time.millisecondsSince1970
        let seconds1970 = milliseconds / 1000 - (milliseconds % 1000 < 0 ? 1 : 0)
        let (difference, overflow) = wall.subtractingReportingOverflow(seconds1970)
        return overflow || difference.magnitude > 86_400 ? 0 : Int(difference)
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
    public static let system: LocalTime = {
        var zone = LocalTime(
            day: { time in systemClock(time).0 },
            midnight: { day in systemMoment(day, 0) },
            moment: { day, seconds in systemMoment(day, seconds) },
            clock: { time in systemClock(time) }
        )
        zone.lookUpName = { systemZoneName }
        return zone
    }()

    /// The name of the C library's zone: `TZ` (without a leading colon or a zoneinfo path;
    /// none for a rule with its dates, `CET-1CEST,M3.5.0,M10.5.0/3`), else the zone file
    /// /etc/localtime links to, else none.
    private static let systemZoneName = systemName()

    private static func systemName() -> String? {
        if let variable = getenv("TZ") {
            var name = String(cString: variable)
            if name.hasPrefix(":") { name.removeFirst() }
            if let zone = afterZoneinfo(name) { name = zone }
            return name.isEmpty || name.contains(",") ? nil : name
        }
        var buffer = [CChar](repeating: 0, count: 512)
        let count = readlink("/etc/localtime", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let name = afterZoneinfo(target), !name.isEmpty else { return nil }
        return name
    }

    /// What follows `zoneinfo/` in a path to a zone file: `Europe/Berlin`.
    private static func afterZoneinfo(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = parts.lastIndex(of: "zoneinfo") else { return nil }
        return parts[(index + 1)...].joined(separator: "/")
    }

    private static func systemClock(_ time: Timestamp) -> (CalendarDay, Int) {
        var seconds = time_t(time.millisecondsSince1970 / 1000 - (time.millisecondsSince1970 % 1000 < 0 ? 1 : 0))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil,
              let day = CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)) else {
            return LocalTime.fixed(offsetSeconds: 0).clock(time)
        }
        return (day, Int(parts.tm_hour) * 3600 + Int(parts.tm_min) * 60 + Int(parts.tm_sec))
    }

    /// `mktime` of a local reading: in a gap (the hour skipped in spring) the clock is read as
    /// it was before the change, so 02:30 is 03:30 after it; in the hour repeated in autumn,
    /// the one the C library picks (glibc: the second, in standard time).
    private static func systemMoment(_ day: CalendarDay, _ seconds: Int) -> Timestamp {
        var parts = tm()
        parts.tm_year = Int32(day.year - 1900)
        parts.tm_mon = Int32(day.month - 1)
        parts.tm_mday = Int32(day.day)
        parts.tm_hour = Int32(seconds / 3600)
        parts.tm_min = Int32(seconds / 60 % 60)
        parts.tm_sec = Int32(seconds % 60)
        parts.tm_isdst = -1
        let result = mktime(&parts)
        guard result != -1 else { return LocalTime.fixed(offsetSeconds: 0).moment(day, seconds) }
        return Timestamp(millisecondsSince1970: Int64(result) * 1000)
    }
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
