import TextFormats

/// Every field of one task as a person reads it — what `tasks show` prints on a terminal and
/// what `tasks ui`'s details pane shows: `done` says when, notes and annotations keep their
/// lines, a moment is read on the local clock (and as it was given, when that was another
/// zone), `depends` names its blockers by id and `blocks` the tasks waiting on this one.
public struct TaskDetails: Equatable, Sendable {
    /// One field: its name, and its value's lines (none: empty).
    public struct Row: Equatable, Sendable {
        public var name: String
        public var lines: [String]

        public init(_ name: String, _ lines: [String]) {
            self.name = name
            self.lines = lines
        }
    }

    public var task: Task
    /// The tasks `task.depends` names that are here (done or not).
    public var blockers: [Task]
    /// The pending tasks that depend on `task`.
    public var blocking: [Task]

    public init(task: Task, blockers: [Task] = [], blocking: [Task] = []) {
        self.task = task
        self.blockers = blockers
        self.blocking = blocking
    }

    /// Every field, named as in JSON, as scripts read them (`done` is `true` or `false`): the
    /// id, the fields `TaskFields` shows — those a person reads first, then the rest, then the
    /// bookkeeping — and the uuid.
    public static func fields(of task: Task) -> [(name: String, value: String)] {
        var fields = [("id", String(task.id))]
        for section in [TaskFieldSpec.Shown.head, .body, .tail] {
            for field in TaskFields.all where field.shown == section { fields.append((field.name, field.value(of: task).plainText)) }
        }
        fields.append(("uuid", task.uuid))
        return fields
    }

    /// The rows a person reads, the declared custom fields before the notes.
    public func rows(zone: LocalTime, now: Timestamp, customFields: [CustomField] = []) -> [Row] {
        let task = self.task
        let done = task.isDone ? "yes, " + (task.completed.map(TimestampText.iso8601) ?? "") : "no"
        func lines(_ text: String) -> [String] { text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        var rows = Self.fields(of: task).compactMap { field -> Row? in
            switch field.name {
            case "done": return Row("done", [done])
            case "completed": return nil
            case "notes": return Row("notes", lines(field.value))
            case "start": return Row("start", task.start.map { [TaskDate($0, in: zone).shown(in: zone) + " (active)"] } ?? [])
            case "spent": return Row("spent", task.timeSpent(at: now) == 0 ? [] : [Self.duration(task.timeSpent(at: now))])
            case "depends":
                guard !task.depends.isEmpty else { return Row("depends", []) }
                let pending = blockers.filter { !$0.isDone }
                var words = blockers.map { String($0.id) + ($0.isDone ? " (done)" : "") }
                let gone = task.depends.count - blockers.count
                if gone > 0 { words.append("\(gone) not here") }
                return Row("depends", [words.joined(separator: ", ") + (pending.isEmpty ? "" : " — blocked")])
            case "annotations":
                var result: [String] = []
                for (index, annotation) in task.annotations.enumerated() {
                    let text = lines(annotation.text)
                    let head = "\(index + 1). " + TaskDate(annotation.entry, in: zone).shown(in: zone) + "  "
                    result.append(head + (text.first ?? ""))
                    result += text.dropFirst().map { "   " + $0 }
                }
                return Row("annotations", result)
            default:
                guard let date = TaskField(rawValue: field.name).flatMap({ task.value(of: $0).date }), let time = date.time else {
                    return Row(field.name, lines(field.value))
                }
                let local = date.shown(in: zone)
                return Row(field.name, [TaskDate(time, in: zone) == date ? local : local + " (given as \(date))"])
            }
        }
        if !blocking.isEmpty, let index = rows.firstIndex(where: { $0.name == "depends" }) {
            rows.insert(Row("blocks", [blocking.map { String($0.id) }.joined(separator: ", ")]), at: index + 1)
        }
        if let index = rows.firstIndex(where: { $0.name == "notes" }) {
            let customs = customFields.map { field in
                Row(field.name, ExtrasText.value(field.name, in: task.extras).map { [field.shown($0, zone: zone)] } ?? [])
            }
            rows.insert(contentsOf: customs, at: index)
        }
        return rows
    }

    /// `45s`, `12m`, `1h 05m`: time spent, as `tasks active` and `show` say it.
    public static func duration(_ seconds: Int64) -> String {
        if seconds < 60 { return "\(max(0, seconds))s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes)m" }
        let rest = minutes % 60
        return "\(minutes / 60)h " + (rest < 10 ? "0" : "") + "\(rest)m"
    }
}
