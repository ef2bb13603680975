#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A zone of the system's time zone database by its IANA name (`America/Chicago`), read from
/// its TZif file (RFC 8536) under /usr/share/zoneinfo: what an iCalendar `TZID` names when the
/// item carries no VTIMEZONE of its own (Evolution's and Thunderbird's items on a server that
/// stores what it is given). The C library answers only for the process's own zone (`TZ`), so
/// the file is read here: the 64-bit transitions of version 2 and later, and the footer's
/// POSIX rule for the moments after the last transition. What the file says is checked, never
/// trusted to size memory: a file over 1 MB, counts past its length, or an unreadable footer
/// make no zone.
public struct ZoneInfo: Sendable, Equatable {
    public let name: String
    /// The moments (UTC seconds) the offset changes, ascending, and the offset from each on.
    let transitions: [Int64]
    let offsets: [Int]
    /// The offset before the first transition.
    let initialOffset: Int
    /// After the last transition: the footer's rule.
    let rule: PosixZoneRule?

    /// Where the database is (Debian's tzdata).
    public static let folder = "/usr/share/zoneinfo"

    /// The zone `name` names, or nil when it is not a zone of the database here (or not a name:
    /// only letters, digits, `_`, `-`, `+` and `/` between parts, no `..`). Read once per name.
    public static func named(_ name: String) -> ZoneInfo? {
        if let known = cache.withLock({ $0[name] }) { return known }
        let zone = isName(name) ? read(folder + "/" + name, name: name) : nil
        cache.withLock { $0[name] = .some(zone) }
        return zone
    }

    private static let cache = Mutex<[String: ZoneInfo?]>([:])

    static func isName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("/") else { return false }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            !part.isEmpty && part != "." && part != ".."
                && part.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2B }
        }
    }

    /// The offset east of UTC, in seconds, at the moment `seconds` (UTC seconds since 1970).
    public func offset(atUTC seconds: Int64) -> Int {
        guard let last = transitions.last else { return rule?.offset(atUTC: seconds) ?? initialOffset }
        if seconds >= last, let rule { return rule.offset(atUTC: seconds) }
        // The last transition at or before `seconds`.
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    /// The offset of the local clock reading `wall` (seconds since 1970 as if the clock were
    /// UTC): in the hour skipped in spring, the offset before the change (02:30 is read as
    /// 03:30 after it, as `mktime` does); in the hour repeated in autumn, the first.
    public func offset(atLocal wall: Int64) -> Int {
        let before = offset(atUTC: Self.sum(wall, -86_400)), after = offset(atUTC: Self.sum(wall, 86_400))
        for candidate in [before, after] where offset(atUTC: Self.sum(wall, -Int64(candidate))) == candidate { return candidate }
        return before
    }

    /// `a + b`, held at the ends of Int64 instead of trapping: the moments asked about may come
    /// from a file or a server.
    public static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : result
    }

    /// The local clock reading `seconds` after midnight of `day`, as seconds since 1970.
    public static func wall(_ day: CalendarDay, _ seconds: Int) -> Int64 {
        let (days, overflow) = Int64(day.daysSince1970).multipliedReportingOverflow(by: 86_400)
        return overflow ? (day.daysSince1970 > 0 ? .max : .min) : sum(days, Int64(seconds))
    }

    /// The zone as the rest of the program reads local days and clocks.
    public var localTime: LocalTime {
        var zone = LocalTime(
            day: { [self] time in Self.split(Self.sum(Self.seconds(time), Int64(offset(atUTC: Self.seconds(time))))).0 },
            midnight: { [self] day in moment(day, 0) },
            moment: { [self] day, seconds in moment(day, seconds) },
            clock: { [self] time in Self.split(Self.sum(Self.seconds(time), Int64(offset(atUTC: Self.seconds(time))))) }
        )
        zone.name = name
        return zone
    }

    private func moment(_ day: CalendarDay, _ seconds: Int) -> Timestamp {
        let utc = Self.sum(Self.wall(day, seconds), -Int64(offset(atLocal: Self.wall(day, seconds))))
        let (milliseconds, overflow) = utc.multipliedReportingOverflow(by: 1000)
        return Timestamp(millisecondsSince1970: overflow ? (utc > 0 ? .max : .min) : milliseconds)
    }

    private static func seconds(_ time: Timestamp) -> Int64 {
        let milliseconds = time.millisecondsSince1970
        return milliseconds / 1000 - (milliseconds % 1000 < 0 ? 1 : 0)  // floored, no step past Int64.min
    }

    private static func split(_ wall: Int64) -> (CalendarDay, Int) {
        let remainder = wall % 86_400
        let days = wall / 86_400 - (remainder < 0 ? 1 : 0)
        return (CalendarDay(daysSince1970: Int(clamping: days)) ?? .unixEpoch, Int(remainder < 0 ? remainder + 86_400 : remainder))
    }

    // MARK: - The file

    static func read(_ path: String, name: String) -> ZoneInfo? {
        guard let bytes = readFile(path, limit: 1 << 20) else { return nil }
        return parse(bytes, name: name)
    }

    /// The TZif bytes as a zone: the version 2+ block when there is one (64-bit times), else
    /// the version 1 block.
    public static func parse(_ bytes: [UInt8], name: String) -> ZoneInfo? {
        var reader = TZifReader(bytes: bytes)
        guard let first = reader.header() else { return nil }
        if first.version >= 2 {
            // Skip the 32-bit block, then read the 64-bit one and the footer.
            guard reader.skip(first.blockLength(timeSize: 4)), let second = reader.header(), second.version >= 2,
                  let block = reader.block(second, timeSize: 8) else { return nil }
            let footer = reader.footer()
            let rule = footer.flatMap { $0.isEmpty ? nil : PosixZoneRule($0) }
            if footer.map({ !$0.isEmpty && rule == nil }) ?? false { return nil }
            return ZoneInfo(name: name, transitions: block.times, offsets: block.offsets, initialOffset: block.initial, rule: rule)
        }
        guard let block = reader.block(first, timeSize: 4) else { return nil }
        return ZoneInfo(name: name, transitions: block.times, offsets: block.offsets, initialOffset: block.initial, rule: nil)
    }

    private static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue } else { return nil } }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { return nil }
        }
    }
}

/// Reads a TZif file's parts, each checked against what is left.
private struct TZifReader {
    let bytes: [UInt8]
    var at = 0

    struct Header {
        let version: Int
        let isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

        func blockLength(timeSize: Int) -> Int {
            timecnt * timeSize + timecnt + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
        }
    }

    mutating func header() -> Header? {
        guard at + 44 <= bytes.count, Array(bytes[at..<(at + 4)]) == Array("TZif".utf8) else { return nil }
        let versionByte = bytes[at + 4]
        let version = versionByte == 0 ? 1 : (versionByte >= 0x32 && versionByte <= 0x39 ? Int(versionByte - 0x30) : 0)
        guard version > 0 else { return nil }
        var counts: [Int] = []
        for index in 0..<6 {
            let value = number(at: at + 20 + index * 4, size: 4)
            // Counts a file of at most 1 MB can hold; nothing past that sizes memory.
            guard value >= 0, value <= 1 << 20 else { return nil }
            counts.append(Int(value))
        }
        at += 44
        let header = Header(version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2], timecnt: counts[3],
                            typecnt: counts[4], charcnt: counts[5])
        guard header.typecnt >= 1, header.blockLength(timeSize: 4) <= bytes.count - at else { return nil }
        return header
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= bytes.count - at else { return false }
        at += count
        return true
    }

    mutating func block(_ header: Header, timeSize: Int) -> (times: [Int64], offsets: [Int], initial: Int)? {
        guard header.blockLength(timeSize: timeSize) <= bytes.count - at else { return nil }
        var times: [Int64] = []
        times.reserveCapacity(header.timecnt)
        for index in 0..<header.timecnt { times.append(number(at: at + index * timeSize, size: timeSize)) }
        let indexStart = at + header.timecnt * timeSize
        let typeStart = indexStart + header.timecnt
        var typeOffsets: [Int] = []
        for type in 0..<header.typecnt {
            let offset = number(at: typeStart + type * 6, size: 4)
            // Offsets of the real world: within a day either side.
            guard abs(offset) < 86_400 else { return nil }
            typeOffsets.append(Int(offset))
        }
        var offsets: [Int] = []
        for index in 0..<header.timecnt {
            let type = Int(bytes[indexStart + index])
            guard type < header.typecnt else { return nil }
            offsets.append(typeOffsets[type])
        }
        guard zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        at += header.blockLength(timeSize: timeSize)
        // Before the first transition: the first type (RFC 8536, 3.2).
        return (times, offsets, typeOffsets[0])
    }

    /// The footer's TZ string (between two newlines), or nil when there is none.
    mutating func footer() -> String? {
        guard at < bytes.count, bytes[at] == 0x0A else { return nil }
        guard let end = bytes[(at + 1)...].firstIndex(of: 0x0A) else { return nil }
        return String(decoding: bytes[(at + 1)..<end], as: UTF8.self)
    }

    /// A big-endian signed number of `size` bytes (4 or 8) at `offset`.
    private func number(at offset: Int, size: Int) -> Int64 {
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        if size == 4 { return Int64(Int32(truncatingIfNeeded: UInt32(truncatingIfNeeded: value))) }
        return Int64(bitPattern: value)
    }
}

/// A POSIX TZ rule as a TZif footer holds it: `CST6CDT,M3.2.0,M11.1.0` (standard name and
/// offset west of UTC, daylight name and offset, and the month/week/day rules of the changes,
/// with their local times), or a zone with no daylight time (`<+03>-3`, `UTC0`). The `Jn` and
/// `n` day forms are read too.
struct PosixZoneRule: Sendable, Equatable {
    let standard: Int
    let daylight: Int?
    let start: Change?
    let end: Change?

    struct Change: Sendable, Equatable {
        enum Day: Sendable, Equatable { case monthWeekDay(month: Int, week: Int, weekday: Int), julianNoLeap(Int), zeroBased(Int) }
        let day: Day
        /// Local seconds after midnight (may be negative or past a day, as RFC 8536 allows).
        let time: Int
    }

    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.name(), let standardWest = scanner.offset() else { return nil }
        standard = -standardWest
        if scanner.atEnd {
            daylight = nil; start = nil; end = nil
            return
        }
        guard scanner.name() else { return nil }
        var daylightWest = standardWest - 3600
        if let given = scanner.offset() { daylightWest = given }
        daylight = -daylightWest
        guard scanner.take(0x2C), let start = scanner.change(), scanner.take(0x2C), let end = scanner.change(), scanner.atEnd else { return nil }
        self.start = start
        self.end = end
    }

    func offset(atUTC seconds: Int64) -> Int {
        guard let daylight, let start, let end else { return standard }
        let year = ZoneInfoCalendar.year(ofSeconds: ZoneInfo.sum(seconds, Int64(standard)))
        // The changes of this year, as UTC moments: the start in standard time, the end in daylight time.
        let begins = ZoneInfo.sum(ZoneInfoCalendar.seconds(of: start, year: year), -Int64(standard))
        let ends = ZoneInfo.sum(ZoneInfoCalendar.seconds(of: end, year: year), -Int64(daylight))
        if begins < ends { return seconds >= begins && seconds < ends ? daylight : standard }
        // Southern hemisphere: daylight time spans the new year.
        return seconds >= ends && seconds < begins ? standard : daylight
    }

    private struct Scanner {
        let bytes: [UInt8]
        var at = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var atEnd: Bool { at >= bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        /// `CST` (three letters or more) or `<+03>`.
        mutating func name() -> Bool {
            if take(0x3C) {
                while at < bytes.count, bytes[at] != 0x3E { at += 1 }
                return take(0x3E)
            }
            let begin = at
            while at < bytes.count, bytes[at] | 0x20 >= 0x61, bytes[at] | 0x20 <= 0x7A { at += 1 }
            return at - begin >= 3
        }

        /// `[+-]hh[:mm[:ss]]`, in seconds.
        mutating func offset() -> Int? {
            var sign = 1
            if take(0x2D) { sign = -1 } else { _ = take(0x2B) }
            guard let hours = number(), hours <= 167 else { return nil }
            var seconds = hours * 3600
            if take(0x3A) {
                guard let minutes = number(), minutes < 60 else { return nil }
                seconds += minutes * 60
                if take(0x3A) {
                    guard let rest = number(), rest < 60 else { return nil }
                    seconds += rest
                }
            }
            return sign * seconds
        }

        mutating func number() -> Int? {
            let begin = at
            var value = 0
            while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39, at - begin < 4 {
                value = value * 10 + Int(bytes[at] - 0x30)
                at += 1
            }
            return at > begin ? value : nil
        }

        /// `Mm.w.d[/time]`, `Jn[/time]` or `n[/time]`.
        mutating func change() -> Change? {
            let day: Change.Day
            if take(0x4D) {
                guard let month = number(), (1...12).contains(month), take(0x2E), let week = number(), (1...5).contains(week),
                      take(0x2E), let weekday = number(), weekday <= 6 else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else if take(0x4A) {
                guard let number = number(), (1...365).contains(number) else { return nil }
                day = .julianNoLeap(number)
            } else {
                guard let number = number(), number <= 365 else { return nil }
                day = .zeroBased(number)
            }
            var time = 7200
            if take(0x2F) {
                guard let given = offset() else { return nil }
                time = given
            }
            return Change(day: day, time: time)
        }
    }
}

/// The few calendar sums a rule needs, on the proleptic Gregorian calendar.
enum ZoneInfoCalendar {
    static func year(ofSeconds seconds: Int64) -> Int {
        let days = seconds / 86_400 - (seconds % 86_400 < 0 ? 1 : 0)
        return (CalendarDay(daysSince1970: Int(clamping: days)) ?? .unixEpoch).year
    }

    /// The local seconds since 1970 (as if the clock were UTC) of `change` in `year`.
    static func seconds(of change: PosixZoneRule.Change, year: Int) -> Int64 {
        let days: Int
        switch change.day {
        case .monthWeekDay(let month, let week, let weekday):
            guard let first = CalendarDay(year: year, month: month, day: 1) else { return 0 }
            // 1970-01-01 was a Thursday (weekday 4, Sunday being 0).
            let firstWeekday = ((first.daysSince1970 % 7) + 7 + 4) % 7
            var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = CalendarDay(year: year, month: month, day: 31) != nil ? 31 : CalendarDay(year: year, month: month, day: 30) != nil ? 30
                : CalendarDay(year: year, month: month, day: 29) != nil ? 29 : 28
            while day > length { day -= 7 }
            days = first.daysSince1970 + day - 1
        case .julianNoLeap(let number):
            guard let january = CalendarDay(year: year, month: 1, day: 1) else { return 0 }
            let leap = CalendarDay(year: year, month: 2, day: 29) != nil
            days = january.daysSince1970 + number - 1 + (leap && number >= 60 ? 1 : 0)
        case .zeroBased(let number):
            guard let january = CalendarDay(year: year, month: 1, day: 1) else { return 0 }
            days = january.daysSince1970 + number
        }
        return ZoneInfo.wall(CalendarDay(daysSince1970: days) ?? .unixEpoch, change.time)
    }
}
