import QueryLanguage
import TaskModel
import TaskReactors
import TerminalKit
import TextFormats

/// The list screen drawn from its reactor's State and the view's own state (the first row
/// shown, the prompt): pure, so that a test gives State and reads cells. Only the rows on the
/// screen are laid out; the id column's width comes from the largest id of the whole result,
/// so that it does not shift while scrolling.
struct ListFrame {
    /// A line of the list area: a section's header, or a row of the result.
    enum Line: Equatable {
        case header(String, count: Int)
        case row(Int)
    }

    let state: TaskListReactor.State
    let top: Int
    /// What was typed at `/` (the filter bar), for the empty list's words.
    var filterText = ""
    let style: ScreenStyle
    let today: CalendarDay?
    /// The local clock's reading, for a due moment's overdue mark.
    var now: String? = nil
    /// Where a due moment is read.
    var zone: LocalTime = .system

    /// The lines from row `top` on, `height` at most: the first row's section header first
    /// (it stays in sight), then a header wherever the section changes. Rows the window does
    /// not hold end the lines.
    static func lines(_ state: TaskListReactor.State, top: Int, height: Int) -> [Line] {
        var lines: [Line] = []
        var section: String?
        var index = top
        while lines.count < height, let task = state.task(at: index) {
            let header = state.query.header(for: task)
            if header != section {
                let count = state.totals.sections.first { $0.header == header }?.count ?? 0
                lines.append(.header(header, count: count))
                section = header
                if lines.count == height { break }
            }
            lines.append(.row(index))
            index += 1
        }
        return lines
    }

    /// The lines rows `first...last` take on screen: the rows, the header the first one shows,
    /// and one more for each section that starts after it. Read from the totals, so that it
    /// holds for rows the window has not read yet (`G` at the end of a long result).
    static func lineCount(_ totals: TaskQueryTotals, from first: Int, through last: Int) -> Int {
        guard last >= first else { return 0 }
        var headers = 1
        var start = 0
        for section in totals.sections {
            if start > first && start <= last { headers += 1 }
            start += section.count
            if start > last { break }
        }
        return last - first + 1 + headers
    }

    /// The first row to show so that row `cursor` is on screen with the headers above it, moving
    /// `top` as little as it must; and no blank lines at the bottom while rows above are hidden
    /// (a window grown taller shows more of the top).
    static func top(keeping cursor: Int, from top: Int, height: Int, totals: TaskQueryTotals) -> Int {
        let count = totals.count
        guard count > 0, height > 0 else { return 0 }
        let cursor = max(0, min(cursor, count - 1))
        // Rows alone above the cursor cannot exceed the height: start no higher than that.
        var top = max(0, min(max(top, cursor - height + 1), cursor))
        while top < cursor && lineCount(totals, from: top, through: cursor) > height { top += 1 }
        while top > 0 && lineCount(totals, from: top - 1, through: count - 1) <= height { top -= 1 }
        return top
    }

    /// The list area's lines into `screen`, rows `0..<height`.
    func draw(into screen: inout ScreenBuffer, height: Int) {
        let columns = screen.columns
        if state.totals.count == 0 {
            let typed = filterText.isEmpty ? state.query.search : filterText
            let text = state.isLoading ? "Loading…" : typed.map { "No tasks match '\($0)'." } ?? "No tasks."
            screen.write(text, row: 0, column: 2)
            return
        }
        let lines = Self.lines(state, top: top, height: height)
        let shown = Self.indented(state, top: top, through: lines.count + top)
        let rows = lines.compactMap { line -> Task? in
            if case .row(let index) = line { return shown[index] }
            return nil
        }
        let layout = RowLayout(rows: rows, totals: state.totals, columns: columns)
        for (number, line) in lines.enumerated() {
            switch line {
            case .header(let header, let count):
                // Before the count (a screen just opened on a long list): the header alone.
                let counted = state.isCounted ? "\(count)" : "…"
                screen.write("\(header.isEmpty ? "Tasks" : header) (\(counted))", row: number, column: 0, style: style.header)
            case .row(let index):
                guard let task = shown[index] else { continue }
                draw(task, layout: layout, row: number, into: &screen)
                if state.marks.contains(task.id) {
                    // A marked row: '>' in the first column, and the row in the marks' style
                    // (colour, or underlined without it), so that a mark shows at a glance.
                    screen.write(">", row: number, column: 0, style: style.marked)
                    screen.restyle(row: number) { cell in
                        if style.color { cell.foreground = .yellow; cell.bold = true } else { cell.underline = true }
                    }
                }
                if index == state.cursor { screen.restyle(row: number) { $0.reverse = true } }
            }
        }
    }

    /// The rows from `top` through `last` as drawn: a subtask listed under its parent (or under
    /// its parent's other subtasks) indented a step further, as `tasks list` does. The rows
    /// above `top` held in memory (up to 64) count, so a screen scrolled into a family keeps
    /// its steps.
    static func indented(_ state: TaskListReactor.State, top: Int, through last: Int) -> [Int: Task] {
        var shown: [Int: Task] = [:]
        var ancestry: [String] = []
        for index in stride(from: max(state.window.start, top - 64), through: last, by: 1) {
            guard var task = state.task(at: index) else { ancestry = []; continue }
            while let above = ancestry.last, above != task.parent { ancestry.removeLast() }
            let depth = task.parent == nil ? 0 : ancestry.count
            ancestry.append(task.uuid)
            guard index >= top else { continue }
            if depth > 0 { task.title = String(repeating: "  ", count: min(depth, 8)) + task.title }
            shown[index] = task
        }
        return shown
    }

    private func draw(_ task: Task, layout: RowLayout, row: Int, into screen: inout ScreenBuffer) {
        let ruled = today.flatMap { style.ruled(task, clock: FilterClock(today: $0, reading: now ?? $0.description)) }
        let base = ruled ?? (task.isDone ? style.done : CellStyle.plain)
        // A coloured row is coloured across the screen, as Taskwarrior's are.
        if let ruled, ruled.background != nil || ruled.reverse { screen.fill(row: row, style: ruled) }
        // A started task: '*' before its id, as Taskwarrior's active column shows it.
        if task.start != nil && !task.isDone { screen.write("*", row: row, column: 1, style: style.started) }
        var column = 2 + layout.idWidth - String(task.id).count
        column += screen.write(String(task.id), row: row, column: column, style: base)
        column += screen.write(task.isDeleted ? "  [-]  " : task.isDone ? "  [x]  " : task.repeat != nil ? "  [↻]  " : "  [ ]  ", row: row, column: column, style: base)
        screen.write(task.title, row: row, column: column, width: layout.titleWidth, style: base)
        column += layout.titleWidth
        if layout.hasDue {
            if let due = task.due {
                let overdue = ruled == nil && (today.map { task.isOverdue(on: $0, at: now ?? $0.description) } ?? false)
                screen.write(due.isDay ? due.description : due.shown(in: zone), row: row, column: column + 2, style: overdue ? style.overdue : base)
            }
            column += 2 + layout.dueWidth
        }
        if layout.hasPriority {
            if let priority = task.priority { screen.write(priority.rawValue, row: row, column: column + 2, style: base) }
            column += 3
        }
        if layout.tagsWidth > 0 && !task.tags.isEmpty {
            screen.write(task.tags.map { "+" + $0 }.joined(separator: " "), row: row, column: column + 2, width: layout.tagsWidth, style: base)
        }
    }
}

/// The columns of the rows on screen: as `tasks list` lays out a table on a terminal — the
/// tags cut, then dropped, to leave the title room — from the visible rows only.
struct RowLayout {
    let idWidth: Int
    let hasDue: Bool
    /// 10 for days, 16 when a due date shown is a moment.
    let dueWidth: Int
    let hasPriority: Bool
    let titleWidth: Int
    let tagsWidth: Int

    init(rows: [Task], totals: TaskQueryTotals, columns: Int) {
        let idCells = max(2, String(max(totals.largestID, rows.map(\.id).max() ?? 0)).count)
        idWidth = idCells
        let titles = rows.map { TerminalText.displayWidth(TerminalText.escapingControls($0.title)) }.max() ?? 0
        let tags = rows.map { TerminalText.displayWidth(TerminalText.escapingControls($0.tags.map { "+" + $0 }.joined(separator: " "))) }.max() ?? 0
        // In a narrow window the title keeps at least 8 cells: priority, then due, give way.
        var due = rows.contains { $0.due != nil }
        let dueWidth = rows.contains { $0.due?.isDay == false } ? 16 : 10
        self.dueWidth = dueWidth
        var priority = rows.contains { $0.priority != nil }
        func room(_ due: Bool, _ priority: Bool) -> Int { max(0, columns - (2 + idCells + 7 + (due ? 2 + dueWidth : 0) + (priority ? 3 : 0))) }
        if room(due, priority) < 8 { priority = false }
        if room(due, priority) < 8 { due = false }
        let available = room(due, priority)
        var tagsWidth = tags
        if tags > 0 && titles + 2 + tags > available {
            // The titles have their room first; the tags take what they leave, or none.
            tagsWidth = min(tags, max(0, available - 2 - titles))
            if tagsWidth < 6 { tagsWidth = 0 }
        }
        hasDue = due
        hasPriority = priority
        self.tagsWidth = tagsWidth
        titleWidth = max(1, min(titles, available - (tagsWidth > 0 ? 2 + tagsWidth : 0)))
    }
}
