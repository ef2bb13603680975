import QueryLanguage
import TaskModel

/// What every view of a run is given: where it writes and how the run ends.
struct ViewContext {
    let console: Console
    let status: ExitStatus
    /// Today, for the table's overdue mark; asked only when a table is written.
    let today: () -> CalendarDay
    /// The moment and the zone, for a moment's overdue mark and its local reading.
    var now: @Sendable () -> Timestamp = SystemClock.now
    var zone: LocalTime = .system
    /// The ids among some that a filter selects, for a colour rule that asks about other
    /// tasks (`RowColors.othersMatching`; the store's `ids(among:matching:)`).
    var othersMatching: ((TaskFilter, [Int64]) -> Set<Int64>)?

    /// Tasks on standard output, as records or sentences.
    var printer: TaskPrinter { TaskPrinter(console: console, today: today, now: now, zone: zone, othersMatching: othersMatching) }
}
