/// A task's due, wait, scheduled or until: a calendar day, or a moment — a time of day on a
/// day, kept with the UTC offset and the zone it was given in.
///
/// Its text is how it is stored, sent by a sync, written to JSON and compared:
/// - a day: `2026-12-24`;
/// - a moment: the clock's reading where it was given, its offset from UTC, and the zone's
///   name when known (RFC 9557): `2026-12-24T14:00:00+01:00[Europe/Berlin]`. The reading and
///   the offset name one UTC instant exactly (`time`), to the second.
///
/// Why the reading and not the UTC time first (docs/architecture.md, "Times of day"): the
/// first ten characters are then the day the moment falls on where it was given, so every
/// comparison with a day — overdue, `--due-before`, waiting, expired, the order by due —
/// stays one text comparison in SQL, on the same index, for days and moments alike, and a
/// moment sorts after its day's all-day tasks and by its clock among that day's moments.
public struct TaskDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// As stored (see the type's comment).
    public let description: String
    // The text is the only stored property: a `Task` holds four of these, and with a day and
    // a time stored beside the text the release compiler (Swift 6.3.1) crashed in its
    // LoadableByAddress pass on the field table's closures. The day and the moment are read
    // from the text, which every initializer writes in one canonical form.

    /// The day: the whole date, or the one the moment falls on where it was given.
    public var day: CalendarDay { CalendarDay(description.prefix(10)) ?? .unixEpoch }

    /// The moment in UTC, when it is one: the reading less its offset.
    public var time: Timestamp? {
        guard let clock, let offset = offsetSeconds else { return nil }
        return Timestamp(millisecondsSince1970: (Int64(day.daysSince1970) * 86_400 + Int64(clock) - Int64(offset)) * 1000)
    }

    /// The zone it was given in, by name (`Europe/Berlin`), when it is a moment that has one.
    public var zoneName: String? {
        guard description.last == "]", let open = description.lastIndex(of: "[") else { return nil }
        return String(description[description.index(after: open)..<description.index(before: description.endIndex)])
    }

    /// The offset from UTC it was given with, in seconds east, for a moment.
    public var offsetSeconds: Int? {
        let bytes = Array(description.utf8.dropFirst(19).prefix(6))
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              let hours = TaskDate.number(bytes[1...2]), let minutes = TaskDate.number(bytes[4...5]) else { return nil }
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The whole day `day`.
    public init(_ day: CalendarDay) {
        self.description = day.description
    }

    /// The moment `time`, read on the clock of `zone` (named `zoneName` when it has a name).
    public init(_ time: Timestamp, in zone: LocalTime) {
        // Down to its second, toward the past; a moment within a second of the ends of the
        // integers (a file the sqlite3 shell wrote) stays as it is rather than trapping.
        let milliseconds = time.millisecondsSince1970
        let (floored, overflow) = milliseconds.subtractingReportingOverflow((milliseconds % 1000 + 1000) % 1000)
        let whole = Timestamp(millisecondsSince1970: overflow ? milliseconds : floored)
        let (day, clock) = zone.clock(whole)
        self.init(day: day, clock: clock, offsetSeconds: zone.offsetSeconds(at: whole), zoneName: zone.name)
    }

    /// The moment `clock` seconds after midnight on `day`'s clock, `offsetSeconds` east of UTC.
    public init(day: CalendarDay, clock: Int, offsetSeconds: Int, zoneName: String? = nil) {
        let offset = abs(offsetSeconds) / 60
        var text = day.description + "T" + TaskDate.two(clock / 3600) + ":" + TaskDate.two(clock / 60 % 60) + ":" + TaskDate.two(clock % 60)
        text += (offsetSeconds < 0 ? "-" : "+") + TaskDate.two(offset / 60) + ":" + TaskDate.two(offset % 60)
        if let zoneName, !zoneName.isEmpty { text += "[" + zoneName + "]" }
        self.description = text
    }

    /// A date as stored — or as JSON or a person writes an RFC 3339 moment: `2026-12-24`,
    /// `2026-12-24T14:00:00+01:00[Europe/Berlin]`, `2026-12-24T13:00:00Z`, `2026-12-24T14:00+01:00`
    /// (seconds may be left out; a fraction of a second is dropped). `nil` for anything else,
    /// including a reading with no offset (it names no moment).
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count >= 10, let day = CalendarDay(text.prefix(10)) else { return nil }
        if text.utf8.count == 10 { self.init(day); return }
        var rest = Substring(text.dropFirst(10))
        guard rest.first == "T" || rest.first == "t" || rest.first == " " else { return nil }
        rest = rest.dropFirst()
        var name: String?
        if rest.last == "]", let open = rest.lastIndex(of: "[") {
            let inside = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            guard !inside.isEmpty, inside.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-:".contains($0)) }) else { return nil }
            name = String(inside)
            rest = rest[..<open]
        }
        var offset = 0
        if rest.last == "Z" || rest.last == "z" {
            rest = rest.dropLast()
        } else {
            guard rest.count > 6, let sign = rest.dropLast(5).last, sign == "+" || sign == "-",
                  let zone = TaskDate.clock(rest.suffix(5)) else { return nil }
            offset = (sign == "+" ? 1 : -1) * zone
            rest = rest.dropLast(6)
        }
        guard offset.magnitude < 86_400 else { return nil }
        if let dot = rest.firstIndex(of: ".") {
            guard rest[rest.index(after: dot)...].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            rest = rest[..<dot]
        }
        var seconds = 0
        if rest.count == 8 {
            guard rest.dropFirst(5).first == ":", let extra = Int(rest.suffix(2)), (0..<60).contains(extra) else { return nil }
            seconds = extra
            rest = rest.dropLast(3)
        }
        guard rest.count == 5, let clock = TaskDate.clock(rest) else { return nil }
        self.init(day: day, clock: clock + seconds, offsetSeconds: offset, zoneName: name)
    }

    /// Whether it is a whole day (else a moment).
    public var isDay: Bool { description.utf8.count == 10 }

    /// The clock's reading where it was given, `2026-12-24T14:00:00`, or the day alone.
    public var reading: Substring { description.prefix(19) }

    /// Whether it is over by `now` (read on the local clock as `TaskDate.reading(now)`) on
    /// `today`: a day once it is behind today, a moment once it has passed.
    public func isPast(today: CalendarDay, now: String) -> Bool {
        isDay ? day < today : reading <= now
    }

    /// Whether it is still ahead: a day after today, a moment not yet come.
    public func isAhead(today: CalendarDay, now: String) -> Bool {
        isDay ? day > today : reading > now
    }

    /// As a person reads it in `zone`: `2026-12-24`, or `2026-12-24 14:00` (with `:30` when
    /// the seconds are not zero), the moment read on the local clock.
    public func shown(in zone: LocalTime) -> String {
        guard let time else { return description }
        let (day, clock) = zone.clock(time)
        var text = day.description + " " + TaskDate.two(clock / 3600) + ":" + TaskDate.two(clock / 60 % 60)
        if clock % 60 != 0 { text += ":" + TaskDate.two(clock % 60) }
        return text
    }

    /// The seconds after midnight its reading shows, for a moment.
    public var clock: Int? {
        let bytes = Array(description.utf8.dropFirst(11).prefix(8))
        guard bytes.count == 8, let hour = TaskDate.number(bytes[0...1]), let minute = TaskDate.number(bytes[3...4]),
              let second = TaskDate.number(bytes[6...7]) else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    /// Two ASCII digits.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 2, let first = bytes.first, let last = bytes.last,
              (48...57).contains(first), (48...57).contains(last) else { return nil }
        return Int(first - 48) * 10 + Int(last - 48)
    }

    /// The same kind of date on `day`: the day itself, or a moment at the same reading of the
    /// clock on `day` — in the zone it was given in, when it names one the zone database knows
    /// (another client's 14:00 in America/Chicago stays 14:00 there), else in `zone` (a
    /// repeating task due at 09:00 stays at 09:00, across a change of daylight saving time).
    public func on(_ day: CalendarDay, in zone: LocalTime) -> TaskDate {
        guard let clock else { return TaskDate(day) }
        var zone = zone
        if let name = zoneName, name != zone.name, let own = ZoneInfo.named(name) { zone = own.localTime }
        return TaskDate(zone.moment(day, clock), in: zone)
    }

    /// `now` as `reading` compares with: `2026-12-24T14:00:05` on the clock of `zone` — or
    /// the start of `today` when `now` falls on another day (a clock and a day given apart,
    /// as tests and `--now` do: the day decides).
    public static func reading(_ now: Timestamp, in zone: LocalTime, today: CalendarDay? = nil) -> String {
        let reading = String(TaskDate(now, in: zone).reading)
        guard let today, !reading.hasPrefix(today.description) else { return reading }
        return today.description + "T00:00:00"
    }

    public static func < (lhs: TaskDate, rhs: TaskDate) -> Bool { lhs.description < rhs.description }

    private static func two(_ number: Int) -> String { number < 10 ? "0" + String(number) : String(number) }

    /// `HH:MM` as seconds after midnight.
    private static func clock(_ text: Substring) -> Int? {
        guard text.count == 5, text.dropFirst(2).first == ":", let hour = Int(text.prefix(2)), let minute = Int(text.suffix(2)),
              (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        return hour * 3600 + minute * 60
    }
}
