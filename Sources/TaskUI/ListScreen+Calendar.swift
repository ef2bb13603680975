import QueryLanguage
import TaskModel
import TaskReactors
import TerminalKit

/// The calendar pane (`c`): a month beside (or under) the list, one day chosen, and the list
/// showing the tasks due that day — the query the screen had, with the day's bounds on the due
/// date. Moving the day (`h` `l` a day, `H` `L` a week, `[` `]` a month, `.` today) moves the
/// list; `c` or `Esc` closes the pane and gives the list its query back.
extension ListScreen {
    /// Opens the pane on today, or closes it.
    func toggleCalendar(reactor: TaskListReactor) {
        if calendarDay != nil {
            closeCalendar(reactor: reactor)
            return
        }
        calendarBase = reactor.currentState.query
        showsDetails = false
        choose(today(), reactor: reactor)
    }

    func closeCalendar(reactor: TaskListReactor) {
        if let calendarBase { reactor.action.onNext(.refresh(calendarBase)) }
        calendarDay = nil
        calendarBase = nil
    }

    /// A key while the pane is open: true when it was the calendar's.
    func handleCalendarKey(_ key: Key, reactor: TaskListReactor) -> Bool {
        guard let day = calendarDay else { return false }
        let moved: CalendarDay?
        switch key {
        case .character("h"), .left: moved = day.adding(days: -1)
        case .character("l"), .right: moved = day.adding(days: 1)
        case .character("H"): moved = day.adding(days: -7)
        case .character("L"): moved = day.adding(days: 7)
        case .character("["): moved = Self.month(day, by: -1)
        case .character("]"): moved = Self.month(day, by: 1)
        case .character("."): moved = today()
        case .character("c"), .escape:
            closeCalendar(reactor: reactor)
            return true
        default: return false
        }
        if let moved { choose(moved, reactor: reactor) }
        return true
    }

    /// The same day of the month `count` months away, or its last day when it has fewer.
    static func month(_ day: CalendarDay, by count: Int) -> CalendarDay? {
        let index = day.year * 12 + day.month - 1 + count
        let year = index / 12, month = index % 12 + 1
        return CalendarDay(year: year, month: month, day: min(day.day, CalendarDay.daysIn(month: month, year: year)))
    }

    /// Chooses `day`: the list shows what is due on it, and the month's counts are read when
    /// the month changes.
    func choose(_ day: CalendarDay, reactor: TaskListReactor) {
        guard let base = calendarBase, let next = day.adding(days: 1) else { return }
        let monthChanged = calendarDay.map { $0.year != day.year || $0.month != day.month } ?? true
        calendarDay = day
        var query = base
        query.dueFrom = TaskDate(day)
        query.dueBefore = TaskDate(next)
        reactor.action.onNext(.refresh(query))
        if monthChanged { loadCalendarCounts() }
    }

    /// The tasks due on each day of the chosen month, among those the screen's query selects.
    func loadCalendarCounts() {
        guard let day = calendarDay, var query = calendarBase, let first = CalendarDay(year: day.year, month: day.month, day: 1),
              let end = Self.month(first, by: 1) else { return }
        query.dueFrom = TaskDate(first)
        query.dueBefore = TaskDate(end)
        query.sort = .due
        query.grouping = .none
        calendar?.action.onNext(.loadDue(query))
    }

    /// The pane's cells, of the pane's size.
    func drawCalendar(into cells: inout ScreenBuffer) {
        guard let day = calendarDay else { return }
        CalendarPane(selected: day, today: today(), due: calendar?.currentState.due, weekStart: weekStart, style: style).draw(into: &cells)
    }
}
