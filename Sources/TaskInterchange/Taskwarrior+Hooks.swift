import TaskModel

/// A task as Taskwarrior's hooks see it: one line of its JSON (as its export writes a task,
/// without `id` and `urgency`, as Taskwarrior hands them to `on-add` and `on-modify`), and a
/// line a hook gives back, read as `task import` reads a record.
extension Taskwarrior {
    public static func hookLine(_ task: Task, zone: LocalTime) -> String {
        var bytes: [UInt8] = []
        var notKept = NotKept()
        append(task, localTime: CachedLocalTime(zone), to: &bytes, notKept: &notKept)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The task `line` says, with its uuid and entry (`created`); nil when it is not exactly
    /// one task Taskwarrior's import would take. Its other times, id and position are not read.
    public static func hookTask(_ line: String, zone: LocalTime, customFields: Set<String>) throws -> Task? {
        let file = try read(Array(line.utf8), localTime: zone, customFields: customFields)
        guard file.batch.records.count == 1 else { return nil }
        let record = file.batch.records[0]
        var task = record.fields
        task.uuid = record.uuid ?? ""
        task.created = record.created ?? task.created
        return task
    }
}
