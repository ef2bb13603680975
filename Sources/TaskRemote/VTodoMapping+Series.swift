import TaskModel

extension VTodoMapping {
    /// The item of a repeating task's next occurrence, made from the item of an occurrence
    /// before it, so that it keeps that item's conventions — its VTIMEZONE (and so its due's
    /// zone), its alarms, its other clients' properties — with its own UID and none of the old
    /// occurrence's state: no status, completion, sequence or overrides of old occurrences,
    /// alarms not acknowledged. Its fields are then written by `write`.
    public static func nextItem(from template: ICalendar, uuid: String, now: Timestamp) -> ICalendar {
        var calendar = template
        calendar.removeOverrides()
        for name in ["UID", "STATUS", "COMPLETED", "PERCENT-COMPLETE", "SEQUENCE", "CREATED", "DTSTAMP", "LAST-MODIFIED", "X-TASKS-START"] {
            calendar.replace(name, with: [])
        }
        // An alarm's acknowledgement (RFC 9074's ACKNOWLEDGED, Thunderbird's X-MOZ-LASTACK)
        // was of the old occurrence: the new one rings.
        calendar.lines.removeAll { line in
            let name = line.property.name
            return name == "ACKNOWLEDGED" || name == "X-MOZ-LASTACK" || name == "X-MOZ-SNOOZE-TIME"
        }
        calendar.replace("UID", with: ["UID:" + uuid])
        calendar.replace("DTSTAMP", with: ["DTSTAMP:" + ICalDate.utc(now)])
        return calendar
    }

    /// Whether the item says it is an occurrence of `series` (`X-TASKS-SERIES`).
    static func isOfSeries(_ calendar: ICalendar, _ series: String) -> Bool {
        calendar.property("X-TASKS-SERIES").map { ICalendar.unescape($0.value) == series } ?? false
    }
}
