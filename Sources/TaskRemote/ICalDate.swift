import TaskModel

/// iCalendar's DATE and DATE-TIME values as tasks' dates and times.
///
/// A DATE is a day. A DATE-TIME ending in `Z` is a moment in UTC; one with a `TZID` is a
/// reading on that zone's clock, its offset found in the item's own VTIMEZONE (its yearly
/// rules: `BYMONTH` with `BYDAY` such as `-1SU`, `2SU`), else, for the name of the zone this
/// machine runs in, in the system's rules; one with neither floats and is read on this
/// machine's clock. Moments are written in UTC, which every client reads.
public enum ICalDate {
    /// The value of a property holding a date or a date-time, as a task's date.
    public static func read(_ property: ICalendar.Property, in calendar: ICalendar, zone: LocalTime) -> TaskDate? {
        let value = property.value.trimmingWhitespace
        if property.parameter("VALUE")?.uppercased() == "DATE" || value.utf8.count == 8 {
            return day(value).map { TaskDate($0) }
        }
        guard let (day, seconds, isUTC) = reading(value) else { return nil }
        if isUTC {
            return TaskDate(Timestamp(millisecondsSince1970: (Int64(day.daysSince1970) * 86_400 + Int64(seconds)) * 1000), in: zone)
        }
        if let tzid = property.parameter("TZID"), let offset = offset(of: tzid, at: day, seconds, in: calendar) {
            let name = ianaName(tzid)
            return TaskDate(day: day, clock: seconds, offsetSeconds: offset, zoneName: name ?? (tzid.contains("/") ? tzid : nil))
        }
        let time = zone.moment(day, seconds)
        return TaskDate(time, in: zone)
    }

    /// Whether a property holds a DATE (not a DATE-TIME).
    public static func isDay(_ property: ICalendar.Property) -> Bool {
        property.parameter("VALUE")?.uppercased() == "DATE" || property.value.trimmingWhitespace.utf8.count == 8
    }

    /// `;VALUE=DATE:20261224` for a day, `:20261224T130000Z` for a moment: what follows the
    /// property's name.
    public static func write(_ date: TaskDate) -> String {
        if let time = date.time { return ":" + utc(time) }
        let day = date.day
        return ";VALUE=DATE:" + digits(day.year, 4) + digits(day.month, 2) + digits(day.day, 2)
    }

    /// The same, keeping the item's own convention: a moment given in a zone that the item
    /// has a VTIMEZONE for (by that TZID, or one whose IANA name it is) is written as a reading
    /// on that zone's clock with its TZID (`;TZID=America/Chicago:20261207T140000`), as the
    /// client that wrote the item reads it; anything else as `write(_:)` does.
    public static func write(_ date: TaskDate, in calendar: ICalendar) -> String {
        guard date.time != nil, let name = date.zoneName, let clock = date.clock, let tzid = vtimezoneTZID(for: name, in: calendar) else {
            return write(date)
        }
        let day = date.day
        return ";TZID=" + tzid + ":" + digits(day.year, 4) + digits(day.month, 2) + digits(day.day, 2) + "T"
            + digits(clock / 3600, 2) + digits(clock / 60 % 60, 2) + digits(clock % 60, 2)
    }

    /// The TZID of the item's VTIMEZONE for the zone `name` (its TZID, or an IANA name it ends in).
    static func vtimezoneTZID(for name: String, in calendar: ICalendar) -> String? {
        var inZone = false
        for line in calendar.lines {
            let upper = line.content.uppercased()
            if upper == "BEGIN:VTIMEZONE" { inZone = true; continue }
            if upper == "END:VTIMEZONE" { inZone = false; continue }
            guard inZone else { continue }
            let property = ICalendar.Property(line.content)
            guard property.name == "TZID" else { continue }
            let tzid = property.value.trimmingWhitespace
            if tzid == name || (tzid.hasSuffix("/" + name) && ianaName(tzid) == name) {
                // Only a TZID that a parameter can carry as it is (no quote, colon or semicolon).
                return tzid.contains(where: { $0 == "\"" || $0 == ":" || $0 == ";" || $0 == "," }) ? nil : tzid
            }
        }
        return nil
    }

    /// A moment in UTC: `20261224T130000Z`.
    public static func utc(_ time: Timestamp) -> String {
        let milliseconds = time.millisecondsSince1970
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let clock = Int(seconds - days * 86_400)
        let day = CalendarDay(daysSince1970: Int(days)) ?? .unixEpoch
        return digits(day.year, 4) + digits(day.month, 2) + digits(day.day, 2) + "T" + digits(clock / 3600, 2) + digits(clock / 60 % 60, 2) + digits(clock % 60, 2) + "Z"
    }

    /// A UTC DATE-TIME (COMPLETED, CREATED, LAST-MODIFIED), or a DATE as its midnight in UTC.
    public static func instant(_ value: String) -> Timestamp? {
        let text = value.trimmingWhitespace
        if let day = day(text), text.utf8.count == 8 { return Timestamp(millisecondsSince1970: Int64(day.daysSince1970) * 86_400_000) }
        guard let (day, seconds, _) = reading(text) else { return nil }
        return Timestamp(millisecondsSince1970: (Int64(day.daysSince1970) * 86_400 + Int64(seconds)) * 1000)
    }

    static func day(_ text: some StringProtocol) -> CalendarDay? {
        let bytes = Array(text.utf8.prefix(8))
        guard bytes.count == 8, let year = number(bytes[0..<4]), let month = number(bytes[4..<6]), let day = number(bytes[6..<8]) else { return nil }
        return CalendarDay(year: year, month: month, day: day)
    }

    /// `20261224T140000` (with `Z` or without): the day, the seconds after midnight, and whether UTC.
    static func reading(_ text: some StringProtocol) -> (CalendarDay, Int, Bool)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 15 || bytes.count == 16, bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t"),
              let day = day(text), let hours = number(bytes[9..<11]), let minutes = number(bytes[11..<13]), let seconds = number(bytes[13..<15]),
              hours < 24, minutes < 60, seconds <= 60 else { return nil }
        let isUTC = bytes.count == 16
        if isUTC && bytes[15] != UInt8(ascii: "Z") && bytes[15] != UInt8(ascii: "z") { return nil }
        return (day, hours * 3600 + minutes * 60 + min(seconds, 59), isUTC)
    }

    static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }

    // MARK: - Zones

    /// The offset east of UTC, in seconds, of the reading `day` `seconds` on the clock of the
    /// zone `tzid`: from the item's VTIMEZONE, else the system's zone when it has that name.
    static func offset(of tzid: String, at day: CalendarDay, _ seconds: Int, in calendar: ICalendar) -> Int? {
        if let offset = vtimezoneOffset(tzid, at: day, seconds, in: calendar) { return offset }
        if LocalTime.system.name == tzid {
            let time = LocalTime.system.moment(day, seconds)
            return LocalTime.system.offsetSeconds(at: time)
        }
        if tzid == "UTC" || tzid == "Etc/UTC" || tzid == "GMT" { return 0 }
        // No VTIMEZONE for it (a server that stores what it is given, a client that leaves
        // it out): a zone of the system's database by the name (issue 54).
        if let name = ianaName(tzid), let zone = ZoneInfo.named(name) {
            return zone.offset(atLocal: ZoneInfo.wall(day, seconds))
        }
        return nil
    }

    /// The IANA name a TZID gives: itself (`America/Chicago`), or the end of a prefixed one
    /// (`/mozilla.org/20050126_1/Europe/Berlin`, `/freeassociation.sourceforge.net/Tzfile/Europe/Berlin`);
    /// nil when no part of it names a zone here.
    static func ianaName(_ tzid: String) -> String? {
        let trimmed = tzid.trimmingWhitespace
        if ZoneInfo.named(trimmed) != nil { return trimmed }
        guard trimmed.hasPrefix("/") else { return nil }
        let parts = trimmed.split(separator: "/")
        for start in parts.indices.dropFirst().prefix(8) {
            let name = parts[start...].joined(separator: "/")
            if ZoneInfo.named(name) != nil { return name }
        }
        return nil
    }

    /// The observance of `tzid` in force at the reading: the one whose latest onset at or
    /// before it is the latest; its TZOFFSETTO.
    static func vtimezoneOffset(_ tzid: String, at day: CalendarDay, _ seconds: Int, in calendar: ICalendar) -> Int? {
        let lines = calendar.lines.map(\.content)
        guard let start = lines.indices.first(where: { index in
            lines[index].uppercased() == "BEGIN:VTIMEZONE" && lines[index...].prefix { $0.uppercased() != "END:VTIMEZONE" }
                .contains { ICalendar.Property($0).name == "TZID" && ICalendar.Property($0).value.trimmingWhitespace == tzid }
        }) else { return nil }
        let target = Int64(day.daysSince1970) * 86_400 + Int64(seconds)
        var best: (onset: Int64, offset: Int)?
        var index = start + 1
        while index < lines.count, lines[index].uppercased() != "END:VTIMEZONE" {
            let upper = lines[index].uppercased()
            guard upper == "BEGIN:STANDARD" || upper == "BEGIN:DAYLIGHT" else { index += 1; continue }
            let end = lines[index...].firstIndex { $0.uppercased() == "END:STANDARD" || $0.uppercased() == "END:DAYLIGHT" } ?? lines.count - 1
            let properties = lines[(index + 1)..<end].map(ICalendar.Property.init)
            index = end + 1
            guard let offset = properties.first(where: { $0.name == "TZOFFSETTO" }).flatMap({ utcOffset($0.value) }),
                  let first = properties.first(where: { $0.name == "DTSTART" }).flatMap({ reading($0.value.trimmingWhitespace) }) else { continue }
            var onsets = [Int64(first.0.daysSince1970) * 86_400 + Int64(first.1)]
            if let rule = properties.first(where: { $0.name == "RRULE" }) {
                for year in [day.year - 1, day.year] {
                    if let onset = yearlyOnset(rule.value, year: year, clock: first.1), onset >= onsets[0] { onsets.append(onset) }
                }
            }
            for rdate in properties where rdate.name == "RDATE" {
                for value in rdate.value.split(separator: ",") {
                    if let (onsetDay, clock, _) = reading(String(value).trimmingWhitespace) { onsets.append(Int64(onsetDay.daysSince1970) * 86_400 + Int64(clock)) }
                }
            }
            if let onset = onsets.filter({ $0 <= target }).max(), onset > (best?.onset ?? Int64.min) { best = (onset, offset) }
        }
        return best?.offset
    }

    /// `+0100` or `-0530` (or with seconds) as seconds east of UTC.
    static func utcOffset(_ text: String) -> Int? {
        let bytes = Array(text.trimmingWhitespace.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              let hours = number(bytes[1..<3]), let minutes = number(bytes[3..<5]) else { return nil }
        let seconds = bytes.count == 7 ? number(bytes[5..<7]) ?? 0 : 0
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)
    }

    /// The onset in `year` of a yearly rule `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU`, at `clock`.
    static func yearlyOnset(_ rule: String, year: Int, clock: Int) -> Int64? {
        var parts: [String: String] = [:]
        for part in rule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[pair[0].uppercased()] = String(pair[1]) }
        }
        guard parts["FREQ"]?.uppercased() == "YEARLY", let month = parts["BYMONTH"].flatMap({ Int($0) }), let byDay = parts["BYDAY"]?.uppercased(),
              byDay.count >= 2 else { return nil }
        let names = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        guard let weekday = names.firstIndex(of: String(byDay.suffix(2))) else { return nil }
        let ordinal = Int(byDay.dropLast(2)) ?? 1
        guard let first = CalendarDay(year: year, month: month, day: 1) else { return nil }
        let length = CalendarDay.daysIn(month: month, year: year)
        var day: CalendarDay?
        if ordinal > 0 {
            let offset = (weekday - first.weekday + 7) % 7 + (ordinal - 1) * 7
            day = offset < length ? first.adding(days: offset) : nil
        } else {
            guard let last = CalendarDay(year: year, month: month, day: length) else { return nil }
            let offset = (last.weekday - weekday + 7) % 7 + (-ordinal - 1) * 7
            day = offset < length ? last.adding(days: -offset) : nil
        }
        if let until = parts["UNTIL"], let limit = instant(until), let day, Int64(day.daysSince1970) * 86_400 * 1000 > limit.millisecondsSince1970 { return nil }
        return day.map { Int64($0.daysSince1970) * 86_400 + Int64(clock) }
    }
}
