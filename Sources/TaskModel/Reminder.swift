/// One reminder of a task: a moment, or a length of time before or after its due date or its
/// start (its wait: CalDAV's DTSTART) — what a VALARM's TRIGGER says, and what
/// `tasks add … --remind due-15min` sets. Its text is a word without spaces: `due-15min`,
/// `due`, `start+1h`, `20261207T140000Z` (a moment, in UTC); a task keeps its reminders as a list of them.
public struct Reminder: Hashable, Sendable, CustomStringConvertible {
    public enum Anchor: String, Sendable {
        /// The task's due date (a VALARM related to the end: RELATED=END).
        case due
        /// The task's start: its wait (a VALARM related to DTSTART, RFC 5545's default).
        case start
        /// A moment, whatever the task's dates.
        case moment
    }

    public let anchor: Anchor
    /// Seconds after the anchor (before it when negative); for a moment, milliseconds since 1970.
    public let offset: Int64

    /// At most a year before or after its date: a reminder further off is a mistake.
    public static let maximumOffset: Int64 = 366 * 86_400

    public init?(anchor: Anchor, offset: Int64) {
        guard anchor == .moment || abs(offset) <= Self.maximumOffset else { return nil }
        self.anchor = anchor
        self.offset = offset
    }

    /// A reminder at `time`, to the second (as iCalendar and Taskwarrior keep moments).
    public init(at time: Timestamp) {
        anchor = .moment
        let milliseconds = time.millisecondsSince1970
        offset = milliseconds - ((milliseconds % 1000) + 1000) % 1000
    }

    /// Its moment when it is one.
    public var moment: Timestamp? { anchor == .moment ? Timestamp(millisecondsSince1970: offset) : nil }

    /// `due-15min`, `start+1h`, `due`, or the moment in UTC (`20261207T140000Z`).
    public var description: String {
        if let moment { return TimestampText.taskwarrior(moment) }
        if offset == 0 { return anchor.rawValue }
        return anchor.rawValue + (offset < 0 ? "-" : "+") + CustomField.short(offset.magnitude > UInt64(Int64.max) ? 0 : abs(offset))
    }

    /// A stored or typed reminder's canonical text read back: `due-15min`, `due-15m` (minutes),
    /// `start+1h30min`, `-15min` (before due), `due`, `start`; nil for anything else (a moment
    /// is read by `judge`, through the date grammar).
    public init?(relative text: String) {
        let lowered = text.lowercased()
        var rest = Substring(lowered)
        var anchor = Anchor.due
        for candidate in [Anchor.due, .start] where rest.hasPrefix(candidate.rawValue) {
            anchor = candidate
            rest = rest.dropFirst(candidate.rawValue.count)
        }
        if lowered.hasPrefix("wait") {
            anchor = .start  // the start is the wait
            rest = rest.dropFirst(4)
        }
        if rest.isEmpty, rest.count < lowered.count {
            self.init(anchor: anchor, offset: 0)
            return
        }
        guard let sign = rest.first, sign == "-" || sign == "+" else { return nil }
        var duration = String(rest.dropFirst())
        // `15m` is minutes here (a reminder is never months away).
        if duration.hasSuffix("m") && !duration.hasSuffix("mm") { duration += "in" }
        guard let seconds = CustomField.seconds(duration) else { return nil }
        self.init(anchor: anchor, offset: sign == "-" ? -seconds : seconds)
    }

    /// The reminder `text` says, typed: relative (`due-15min`) or a moment in the date grammar
    /// (`tomorrow 9:00`, `2026-12-07T14:00`), counted from `context`. A day alone is refused:
    /// a reminder is a moment.
    public static func judge(_ text: String, in context: DateContext) -> Reminder? {
        if let relative = Reminder(relative: text) { return relative }
        if let stored = TimestampText.parse(text) { return Reminder(at: stored) }
        guard let date = try? DateGrammar.date(text, in: context), let time = date.time else { return nil }
        return Reminder(at: time)
    }

    /// The moment it rings for `task`, in `zone` (a date that is a day counts from its local
    /// midnight); nil when its anchor is not set.
    public func fires(for task: Task, in zone: LocalTime) -> Timestamp? {
        let base: TaskDate?
        switch anchor {
        case .moment: return moment
        case .due: base = task.due
        case .start: base = task.wait
        }
        guard let base else { return nil }
        let start = base.time ?? zone.midnight(base.day)
        let (moved, overflow) = start.millisecondsSince1970.addingReportingOverflow(offset * 1000)
        return overflow ? nil : Timestamp(millisecondsSince1970: moved)
    }
}

/// A task's reminders as its column holds them: their texts, space-delimited (`TagsText`).
public enum RemindersText {
    public static func encode(_ reminders: [Reminder]) -> String { TagsText.encode(reminders.map(\.description)) }

    /// The stored texts read back; a word that is no reminder (written by hand) is dropped.
    public static func decode(_ text: String) -> [Reminder] {
        TagsText.decode(text).compactMap { Reminder(relative: $0) ?? TimestampText.parse($0).map(Reminder.init(at:)) }
    }
}
