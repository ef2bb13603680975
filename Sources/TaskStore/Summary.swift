import TaskModel

/// The words a history entry says what it did in: `done 3 "Buy milk"`, `done 2 tasks`.
enum Summary {
    /// `verb` and the one task's id and title, or the number of tasks.
    static func of(_ verb: String, _ tasks: [Task]) -> String {
        if tasks.count == 1, let task = tasks.first { return "\(verb) \(task.id) \"\(task.title)\"" }
        return "\(verb) \(count(tasks.count, "task"))"
    }

    /// `10,000 tasks`, `1 task`.
    static func count(_ count: Int, _ noun: String) -> String {
        var digits = String(count)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + String(digits.suffix(3)) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + " " + noun + (count == 1 ? "" : "s")
    }
}
