import TaskModel

/// The VTODO's own properties of an item, parsed once, by name.
struct OwnProperties {
    private var byName: [String: [ICalendar.Property]] = [:]

    init?(_ calendar: ICalendar) {
        guard let todo = calendar.todo else { return nil }
        for index in calendar.topLevel(of: todo) {
            let property = calendar.lines[index].property
            byName[property.name, default: []].append(property)
        }
    }

    func property(_ name: String) -> ICalendar.Property? { byName[name]?.first }
    func properties(_ name: String) -> [ICalendar.Property] { byName[name] ?? [] }
}

/// A task's synced fields in a VTODO and back (docs/sync.md, "CalDAV: the mapping"). `list` is
/// the collection, not a property. Reading gives every field the item can say (a field it has
/// no property for reads as empty); writing sets only the properties of the fields given, so a
/// field unchanged here leaves its property exactly as another client wrote it.
public enum VTodoMapping {
    /// The title of an item with no SUMMARY or an empty one.
    public static let untitled = "(no title)"

    /// The fields `calendar`'s VTODO holds; empty when it holds none. Times without a zone of
    /// their own are read on `zone`'s clock; moments are shown on it.
    public static func fields(of whole: ICalendar, zone: LocalTime) -> [String: SyncValue] {
        // The VTODO's own properties, read once (not once per field).
        guard let calendar = OwnProperties(whole) else { return [:] }
        var fields: [String: SyncValue] = [:]
        // RFC 5545 makes SUMMARY optional (DAVx⁵'s own test item has none): an item without
        // one, or with an empty one, is a task titled `untitled` here — the same on every
        // read, so it is never written back unless the title is changed here.
        let summary = calendar.property("SUMMARY").map { ICalendar.unescape($0.value) } ?? ""
        fields["title"] = .text(summary.trimmingWhitespace.isEmpty ? untitled : summary)
        fields["notes"] = .text(calendar.property("DESCRIPTION").map { ICalendar.unescape($0.value) } ?? "")
        let status = calendar.property("STATUS")?.value.uppercased()
        let isDone = status == "COMPLETED" || status == "CANCELLED" || (status == nil && calendar.property("COMPLETED") != nil)
        fields["done"] = .integer(isDone ? 1 : 0)
        fields["completed"] = calendar.property("COMPLETED").flatMap { ICalDate.instant($0.value) }.map { .integer($0.millisecondsSince1970) } ?? .null
        fields["due"] = calendar.property("DUE").flatMap { ICalDate.read($0, in: whole, zone: zone) }.map { .text($0.description) } ?? .null
        let start = calendar.property("DTSTART").flatMap { ICalDate.read($0, in: whole, zone: zone) }
        // The exact start tasks kept beside a DTSTART made of DUE's kind, while DTSTART is on its day.
        let exact = calendar.property("X-TASKS-WAIT").flatMap { TaskDate($0.value.trimmingWhitespace) }
        fields["wait"] = (exact.flatMap { exact in start.map { $0.day == exact.day } == true ? exact : nil } ?? start).map { .text($0.description) } ?? .null
        for (field, name) in [("scheduled", "X-TASKS-SCHEDULED"), ("until", "X-TASKS-UNTIL")] {
            fields[field] = calendar.property(name).flatMap { TaskDate($0.value) }.map { .text($0.description) } ?? .null
        }
        fields["priority"] = calendar.property("PRIORITY").flatMap { Int($0.value.trimmingWhitespace) }.flatMap(rank(ofPriority:)).map { .integer($0) } ?? .null
        var tags: [String] = []
        for property in calendar.properties("CATEGORIES") {
            tags += ICalendar.splitList(property.value).map { $0.trimmingWhitespace.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: "_") }
        }
        fields["tags"] = .text(TagsText.encode(TagsText.normalized(tags)))
        if let order = calendar.property("X-APPLE-SORT-ORDER").flatMap({ Int64($0.value.trimmingWhitespace) }) { fields["position"] = .integer(order) }
        if let created = calendar.property("CREATED").flatMap({ ICalDate.instant($0.value) }) { fields["created"] = .integer(created.millisecondsSince1970) }
        for (field, name) in [("repeat", "X-TASKS-REPEAT"), ("series", "X-TASKS-SERIES"), ("anchor", "X-TASKS-ANCHOR")] {
            fields[field] = calendar.property(name).map { .text(ICalendar.unescape($0.value)) } ?? .null
        }
        // Another client's rule, where ours is not written: its frequency and interval, and its
        // end — UNTIL's day, or the day of the COUNT-th occurrence from the series' start — so
        // that completing the last occurrence makes no next one.
        let seriesStart = (fields["wait"] ?? fields["due"])?.text.flatMap(TaskDate.init)?.day
        if fields["repeat"] == .null, let line = calendar.property("RRULE"), var rule = RepeatRRule.rule(from: line.value) {
            if rule.until == nil, let count = RepeatRRule.parts(line.value)["COUNT"].flatMap({ Int($0) }), count >= 1, let start = seriesStart {
                rule.until = rule.date(count - 1, after: start)
            }
            fields["repeat"] = .text(rule.description)
        }
        if case .text(let text) = fields["repeat"], calendar.property("X-TASKS-REPEAT") == nil, let rule = RepeatRule(text) {
            let (due, wait) = pendingOccurrence(due: fields["due"]?.text.flatMap(TaskDate.init), wait: fields["wait"]?.text.flatMap(TaskDate.init),
                                                rule: rule, in: whole, zone: zone)
            fields["due"] = due.map { .text($0.description) } ?? .null
            fields["wait"] = wait.map { .text($0.description) } ?? .null
        }
        fields["extras"] = .text(calendar.property("X-TASKS-EXTRAS").map { ICalendar.unescape($0.value) } ?? "")
        let started = calendar.property("X-TASKS-START").flatMap { Int64($0.value.trimmingWhitespace) }
        if status == "IN-PROCESS" || (started != nil && status != "NEEDS-ACTION" && !isDone) {
            let since = started ?? modified(of: whole)?.millisecondsSince1970 ?? 0
            fields["start"] = .integer(since)
        } else {
            fields["start"] = .null
        }
        fields["spent"] = .integer(calendar.property("X-TASKS-SPENT").flatMap { Int64($0.value.trimmingWhitespace) } ?? 0)
        let depends = calendar.properties("RELATED-TO").filter { $0.parameter("RELTYPE")?.uppercased() == "DEPENDS-ON" }.map { $0.value.trimmingWhitespace }
        fields["depends"] = .text(TagsText.encode(TagsText.normalized(depends)))
        let created = calendar.property("CREATED").flatMap { ICalDate.instant($0.value) } ?? Timestamp(millisecondsSince1970: 0)
        let annotations = calendar.properties("COMMENT").map { comment in
            Annotation(entry: comment.parameter("X-TASKS-ENTRY").flatMap { Int64($0) }.map(Timestamp.init(millisecondsSince1970:)) ?? created,
                       text: ICalendar.unescape(comment.value))
        }.filter { !$0.text.isEmpty }
        fields["annotations"] = .text(AnnotationsText.encode(annotations))
        fields["reminders"] = .text(reminders(of: whole))
        // RFC 5545: a RELATED-TO without RELTYPE names the parent.
        fields["parent"] = calendar.properties("RELATED-TO").first { isParentLink($0) }
            .map { $0.value.trimmingWhitespace }.flatMap { $0.isEmpty ? nil : SyncValue.text($0) } ?? .null
        return fields
    }

    /// Whether a RELATED-TO names the item's parent: RELTYPE=PARENT, or none (RFC 5545's default).
    static func isParentLink(_ property: ICalendar.Property) -> Bool {
        property.parameter("RELTYPE").map { $0.uppercased() == "PARENT" } ?? true
    }

    /// The item's UID.
    public static func uid(of calendar: ICalendar) -> String? {
        calendar.property("UID").map { $0.value.trimmingWhitespace }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// When the item was last changed, as its writer says: LAST-MODIFIED, else DTSTAMP.
    public static func modified(of calendar: ICalendar) -> Timestamp? {
        (calendar.property("LAST-MODIFIED") ?? calendar.property("DTSTAMP")).flatMap { ICalDate.instant($0.value) }
    }

    /// A new item for the task `uuid`: the calendar, the VTODO and its UID; its fields come
    /// from `write`.
    public static func newItem(uuid: String, now: Timestamp) -> ICalendar {
        let stamp = ICalDate.utc(now)
        return ICalendar([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tasks//tasks//EN", "BEGIN:VTODO",
            "UID:" + uuid, "DTSTAMP:" + stamp, "END:VTODO", "END:VCALENDAR", "",
        ].joined(separator: "\r\n"))
    }

    /// Sets the properties of the fields in `changed` (a task's synced fields by name, as a
    /// sync sends them), and the item's DTSTAMP and LAST-MODIFIED to `now`. Every other line
    /// is left as it was.
    /// `zone`: the clock a time without a zone of its own is read on, as `fields(of:zone:)` reads it.
    public static func write(_ changed: [String: SyncValue], into calendar: inout ICalendar, now: Timestamp, zone: LocalTime = .fixed(offsetSeconds: 0)) {
        guard calendar.todo != nil else { return }
        let current = fields(of: calendar, zone: zone)
        func text(_ field: String) -> String? { changed[field]?.text }
        func integer(_ field: String) -> Int64? { if case .integer(let value)? = changed[field] { return value } else { return nil } }
        func set(_ name: String, _ line: String?, before: [String] = []) {
            calendar.replace(name, with: line.map { [$0] } ?? [], before: before)
        }
        if changed["title"] != nil { set("SUMMARY", "SUMMARY:" + ICalendar.escape(text("title") ?? "")) }
        if changed["notes"] != nil { set("DESCRIPTION", text("notes").flatMap { $0.isEmpty ? nil : "DESCRIPTION:" + ICalendar.escape($0) }) }
        let whole = calendar
        if changed["due"] != nil { set("DUE", text("due").flatMap(TaskDate.init).map { "DUE" + ICalDate.write($0, in: whole) }) }
        if changed["wait"] != nil {
            set("DTSTART", text("wait").flatMap(TaskDate.init).map { "DTSTART" + ICalDate.write($0, in: whole) }, before: ["DUE"])
            set("X-TASKS-WAIT", nil)
        }
        if changed["due"] != nil || changed["wait"] != nil {
            var wait = (changed["wait"] ?? current["wait"])?.text.flatMap(TaskDate.init)
            // A repeating item's due or start moved here: the series is where it now says, and
            // overrides of the old one's occurrences would name occurrences it no longer has.
            if calendar.property("RRULE") != nil, calendar.todos.contains(where: { calendar.isOverride($0) }) {
                calendar.removeOverrides()
                // The start they moved on is the series' start now.
                if changed["wait"] == nil, let wait {
                    let now = calendar
                    set("DTSTART", "DTSTART" + ICalDate.write(wait, in: now), before: ["DUE"])
                }
            } else if changed["wait"] == nil, calendar.property("RRULE") != nil, let start = wait,
                      let old = current["due"]?.text.flatMap(TaskDate.init), let new = text("due").flatMap(TaskDate.init),
                      case let (days, over) = new.day.daysSince1970.subtractingReportingOverflow(old.day.daysSince1970), !over, let day = start.day.adding(days: days), day != start.day,
                      let moved = TaskDate(day.description + start.description.dropFirst(10)) {
                // A series counts from its DTSTART (RFC 5545): left years before the new due, it
                // would start the series then. It moves as many days as the due, the span kept.
                let now = calendar
                set("DTSTART", "DTSTART" + ICalDate.write(moved, in: now), before: ["DUE"])
                set("X-TASKS-WAIT", nil)
                wait = moved
            }
            agreeOnKind(&calendar, wait: wait, zone: zone)
        }
        for (field, name) in [("scheduled", "X-TASKS-SCHEDULED"), ("until", "X-TASKS-UNTIL")] where changed[field] != nil {
            set(name, text(field).map { name + ":" + $0 })
        }
        if changed["priority"] != nil {
            set("PRIORITY", integer("priority").map { "PRIORITY:" + String(priorityValue(ofRank: $0)) })
        }
        if changed["tags"] != nil {
            let tags = TagsText.decode(text("tags") ?? "")
            set("CATEGORIES", tags.isEmpty ? nil : "CATEGORIES:" + tags.map(ICalendar.escape).joined(separator: ","))
        }
        if changed["position"] != nil { set("X-APPLE-SORT-ORDER", integer("position").map { "X-APPLE-SORT-ORDER:" + String($0) }) }
        if changed["created"] != nil { set("CREATED", integer("created").map { "CREATED:" + ICalDate.utc(Timestamp(millisecondsSince1970: $0)) }) }
        // The rule: ours exactly in X-TASKS-REPEAT, and as an RRULE on a pending occurrence for
        // the other clients; a completed occurrence has none (the next one carries it).
        if changed["repeat"] != nil || changed["done"] != nil {
            let rule = (changed["repeat"] ?? current["repeat"])?.text.flatMap(RepeatRule.init)
            let isDone = (changed["done"] ?? current["done"]) == .integer(1)
            let isOurs = calendar.property("X-TASKS-REPEAT") != nil || changed["repeat"] != nil
            // Another client's line that says the same rule stays as it is (its UNTIL, COUNT
            // and finer BY parts with it).
            let kept = calendar.property("RRULE").map { RepeatRRule.rule(from: $0.value) == rule && rule != nil } ?? false
            if (isOurs || isDone) && !(kept && !isDone) {
                let due = (changed["due"] ?? current["due"])?.text.flatMap(TaskDate.init)
                set("RRULE", isDone ? nil : rule.map { "RRULE:" + RepeatRRule.text(of: $0, dueIsDay: due?.time == nil) }, before: ["DTSTART", "DUE"])
                // Overrides of occurrences belong to a repeating item only (RFC 5545 3.8.4.4).
                if calendar.property("RRULE") == nil {
                    calendar.removeOverrides()
                }
            }
        }
        for (field, name) in [("repeat", "X-TASKS-REPEAT"), ("series", "X-TASKS-SERIES"), ("anchor", "X-TASKS-ANCHOR"), ("extras", "X-TASKS-EXTRAS")]
        where changed[field] != nil {
            set(name, text(field).flatMap { $0.isEmpty ? nil : name + ":" + ICalendar.escape($0) })
        }
        if changed["spent"] != nil { set("X-TASKS-SPENT", integer("spent").flatMap { $0 == 0 ? nil : "X-TASKS-SPENT:" + String($0) }) }
        if changed["depends"] != nil {
            let lines = TagsText.decode(text("depends") ?? "").map { "RELATED-TO;RELTYPE=DEPENDS-ON:" + $0 }
            calendar.replace("RELATED-TO", where: { $0.parameter("RELTYPE")?.uppercased() == "DEPENDS-ON" }, with: lines)
        }
        if changed["annotations"] != nil {
            let lines = AnnotationsText.decode(text("annotations") ?? "").map {
                "COMMENT;X-TASKS-ENTRY=" + String($0.entry.millisecondsSince1970) + ":" + ICalendar.escape($0.text)
            }
            calendar.replace("COMMENT", with: lines)
        }
        if changed["parent"] != nil {
            calendar.replace("RELATED-TO", where: isParentLink, with: text("parent").map { ["RELATED-TO;RELTYPE=PARENT:" + $0] } ?? [])
        }
        if changed["reminders"] != nil {
            writeReminders(TagsText.decode(text("reminders") ?? ""), title: (changed["title"] ?? current["title"])?.text ?? "", into: &calendar)
        }
        if changed["completed"] != nil {
            set("COMPLETED", integer("completed").map { "COMPLETED:" + ICalDate.utc(Timestamp(millisecondsSince1970: $0)) })
        }
        if changed["start"] != nil {
            set("X-TASKS-START", integer("start").map { "X-TASKS-START:" + String($0) })
        } else if case .integer(let since)? = current["start"], calendar.property("X-TASKS-START") == nil {
            // Another client's IN-PROCESS item says no start of its own: it is read from
            // LAST-MODIFIED, which this write moves. The start read so far is kept in the item,
            // so that it does not jump to the moment of this write.
            set("X-TASKS-START", "X-TASKS-START:" + String(since))
        }
        if changed["done"] != nil || changed["start"] != nil {
            let isDone = (changed["done"] ?? current["done"]) == .integer(1)
            let isStarted = (changed["start"] ?? current["start"] ?? .null) != .null
            let status = calendar.property("STATUS")?.value.uppercased()
            if isDone {
                // Another client's CANCELLED stays: it is done here, and says why there.
                if status != "COMPLETED" && status != "CANCELLED" { set("STATUS", "STATUS:COMPLETED") }
                if status != "CANCELLED" { set("PERCENT-COMPLETE", "PERCENT-COMPLETE:100") }
            } else {
                set("STATUS", isStarted ? "STATUS:IN-PROCESS" : "STATUS:NEEDS-ACTION")
                set("COMPLETED", nil)
                if calendar.property("PERCENT-COMPLETE")?.value.trimmingWhitespace == "100" { set("PERCENT-COMPLETE", nil) }
            }
        }
        set("DTSTAMP", "DTSTAMP:" + ICalDate.utc(now))
        set("LAST-MODIFIED", "LAST-MODIFIED:" + ICalDate.utc(now))
    }

    /// DUE and DTSTART of one kind, both dates or both date-times (RFC 5545 3.8.2.3): DTSTART
    /// takes DUE's — its day, or that day's start on DUE's clock — and the exact start, when
    /// that changed it, is kept in `X-TASKS-WAIT`, which reading takes while DTSTART is on its day.
    static func agreeOnKind(_ calendar: inout ICalendar, wait: TaskDate?, zone: LocalTime) {
        guard let due = calendar.property("DUE"), let start = calendar.property("DTSTART"),
              ICalDate.isDay(due) != ICalDate.isDay(start), let startValue = ICalDate.read(start, in: calendar, zone: zone) else { return }
        let day = startValue.day
        let digits = ICalDate.digits(day.year, 4) + ICalDate.digits(day.month, 2) + ICalDate.digits(day.day, 2)
        let line: String
        if ICalDate.isDay(due) {
            line = "DTSTART;VALUE=DATE:" + digits
        } else if let tzid = due.parameter("TZID") {
            line = "DTSTART;TZID=" + tzid + ":" + digits + "T000000"
        } else {
            line = "DTSTART:" + digits + (due.value.trimmingWhitespace.hasSuffix("Z") ? "T000000Z" : "T000000")
        }
        calendar.replace("DTSTART", with: [line])
        calendar.replace("X-TASKS-WAIT", with: ["X-TASKS-WAIT:" + (wait ?? startValue).description])
        // An RRULE's UNTIL takes DTSTART's kind too (RFC 5545 3.3.10): a DATE, or the end of
        // that day in UTC.
        if let rule = calendar.property("RRULE"), let until = RepeatRRule.parts(rule.value)["UNTIL"], (until.utf8.count == 8) != ICalDate.isDay(due) {
            let value = ICalDate.isDay(due) ? String(until.prefix(8)) : String(until.prefix(8)) + "T235959Z"
            let parts = rule.value.split(separator: ";").map { $0.uppercased().hasPrefix("UNTIL=") ? "UNTIL=" + value : String($0) }
            calendar.replace("RRULE", with: ["RRULE:" + parts.joined(separator: ";")])
        }
    }

    /// H, M, L (ranks 0, 1, 2) as RFC 5545 priorities: 1, 5, 9.
    static func priorityValue(ofRank rank: Int64) -> Int {
        switch rank {
        case 0: return 1
        case 1: return 5
        default: return 9
        }
    }

    /// 1–4 high, 5 medium, 6–9 low, 0 (undefined) none.
    static func rank(ofPriority value: Int) -> Int64? {
        switch value {
        case 1...4: return 0
        case 5: return 1
        case 6...9: return 2
        default: return nil
        }
    }
}

extension VTodoMapping {
    /// The occurrence still to do of another client's repeating VTODO. Thunderbird completes
    /// one occurrence with an override — a VTODO of the same UID with `RECURRENCE-ID` (that
    /// occurrence's start, else its due) and `STATUS:COMPLETED` — and leaves the series' own
    /// DUE and DTSTART where it began: the pending occurrence is the rule's first one not
    /// completed so, its due and wait as many steps of the rule on. The overrides stay in the
    /// item byte for byte; a change here writes the master's properties only.
    static func pendingOccurrence(due: TaskDate?, wait: TaskDate?, rule: RepeatRule, in whole: ICalendar, zone: LocalTime) -> (TaskDate?, TaskDate?) {
        guard rule.kind == .every, let start = wait ?? due else { return (due, wait) }
        var completed: Set<CalendarDay> = []
        for range in whole.todos where whole.isOverride(range) {
            var status: String?, recurrence: ICalendar.Property?, hasCompleted = false
            for index in whole.topLevel(of: range) {
                let property = whole.lines[index].property
                switch property.name {
                case "STATUS": status = property.value.trimmingWhitespace.uppercased()
                case "RECURRENCE-ID": recurrence = property
                case "COMPLETED": hasCompleted = true
                default: break
                }
            }
            let isDone = status == "COMPLETED" || status == "CANCELLED" || (status == nil && hasCompleted)
            if isDone, let recurrence, let day = ICalDate.read(recurrence, in: whole, zone: zone)?.day { completed.insert(day) }
        }
        guard !completed.isEmpty else { return (due, wait) }
        // Each completed override moves the pending occurrence at most one step.
        var step = 0
        var day = start.day
        while completed.contains(day), step < completed.count, let next = rule.date(step + 1, after: start.day) {
            step += 1
            day = next
        }
        func moved(_ date: TaskDate?) -> TaskDate? {
            guard let date, step > 0, let day = rule.date(step, after: date.day) else { return date }
            return TaskDate(day.description + date.description.dropFirst(10)) ?? date
        }
        return (moved(due), moved(wait))
    }
}

/// A repeat rule as an RFC 5545 RRULE and back: every N days, weeks, months or years as FREQ
/// and INTERVAL, every weekday as weekly on MO–FR. `after` (counted from the day an occurrence
/// is done) has no RRULE of its own: the schedule stands for it there, X-TASKS-REPEAT says it.
enum RepeatRRule {
    /// The rule as an RRULE value; its end as UNTIL — a DATE beside a due day, else the end of
    /// the day in UTC (RFC 5545: UNTIL takes DTSTART's value type, a DATE-TIME in UTC).
    static func text(of rule: RepeatRule, dueIsDay: Bool = true) -> String {
        let frequency: String
        switch rule.unit {
        case .day: frequency = "DAILY"
        case .week: frequency = "WEEKLY"
        case .month: frequency = "MONTHLY"
        case .year: frequency = "YEARLY"
        case .weekday: frequency = "WEEKLY"
        }
        var text = "FREQ=" + frequency + (rule.unit == .weekday ? ";BYDAY=MO,TU,WE,TH,FR" : rule.count > 1 ? ";INTERVAL=\(rule.count)" : "")
        if let until = rule.until {
            text += ";UNTIL=" + ICalDate.digits(until.year, 4) + ICalDate.digits(until.month, 2) + ICalDate.digits(until.day, 2) + (dueIsDay ? "" : "T235959Z")
        }
        return text
    }

    /// The RRULE's parts, names upper-cased.
    static func parts(_ value: String) -> [String: String] {
        var parts: [String: String] = [:]
        for part in value.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[pair[0].uppercased().trimmingWhitespace] = String(pair[1]).trimmingWhitespace }
        }
        return parts
    }

    /// The day of its UNTIL (a DATE, or a DATE-TIME's day as written).
    static func until(_ value: String) -> CalendarDay? { parts(value)["UNTIL"].flatMap { ICalDate.day($0.prefix(8)) } }

    /// The rule an RRULE comes closest to: its frequency and interval (counts, ends and the
    /// finer BY parts are another client's, left in its line).
    static func rule(from value: String) -> RepeatRule? {
        var parts: [String: String] = [:]
        for part in value.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[pair[0].uppercased().trimmingWhitespace] = pair[1].uppercased().trimmingWhitespace }
        }
        let interval = parts["INTERVAL"].flatMap { Int($0) } ?? 1
        var rule = closest(parts, interval: interval)
        rule?.until = until(value)
        return rule
    }

    private static func closest(_ parts: [String: String], interval: Int) -> RepeatRule? {
        switch parts["FREQ"] {
        case "DAILY": return RepeatRule(kind: .every, count: interval, unit: .day)
        case "WEEKLY":
            if interval == 1, let days = parts["BYDAY"], Set(days.split(separator: ",")) == ["MO", "TU", "WE", "TH", "FR"] {
                return RepeatRule(kind: .every, count: 1, unit: .weekday)
            }
            return RepeatRule(kind: .every, count: interval, unit: .week)
        case "MONTHLY": return RepeatRule(kind: .every, count: interval, unit: .month)
        case "YEARLY": return RepeatRule(kind: .every, count: interval, unit: .year)
        default: return nil
        }
    }
}
