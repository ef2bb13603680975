import TaskModel
import TextFormats

/// Tasks and history entries as the MCP tools return them: the uuid first (ids are recycled
/// and short; an agent acts on uuids), the fields set, dates as written here (`2026-12-24`,
/// or a moment with its offset), times in UTC.
enum MCPTaskJSON {
    static func task(_ task: Task, zone: LocalTime, whole: Bool = false) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("uuid", .string(task.uuid)), ("id", .number(task.id)), ("title", .string(task.title)), ("list", .string(task.list)),
            ("status", .string(task.isDeleted ? "deleted" : task.isDone ? "done" : "pending")),
        ]
        func time(_ name: String, _ value: Timestamp?) {
            if let value { members.append((name, .string(TimestampText.iso8601(value)))) }
        }
        // Each date of the field table (due, wait, …), as it is written here.
        for field in TaskFields.all {
            if case .date = field.kind, case .date(let value) = field.value(of: task) { members.append((field.name, .string(value.description))) }
        }
        if let priority = task.priority { members.append(("priority", .string(priority.rawValue))) }
        if !task.tags.isEmpty { members.append(("tags", .array(task.tags.map(JSONValue.string)))) }
        time("start", task.start)
        if let rule = task.repeat { members.append(("repeat", .string(rule.description))) }
        if !task.depends.isEmpty { members.append(("depends", .array(task.depends.map(JSONValue.string)))) }
        if let parent = task.parent { members.append(("parent", .string(parent))) }
        if whole {
            if !task.notes.isEmpty { members.append(("notes", .string(task.notes))) }
            if !task.annotations.isEmpty {
                members.append(("annotations", .array(task.annotations.map {
                    .object([("entry", .string(TimestampText.iso8601($0.entry))), ("text", .string($0.text))])
                })))
            }
            if !task.reminders.isEmpty { members.append(("reminders", .array(task.reminders.map { .string($0.description) }))) }
            time("created", task.created)
            time("modified", task.modified)
            time("completed", task.completed)
            if task.spent > 0 { members.append(("spentSeconds", .number(task.spent))) }
        }
        return .object(members)
    }

    /// One line of a tool's text: `12 Buy milk (due 2026-12-24) 01a24935-…`.
    static func line(_ task: Task) -> String {
        var text = "\(task.id) " + TerminalText.escapingControls(task.title)
        if let due = task.due { text += " (due \(due))" }
        if task.isDone { text += " [done]" }
        return text + " " + task.uuid
    }

    static func entry(_ entry: HistoryEntry) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("entry", .number(entry.id)), ("time", .string(TimestampText.iso8601(entry.time))), ("command", .string(entry.command)),
            ("summary", .string(entry.summary)),
        ]
        if let undoneBy = entry.undoneBy { members.append(("undoneBy", .number(undoneBy))) }
        return .object(members)
    }

    /// A schema for one of these objects (`outputSchema`'s items).
    static let taskSchema: JSONValue = .object([
        ("type", .string("object")),
        ("properties", .object([
            ("uuid", .object([("type", .string("string"))])), ("id", .object([("type", .string("integer"))])),
            ("title", .object([("type", .string("string"))])), ("list", .object([("type", .string("string"))])),
            ("status", .object([("type", .string("string")), ("enum", .array(["pending", "done", "deleted"].map(JSONValue.string)))])),
            ("due", .object([("type", .string("string"))])), ("priority", .object([("type", .string("string"))])),
            ("tags", .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])),
        ])),
        ("required", .array(["uuid", "id", "title", "list", "status"].map(JSONValue.string))),
    ])
}
