import QueryLanguage
import TaskModel
import TaskReactors
import TerminalKit
import TextFormats

/// The list screen's frame: the rows on screen, the details pane beside them (a wide window)
/// or below them (a narrow one), and the status line — or the prompt, the question, the help.
extension ListScreen {
    /// Where the list and the details pane go: sizes in cells, the pane's top left corner.
    struct PaneLayout: Equatable {
        var list: (rows: Int, columns: Int)
        /// The pane's place and size; nil when it is closed.
        var pane: (row: Int, column: Int, rows: Int, columns: Int)?

        static func == (a: PaneLayout, b: PaneLayout) -> Bool {
            a.list == b.list && a.pane.map { [$0.row, $0.column, $0.rows, $0.columns] } == b.pane.map { [$0.row, $0.column, $0.rows, $0.columns] }
        }
    }

    /// From 100 columns the pane goes beside the list (two fifths of the width, 40 cells at
    /// least); below that, under it (half the rows).
    static let sideBySideColumns = 100

    var paneLayout: PaneLayout {
        let rows = max(1, size.rows - 1), columns = size.columns
        guard showsDetails || calendarDay != nil else { return PaneLayout(list: (rows, columns), pane: nil) }
        if columns >= Self.sideBySideColumns {
            let width = max(40, columns * 2 / 5)
            return PaneLayout(list: (rows, columns - width - 1), pane: (0, columns - width, rows, width))
        }
        let paneRows = rows / 2
        guard paneRows >= 2 else { return PaneLayout(list: (rows, columns), pane: nil) }
        let listRows = max(1, rows - paneRows - 1)
        return PaneLayout(list: (listRows, columns), pane: (listRows + 1, 0, rows - listRows - 1, columns))
    }

    // MARK: - State out: the rows on screen, then the frame

    /// Keeps the cursor's row on screen, and asks the reactor for the rows the screen shows
    /// when its window does not hold them; the details pane follows the cursor. Called before
    /// each frame.
    public func layout() {
        guard let reactor else { return }
        let state = reactor.currentState
        let height = listHeight
        let count = state.totals.count
        let cursor = state.cursor
        top = ListFrame.top(keeping: cursor, from: top, height: height, totals: state.totals)
        let needed = top..<min(count, top + height)
        let window = state.window
        if !needed.isEmpty && (needed.lowerBound < window.start || needed.upperBound > window.end) {
            reactor.action.onNext(.showRows(needed))
        }
        if showsDetails, let details { details.action.onNext(.show(reactor.currentState.cursorTask?.id)) }
    }

    /// The frame: the list and the pane, and the status line (or the prompt, the question, the help).
    public func draw(into screen: inout ScreenBuffer) -> (row: Int, column: Int)? {
        guard let reactor else { return nil }
        let state = reactor.currentState
        if showsHelp {
            // The help scrolls (j k, arrows, space, PgDn PgUp) when the window is too short.
            let lines = ListScreen.helpLines(columns: screen.columns)
            let rows = max(1, size.rows - 1)
            helpTop = max(0, min(helpTop, lines.count - rows))
            for (number, line) in lines.dropFirst(helpTop).prefix(rows).enumerated() {
                screen.write(line, row: number, column: 1)
            }
            if lines.count > rows {
                let row = size.rows - 1
                screen.fill(row: row, style: style.status)
                let last = min(lines.count, helpTop + rows)
                screen.write("Keys \(helpTop + 1)–\(last) of \(lines.count) · j k space scroll · q closes", row: row, column: 0, style: style.status)
                return nil
            }
            return drawStatus(state, into: &screen)
        }
        let layout = paneLayout
        let frame = ListFrame(state: state, top: top, filterText: filterText, style: style, today: today(),
                              now: TaskDate.reading(now(), in: zone, today: today()), zone: zone)
        if let pane = layout.pane {
            var list = ScreenBuffer(rows: layout.list.rows, columns: layout.list.columns)
            frame.draw(into: &list, height: layout.list.rows)
            screen.paste(list, row: 0, column: 0)
            var cells = ScreenBuffer(rows: pane.rows, columns: pane.columns)
            if calendarDay != nil {
                drawCalendar(into: &cells)
            } else {
                let paneState = details?.currentState ?? TaskDetailsReactor.State()
                if paneState.id != detailsTask { detailsTask = paneState.id; detailsTop = 0 }
                detailsTop = DetailsPane(state: paneState, style: style, zone: zone, now: now()).draw(into: &cells, top: detailsTop)
            }
            screen.paste(cells, row: pane.row, column: pane.column)
            let rule = style.color ? CellStyle(dim: true) : CellStyle.plain
            if pane.column > 0 {
                for row in 0..<pane.rows { screen.write("│", row: row, column: pane.column - 1, style: rule) }
            } else {
                screen.write(String(repeating: "─", count: screen.columns), row: pane.row - 1, column: 0, style: rule)
            }
        } else {
            frame.draw(into: &screen, height: layout.list.rows)
        }
        return drawStatus(state, into: &screen)
    }

    private func drawStatus(_ state: TaskListReactor.State, into screen: inout ScreenBuffer) -> (row: Int, column: Int)? {
        let row = size.rows - 1
        screen.fill(row: row, style: style.status)
        if let entry = state.undoQuestion {
            // Made elsewhere: what it was and by what command, before it is reverted.
            let subject = "#\(entry.id) \(entry.summary), made elsewhere by '\(entry.command)'"
            screen.write(Self.question("Undo ", subject, "? (y/n)", columns: screen.columns), row: row, column: 0, style: style.status)
            return nil
        }
        if let task = state.pendingDelete {
            screen.write(Self.question("Delete \"", task.title, "\"? (y/n)", columns: screen.columns), row: row, column: 0, style: style.status)
            return nil
        }
        func line(_ label: String, _ field: TextField, after: String? = nil, error: Bool = false) -> (row: Int, column: Int) {
            let used = screen.write(label + field.text, row: row, column: 0, style: style.status)
            if let after {
                var afterStyle = style.status
                if error && style.color { afterStyle.foreground = .red }
                screen.write("  " + after, row: row, column: used, style: afterStyle)
            }
            return (row, min(used, screen.columns - 1))
        }
        func count(_ ids: [Int64]) -> String { ids.count == 1 ? String(ids[0]) : Summary.tasks(ids.count) }
        switch prompt {
        case .search(let field): return line("/", field)
        case .filter(let field, let error): return line("/", field, after: error, error: true)
        case .context(let field): return line(contextPrompt(columns: screen.columns), field)
        case .moveTo(let ids, let field): return line("Move \(count(ids)) to list (Tab completes): ", field)
        case .date(let field, let ids, let text, let preview):
            switch preview {
            case .success(let shown): return line("\(field == .due ? "Due" : "Wait") of \(count(ids)): ", text, after: "→ " + shown)
            case .failure(let error): return line("\(field == .due ? "Due" : "Wait") of \(count(ids)): ", text, after: error.text, error: true)
            case nil: return line("\(field == .due ? "Due" : "Wait") of \(count(ids)) (fri, eow, 2026-12-24, empty for none): ", text)
            }
        case .tags(let ids, let field): return line("Tags of \(count(ids)) (+a -b): ", field)
        case .annotate(let ids, let field): return line("Annotate \(count(ids)): ", field)
        case .jump(let field): return line(":", field)
        case .priority(let ids):
            screen.write("Priority of \(count(ids)): H, M, L, space for none", row: row, column: 0, style: style.status)
            return nil
        case .confirmDelete(let ids):
            // The first tasks by id and title, so that a person sees what the marks hold.
            let titles = Dictionary(state.window.rows.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            let named = ids.prefix(3).map { id in titles[id].map { "\(id) \($0)" } ?? String(id) }.joined(separator: ", ")
            let subject = ids.count == 1 ? named : named + (ids.count > 3 ? ", …" : "")
            screen.write(Self.question("Delete \(Summary.tasks(ids.count)) (", subject, ")? (y/n)", columns: screen.columns),
                         row: row, column: 0, style: style.status)
            return nil
        case nil:
            var text = statusText(state)
            if let message, TerminalText.displayWidth(text) + 2 + TerminalText.displayWidth(message.text) > screen.columns {
                // The news comes first: what is shown and how is cut to its name and count.
                text = statusHead(state)
            }
            let used = screen.write(text, row: row, column: 0, style: style.status)
            if let message {
                var messageStyle = style.status
                if message.isError && style.color { messageStyle.foreground = .red }
                screen.write("  " + message.text, row: row, column: used, style: messageStyle)
            } else if used + 12 < screen.columns {
                screen.write("? for keys", row: row, column: screen.columns - 10, style: style.status)
            }
            return nil
        }
    }

    /// A question on the status line: `subject` (a title, the tasks it names) cut with `…` so
    /// that the head and the keys (`? (y/n)`) always show whole.
    static func question(_ head: String, _ subject: String, _ tail: String, columns: Int) -> String {
        let room = columns - TerminalText.displayWidth(head) - TerminalText.displayWidth(tail)
        return head + TerminalText.truncated(TerminalText.escapingControls(subject), toWidth: max(1, room)) + tail
    }

    /// `Next · 12 tasks`: the report and the count, all a message leaves room for.
    func statusHead(_ state: TaskListReactor.State) -> String {
        (report.map { $0 == "list" ? "Pending" : $0.prefix(1).uppercased() + $0.dropFirst() } ?? statusName(state.query))
            + " · " + (state.isCounted ? Summary.tasks(state.totals.count) : "counting…")
    }

    /// `Next · 12 tasks · @work · /+bills · by due · 3 marked`: what is shown and how.
    func statusText(_ state: TaskListReactor.State) -> String {
        var left = statusHead(state)
        if let context { left += " · @\(context)" }
        if let words = queries?.commandLine, !words.isEmpty { left += " · " + words }
        if let search = state.query.search { left += " · /\(search)" }
        if !filterText.isEmpty { left += " · /\(filterText)" }
        if let calendarDay { left += " · due \(calendarDay)" }
        left += " · by " + ListScreen.name(of: state.query.sort)
        if !state.marks.isEmpty { left += " · \(state.marks.count) marked" }
        if let syncNote { left += " · " + syncNote }
        return left
    }

    /// What the query shows, as the reports are named: `Waiting` for `--waiting`, `Active` for
    /// `--active`, else by status.
    private func statusName(_ query: TaskQuery) -> String {
        if query.waiting == .only { return "Waiting" }
        if query.active { return "Active" }
        switch query.status {
        case .pending: return "Pending"
        case .done: return "Done"
        case .all: return "All"
        }
    }

    // MARK: - The sort

    /// The orders `s` goes through, after the query's own.
    static let sorts: [TaskQuery.Sort] = [.manual, .due, .priority, .created, .id]

    /// `s`: the next order, the same rows read again in it.
    func cycleSort(_ state: TaskListReactor.State, reactor: TaskListReactor) {
        let current = state.query.sort
        let next = ListScreen.sorts.firstIndex(of: current).map { ListScreen.sorts[($0 + 1) % ListScreen.sorts.count] } ?? ListScreen.sorts[0]
        sortChoice = next
        filterBase?.sort = next
        var query = state.query
        query.sort = next
        reactor.action.onNext(.refresh(query))
    }

    static func name(of sort: TaskQuery.Sort) -> String {
        switch sort {
        case .manual: return "list order"
        case .due: return "due"
        case .priority: return "priority"
        case .created: return "age"
        case .id: return "id"
        case .started: return "start"
        case .rank: return "next score"
        case .keys(let keys): return keys.map(\.description).joined(separator: ",")
        }
    }

    /// A key as the status line names it: `'Z'`, `Ctrl-T`, `F1`.
    static func name(of key: Key) -> String {
        switch key {
        case .character(let character): return "'\(TerminalText.escapingControls(String(character)))'"
        case .control(let letter): return "Ctrl-" + letter.uppercased()
        case .alt(let character): return "Alt-" + TerminalText.escapingControls(String(character))
        case .paste: return "paste"
        default: return String(describing: key)
        }
    }

    // MARK: - The help

    /// Every key of the list screen, with what it does (`?` shows them).
    static let keys: [(key: String, does: String)] = [
        ("j k ↓ ↑", "cursor down / up"), ("g G", "first / last"), ("PgDn PgUp", "a page down / up"),
        (":42", "to task 42"), ("i Enter", "details pane"), ("e", "edit in the form"),
        ("a", "add a task"), ("space x", "done / not done"), ("d U", "delete (asks) / undelete"),
        ("p", "priority: H M L space"), ("D", "due date"), ("w", "wait until"),
        ("t", "tags: +a -b"), ("A", "annotate"), ("b", "start / stop"),
        ("m", "move to a list"), ("J K", "down / up in its list"), ("v", "mark (and move on)"),
        ("V", "mark up to the last mark"), ("*", "mark all / none"), ("Esc", "clear the marks"),
        ("c", "calendar: due on a day"), ("/", "filter: +tag list:Work …"), ("f", "the next report"), ("@", "choose a context"),
        ("s", "the next sort"), ("u Ctrl-R", "undo / redo"), ("r", "read again"),
        ("Ctrl-D", "details pane: a page down"), ("Ctrl-U", "details pane: a page up"), ("Ctrl-L", "redraw the screen"),
        ("Ctrl-Z", "suspend (fg resumes)"), ("?", "these keys"), ("q", "quit"),
    ]

    /// The help in as many columns of keys as the width holds, then the editor's keys.
    static func helpLines(columns: Int) -> [String] {
        let cell = keys.map { TerminalText.padded($0.key, toWidth: 10) + " " + $0.does }
        let width = (cell.map(TerminalText.displayWidth).max() ?? 0) + 3
        let perLine = max(1, min(3, (columns - 2) / max(1, width)))
        var lines: [String] = []
        var index = 0
        while index < cell.count {
            let row = cell[index..<min(cell.count, index + perLine)]
            lines.append(row.enumerated().map { $0.offset == row.count - 1 ? $0.element : TerminalText.padded($0.element, toWidth: width) }.joined())
            index += perLine
        }
        lines.append("With marks (v V *), a change key acts on all of them; one u undoes it.")
        lines.append("Calendar (c): h l a day, H L a week, [ ] a month, . today; c or Esc closes.")
        lines.append("In the editor: Tab / Shift-Tab next / previous field, Ctrl-S save, Esc cancel;")
        lines.append("the notes scroll with the caret; a paste keeps its lines there.")
        lines.append("j k space scroll this help; any other key closes it.")
        return lines
    }
}
