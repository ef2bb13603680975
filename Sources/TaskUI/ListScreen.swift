import ReactorCore
import TaskModel
import TaskReactors
import TerminalKit
import TextFormats

/// What a screen asks of the app, beyond its reactor's actions.
public enum ScreenRequest: Equatable {
    /// Open the editor on this task.
    case edit(Task)
    /// Open an empty editor for a new task in this list.
    case add(list: String)
    case quit
    /// `Ctrl-C`: quit as interrupted (status 130, as a shell reports it).
    case interrupt
}

/// The list screen of the seeds, as a View of `TaskListReactor`: keys become the reactor's
/// Actions, and the reactor's State is drawn (by `ListFrame`). What a table view keeps for
/// itself stays here: the first row shown, the prompt being typed, the help, the last message.
public final class ListScreen: View {
    public var disposeBag = DisposeBag()
    @Reacting public var reactor: TaskListReactor?

    /// A line being typed on the status bar.
    enum Prompt: Equatable {
        /// `/`: search as you type (without filter settings: a phrase).
        case search(TextField)
        /// `/`: the filter grammar, read on every key; the reason the text cannot be read yet.
        case filter(TextField, error: String?)
        /// `m`: the list to move the task to (Tab completes from the lists).
        case moveTo(Task, TextField)
        /// `@`: the context to work in (Tab completes from the contexts; `none`, or nothing: none).
        case context(TextField)
    }

    private let keys: Observable<Key>
    let style: ScreenStyle
    private let today: () -> CalendarDay
    /// The moment, and the zone a due moment is read in.
    public var now: @Sendable () -> Timestamp = SystemClock.now
    public var zone: LocalTime = .system
    /// The screen's size in cells (the app sets it, and again on a resize).
    public var size: (rows: Int, columns: Int)
    /// The first row of the result on screen.
    private(set) var top = 0
    var prompt: Prompt?
    private(set) var showsHelp = false
    var message: StatusMessage?
    /// Where the screen's requests go (the app), and who to tell that it must be drawn again.
    public var onRequest: (ScreenRequest) -> Void = { _ in }
    /// The words for a failure (the command line's, so that both say the same).
    public var describe: (TaskServiceError) -> String = { String(describing: $0) }
    public var onChange: () -> Void = {}
    /// What `/`'s filter words are read with (the clock, zone, custom fields); nil: `/` is
    /// a plain search.
    public var filterSettings: (() -> FilterSettings)?
    /// The query before anything was typed at `/`, and the filter typed there (applied).
    var filterBase: TaskQuery?
    var filterText = ""
    /// The reports `f` cycles and the contexts `@` picks; nil: `f` cycles pending, all, done.
    public var queries: ScreenQueries? { didSet { context = queries?.context } }
    /// The report shown (nil: the command line's own query) and the context it is read in.
    var report: String?
    var context: String?

    public init(keys: Observable<Key>, size: (rows: Int, columns: Int), style: ScreenStyle, today: @escaping () -> CalendarDay) {
        self.keys = keys
        self.size = size
        self.style = style
        self.today = today
    }

    /// Rows the list area holds (all but the status line).
    var listHeight: Int { max(1, size.rows - 1) }

    public func bind(reactor: TaskListReactor) {
        keys.bind { [unowned self] key in handle(key) }.disposed(by: disposeBag)
        reactor.state.bind { [unowned self] _ in onChange() }.disposed(by: disposeBag)
        reactor.pulse(\.$failure).compactMap { $0 }
            .bind { [unowned self] (failure: TaskServiceError) in message = StatusMessage(text: describe(failure), isError: true) }
            .disposed(by: disposeBag)
        reactor.pulse(\.$notice).compactMap { $0 }
            .bind { [unowned self] notice in message = StatusMessage(text: notice, isError: false) }
            .disposed(by: disposeBag)
        reactor.pulse(\.$applied).compactMap { $0 }
            .bind { [unowned self] event in if let text = ListScreen.sentence(for: event) { message = StatusMessage(text: text, isError: false) } }
            .disposed(by: disposeBag)
        reactor.pulse(\.$step).compactMap { $0 }
            .bind { [unowned self] step in message = StatusMessage(text: step.sentence, isError: false) }
            .disposed(by: disposeBag)
    }

    // MARK: - Keys in, Actions out

    func handle(_ key: Key) {
        guard let reactor else { return }
        let state = reactor.currentState
        if showsHelp {
            showsHelp = false
            onChange()
            return
        }
        if state.pendingDelete != nil {
            switch key {
            case .character("y"), .character("Y"): reactor.action.onNext(.confirmDelete)
            case .character("n"), .character("N"), .escape, .control("c"): reactor.action.onNext(.cancelDelete)
            default: break
            }
            return
        }
        if let prompt {
            handle(key, in: prompt, reactor: reactor)
            onChange()
            return
        }
        message = nil
        let cursor = state.cursor
        let page = max(1, listHeight - 1)
        switch key {
        case .character("j"), .down: reactor.action.onNext(.moveCursor(to: cursor + 1))
        case .character("k"), .up: reactor.action.onNext(.moveCursor(to: cursor - 1))
        case .character("g"), .home: reactor.action.onNext(.moveCursor(to: 0))
        case .character("G"), .end: reactor.action.onNext(.moveCursor(to: state.totals.count - 1))
        case .pageDown, .control("f"): reactor.action.onNext(.moveCursor(to: cursor + page))
        case .pageUp, .control("b"): reactor.action.onNext(.moveCursor(to: cursor - page))
        case .character(" "), .character("x"):
            if let task = state.cursorTask { reactor.action.onNext(.toggleTaskDone(task.id)) }
        case .character("a"):
            onRequest(.add(list: state.cursorTask?.list ?? state.query.list ?? Task.defaultList))
        case .character("e"), .enter:
            if let task = state.cursorTask { onRequest(.edit(task)) }
        case .character("d"):
            if let task = state.cursorTask { reactor.action.onNext(.askToDelete(task.id)) }
        case .character("J"), .character("K"):
            if let task = state.cursorTask { reactor.action.onNext(.nudge(task.id, down: key == .character("J"))) }
        case .character("m"):
            if let task = state.cursorTask {
                reactor.action.onNext(.loadLists)
                prompt = .moveTo(task, TextField())
            }
        case .character("/"):
            if filterSettings != nil {
                if filterBase == nil { filterBase = state.query }
                prompt = .filter(TextField(filterText), error: nil)
            } else {
                prompt = .search(TextField(state.query.search ?? ""))
            }
        case .character("f") where queries != nil:
            guard let queries, !queries.reports.isEmpty else { break }
            let index = report.flatMap { queries.reports.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            show(report: queries.reports[index % queries.reports.count], context: context, reactor: reactor)
        case .character("@") where queries != nil:
            prompt = .context(TextField())
        case .character("f"):
            let next: TaskQuery.Status = switch state.query.status {
            case .pending: .all
            case .all: .done
            case .done: .pending
            }
            reactor.action.onNext(.showStatus(next))
        case .character("u"): reactor.action.onNext(.undo)
        case .control("r"): reactor.action.onNext(.redo)
        case .character("r"):
            reactor.action.onNext(.catchUp)
            reactor.action.onNext(.refresh(state.query))
        case .character("?"): showsHelp = true
        case .character("q"): onRequest(.quit)
        case .control("c"): onRequest(.interrupt)
        default: break
        }
        onChange()
    }

    private func handle(_ key: Key, in prompt: Prompt, reactor: TaskListReactor) {
        switch prompt {
        case .search(var field):
            switch key {
            case .escape, .control("c"):
                self.prompt = nil
                reactor.action.onNext(.search(""))
            case .enter:
                self.prompt = nil
            default:
                let before = field.text
                _ = field.handle(key)
                self.prompt = .search(field)
                if field.text != before { reactor.action.onNext(.search(field.text)) }
            }
        case .filter(let field, let error):
            handleFilter(key, field, error: error, reactor: reactor)
        case .context(let field):
            handleContext(key, field, reactor: reactor)
        case .moveTo(let task, var field):
            switch key {
            case .escape, .control("c"):
                self.prompt = nil
            case .enter:
                self.prompt = nil
                let list = field.text.trimmingWhitespace
                if !list.isEmpty { reactor.action.onNext(.moveTask(task.id, to: .list(list))) }
            case .tab:
                let names = (reactor.currentState.lists ?? []).map(\.name)
                if let completion = ListScreen.complete(field.text, among: names) { field = TextField(completion) }
                self.prompt = .moveTo(task, field)
            default:
                _ = field.handle(key)
                self.prompt = .moveTo(task, field)
            }
        }
    }

    /// What a committed change did, in a few words: `Done 3: Buy milk`.
    static func sentence(for event: TaskEvent) -> String? {
        switch event {
        case .create(let task): return "Added \(task.id): \(task.title)"
        case .update(let task): return "Changed \(task.id): \(task.title)"
        case .delete(let task): return "Deleted \(task.id): \(task.title)"
        case .move(let task): return "Moved \(task.id) to \(task.list)"
        case .markAsDone(let task): return "Done \(task.id): \(task.title)"
        case .markAsUndone(let task): return "Reopened \(task.id): \(task.title)"
        case .batch(let events): return events.count == 1 ? events.first.flatMap(sentence) : "\(events.count) changes"
        }
    }

    /// The list name `typed` begins, or the longest start all such names share.
    static func complete(_ typed: String, among names: [String]) -> String? {
        let matches = names.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
        guard var common = matches.first else { return nil }
        for name in matches.dropFirst() {
            while !name.lowercased().hasPrefix(common.lowercased()) { common.removeLast() }
        }
        return common.count >= typed.count ? common : nil
    }

    // MARK: - State out: the rows on screen, then the frame

    /// Keeps the cursor's row on screen, and asks the reactor for the rows the screen shows
    /// when its window does not hold them. Called before each frame.
    public func layout() {
        guard let reactor else { return }
        let state = reactor.currentState
        let height = listHeight
        let count = state.totals.count
        let cursor = state.cursor
        if cursor < top { top = cursor }
        // The cursor's row, with the headers between it and the top, must fit.
        while top < cursor && ListFrame.lines(state, top: top, height: height + 1).prefix(height).allSatisfy({ $0 != .row(cursor) })
            && state.task(at: cursor) != nil {
            top += 1
        }
        if cursor >= top + height { top = cursor - height + 1 }
        top = max(0, min(top, max(0, count - 1)))
        let needed = top..<min(count, top + height)
        let window = state.window
        if !needed.isEmpty && (needed.lowerBound < window.start || needed.upperBound > window.end) {
            reactor.action.onNext(.showRows(needed))
        }
    }

    /// The frame: the list, and the status line (or the prompt, the question, the help).
    public func draw(into screen: inout ScreenBuffer) -> (row: Int, column: Int)? {
        guard let reactor else { return nil }
        let state = reactor.currentState
        let height = listHeight
        if showsHelp {
            for (number, line) in ListScreen.help.prefix(height).enumerated() { screen.write(line, row: number, column: 1) }
        } else {
            ListFrame(state: state, top: top, filterText: filterText, style: style, today: today(), now: TaskDate.reading(now(), in: zone, today: today()), zone: zone).draw(into: &screen, height: height)
        }
        return drawStatus(state, into: &screen)
    }

    private func drawStatus(_ state: TaskListReactor.State, into screen: inout ScreenBuffer) -> (row: Int, column: Int)? {
        let row = size.rows - 1
        screen.fill(row: row, style: style.status)
        if let task = state.pendingDelete {
            screen.write("Delete \"\(task.title)\"? (y/n)", row: row, column: 0, style: style.status)
            return nil
        }
        switch prompt {
        case .search(let field):
            let used = screen.write("/" + field.text, row: row, column: 0, style: style.status)
            return (row, min(used, screen.columns - 1))
        case .filter(let field, let error):
            let used = screen.write("/" + field.text, row: row, column: 0, style: style.status)
            if let error {
                var errorStyle = style.status
                if style.color { errorStyle.foreground = .red }
                screen.write("  " + error, row: row, column: used, style: errorStyle)
            }
            return (row, min(used, screen.columns - 1))
        case .context(let field):
            let used = screen.write("Context (Tab completes, none for none): " + field.text, row: row, column: 0, style: style.status)
            return (row, min(used, screen.columns - 1))
        case .moveTo(let task, let field):
            let label = "Move \(task.id) to list (Tab completes): "
            let used = screen.write(label + field.text, row: row, column: 0, style: style.status)
            return (row, min(used, screen.columns - 1))
        case nil:
            var left = (report.map { $0 == "list" ? "Pending" : $0.prefix(1).uppercased() + $0.dropFirst() } ?? statusName(state.query.status))
                + " · \(Summary.tasks(state.totals.count))"
            if let context { left += " · @\(context)" }
            if let search = state.query.search { left += " · /\(search)" }
            if !filterText.isEmpty { left += " · /\(filterText)" }
            if let list = state.query.list { left += " · \(list)" }
            let used = screen.write(left, row: row, column: 0, style: style.status)
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

    private func statusName(_ status: TaskQuery.Status) -> String {
        switch status {
        case .pending: return "Pending"
        case .done: return "Done"
        case .all: return "All"
        }
    }

    static let help = [
        "j k ↓ ↑   cursor down / up        g G       first / last",
        "PgDn PgUp a page                  space x   toggle done",
        "a         add a task              e Enter   edit the task",
        "d         delete (asks first)     J K       move down / up in its list",
        "m         move to another list    /         filter as you type (Esc clears)",
        "f         the next report         @         choose a context",
        "u Ctrl-R  undo / redo",
        "r         read again              q         quit",
        "",
        "In the editor: Tab / Shift-Tab next / previous field, Ctrl-S save, Esc cancel.",
        "Any key closes this help.",
    ]
}

enum Summary {
    /// `1 task`, `1,234 tasks`.
    static func tasks(_ count: Int) -> String {
        var digits = String(count)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + String(digits.suffix(3)) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + (count == 1 ? " task" : " tasks")
    }
}
