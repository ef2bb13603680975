import TaskModel

extension ICalendar {
    /// The VALARMs directly inside the item's VTODO (not an override's), in order.
    public var alarms: [Range<Int>] {
        guard let todo else { return [] }
        var result: [Range<Int>] = []
        var depth = 0
        var begin: Int?
        for index in todo.dropFirst().dropLast() {
            let line = lines[index]
            if line.startsComponent {
                depth += 1
                if depth == 1 && line.isBegin("VALARM") { begin = index }
            } else if line.endsComponent {
                if depth == 1, let start = begin { result.append(start..<(index + 1)) }
                if depth == 1 { begin = nil }
                depth -= 1
            }
        }
        return result
    }

    /// The properties of the component `range`, not of those nested in it.
    public func ownProperties(of range: Range<Int>) -> [Property] { topLevel(of: range).map { lines[$0].property } }

    /// `contents` (content lines, unfolded) put last inside the VTODO, before its END.
    mutating func appendToTodo(_ contents: [String]) {
        guard let todo, !contents.isEmpty else { return }
        lines.insert(contentsOf: contents.map { Line(raw: ICalendar.fold($0, lineEnd: lineEnd) + lineEnd, content: $0) }, at: todo.upperBound - 1)
    }
}

/// A task's reminders are its item's VALARMs (docs/sync.md, "CalDAV: the mapping"): each
/// alarm's TRIGGER read as a reminder — a moment, or a length of time from DUE (RELATED=END)
/// or from DTSTART (RFC 5545's default; from DUE when the item has no DTSTART, where a start
/// means nothing) — and, when the reminders change here, only the alarms that no longer say
/// one of them go, and only the new ones are written: every alarm that still says a reminder
/// stays as its client wrote it (its sound, its acknowledgement, its X- lines).
extension VTodoMapping {
    /// The reminders `calendar`'s VTODO's alarms say, as its column holds them.
    static func reminders(of calendar: ICalendar) -> String {
        let hasStart = calendar.property("DTSTART") != nil
        let texts = calendar.alarms.compactMap { reminder(ofAlarm: calendar.ownProperties(of: $0), hasStart: hasStart)?.description }
        return TagsText.encode(TagsText.normalized(texts))
    }

    /// The reminder one VALARM's properties say; nil for one a reminder cannot say (a place's
    /// alarm, whose TRIGGER is Apple's placeholder moment of 1976; a trigger not read).
    static func reminder(ofAlarm properties: [ICalendar.Property], hasStart: Bool) -> Reminder? {
        if properties.contains(where: { $0.name == "X-APPLE-PROXIMITY" || $0.name == "X-APPLE-STRUCTURED-LOCATION" }) { return nil }
        guard let trigger = properties.first(where: { $0.name == "TRIGGER" }) else { return nil }
        let value = trigger.value.trimmingWhitespace
        if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" { return ICalDate.instant(value).map(Reminder.init(at:)) }
        var rest = Substring(value.uppercased())
        var sign: Int64 = 1
        if rest.first == "-" {
            sign = -1
            rest = rest.dropFirst()
        } else if rest.first == "+" {
            rest = rest.dropFirst()
        }
        guard rest.first == "P", let seconds = CustomField.seconds(String(rest)) else { return nil }
        let fromEnd = trigger.parameter("RELATED")?.uppercased() == "END" || !hasStart
        return Reminder(anchor: fromEnd ? .due : .start, offset: sign * seconds)
    }

    /// A new VALARM for `reminder`: shown (DISPLAY) with the task's title.
    static func alarmLines(_ reminder: Reminder, title: String) -> [String] {
        let trigger: String
        if let moment = reminder.moment {
            trigger = "TRIGGER;VALUE=DATE-TIME:" + ICalDate.utc(moment)
        } else {
            let duration = (reminder.offset < 0 ? "-" : "") + CustomField.iso8601(reminder.offset.magnitude > UInt64(Reminder.maximumOffset) ? 0 : abs(reminder.offset))
            trigger = "TRIGGER;RELATED=" + (reminder.anchor == .due ? "END:" : "START:") + duration
        }
        return ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + ICalendar.escape(title.isEmpty ? "Reminder" : title), trigger, "END:VALARM"]
    }

    /// Sets the item's alarms to say `wanted` (reminders' texts): an alarm that says one stays
    /// as it is; one that says another reminder goes; one that says none (a place's) stays.
    static func writeReminders(_ wanted: [String], title: String, into calendar: inout ICalendar) {
        let hasStart = calendar.property("DTSTART") != nil
        var missing = Set(wanted)
        var gone: [Range<Int>] = []
        for alarm in calendar.alarms {
            guard let said = reminder(ofAlarm: calendar.ownProperties(of: alarm), hasStart: hasStart)?.description else { continue }
            if wanted.contains(said) { missing.remove(said) } else { gone.append(alarm) }
        }
        for range in gone.reversed() { calendar.lines.removeSubrange(range) }
        let new = missing.sorted().compactMap { RemindersText.decode(" \($0) ").first }
        calendar.appendToTodo(new.flatMap { alarmLines($0, title: title) })
    }
}
