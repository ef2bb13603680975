import TaskModel

/// What typed dates count from in a run: the clock, the local day and zone, and the first day
/// of the week — Monday, or `TASKS_WEEK_START` (`sunday`, `sun`, …) until the configuration
/// file of the query-language issue holds it.
enum DateSettings {
    /// The week's first day, 0 for Monday; a setting that names no weekday is a usage error.
    static func weekStart(_ environment: [String: String]) throws(CLIError) -> Int {
        guard let text = environment["TASKS_WEEK_START"], !text.isEmpty else { return 0 }
        let word = text.lowercased()
        guard word.count >= 3, let day = CalendarDay.weekdayNames.firstIndex(where: { $0.hasPrefix(word) }) else {
            throw CLIError.usage("TASKS_WEEK_START is '\(text)'; name the first day of a week: monday, sunday, …")
        }
        return day
    }

    /// The dates of `invocation`, now.
    static func context(_ invocation: Invocation, weekStart: Int) -> DateContext {
        DateContext(now: invocation.now(), today: invocation.today(), zone: invocation.localTime, weekStart: weekStart)
    }
}
