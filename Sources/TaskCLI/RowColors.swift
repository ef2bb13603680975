import QueryLanguage
import TaskModel
import TextFormats

/// The colour rules' styles for a batch of a table's rows: each row's rules met on the run's
/// clock, and a rule that asks about other tasks (`+BLOCKED`, `+BLOCKING`) asked of the store
/// once per batch (`othersMatching`: the ids among the batch's its filter selects).
struct RowColors {
    let rules: ColorRules
    /// The ids among these that `filter` selects (`SQLiteTaskService.ids(among:matching:)`).
    var othersMatching: ((TaskFilter, [Int64]) -> Set<Int64>)?

    /// Each coloured row's style, by id.
    func styles(_ rows: [Task], today: CalendarDay, now: String) -> [Int64: TerminalStyle] {
        guard !rules.isEmpty, !rows.isEmpty else { return [:] }
        let clock = FilterClock(today: today, reading: now)
        let ids = rows.map(\.id)
        var selected: [Int: Set<Int64>] = [:]
        for (index, rule) in rules.rules.enumerated() where rule.asksOthers {
            selected[index] = othersMatching?(rule.filter, ids) ?? []
        }
        var styles: [Int64: TerminalStyle] = [:]
        for task in rows {
            let style = rules.style(for: task, clock: clock) { selected[$0]?.contains(task.id) ?? false }
            if let style { styles[task.id] = style }
        }
        return styles
    }
}
