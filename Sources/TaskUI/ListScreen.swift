import QueryLanguage
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
        /// `m`: the list to move the tasks to (Tab completes from the lists).
        case moveTo([Int64], TextField)
        /// `@`: the context to work in (Tab completes from the contexts; `none`, or nothing: none).
        case context(TextField)
        /// `p`: one key, H, M, L or space, sets the tasks' priority.
        case priority([Int64])
        /// `D`, `w`: a date in the date grammar, with what it resolves to (or why it cannot).
        case date(TaskField, [Int64], TextField, preview: Result<String, PromptError>?)
        /// `t`: `+a -b` (a bare word adds).
        case tags([Int64], TextField)
        /// `A`: a line added to the tasks' annotations.
        case annotate([Int64], TextField)
        /// `:`: the id to put the cursor on.
        case jump(TextField)
        /// `d` with marks: delete them all? (y/n)
        case confirmDelete([Int64])
    }

    private let keys: Observable<Key>
    let style: ScreenStyle
    let today: () -> CalendarDay
    /// The moment, and the zone a due moment is read in.
    public var now: @Sendable () -> Timestamp = SystemClock.now
    public var zone: LocalTime = .system
    /// The screen's size in cells (the app sets it, and again on a resize).
    public var size: (rows: Int, columns: Int)
    /// The first row of the result on screen.
    var top = 0
    var prompt: Prompt?
    private(set) var showsHelp = false
    /// The first line of the help in sight.
    var helpTop = 0
    /// The first line of the details pane in sight, and the task it is for (a new task starts
    /// at its top).
    var detailsTop = 0
    var detailsTask: Int64?
    /// Whether the details pane is open (`i`, `Enter`), and the reactor it is drawn from.
    var showsDetails = false
    /// The calendar pane's chosen day (nil: closed), the query the list had when it opened,
    /// the reactor its month's counts come from, and the week's first day (0 Monday).
    var calendarDay: CalendarDay?
    var calendarBase: TaskQuery?
    public var calendar: TaskPicturesReactor? {
        didSet { calendar?.state.bind { [unowned self] _ in onChange() }.disposed(by: disposeBag) }
    }
    public var weekStart = 0
    public var details: TaskDetailsReactor? {
        didSet { details?.state.bind { [unowned self] _ in onChange() }.disposed(by: disposeBag) }
    }
    /// What dates typed at `D` and `w` count from (the clock, zone and week start).
    public var dateContext: (() -> DateContext)?
    /// The sort `s` chose (nil: the query's own).
    var sortChoice: TaskQuery.Sort?
    var message: StatusMessage?
    /// Runs work once the keys already typed are handled (the app's loop): `/`'s queries.
    public var afterKeys: ((@escaping () -> Void) -> Void)?
    /// The query `/` asked for that has not run yet.
    var pendingQuery: TaskQuery?
    /// Whether a history entry is this screen's own (its command, since it opened): `u`
    /// reverts those at once and asks before one made elsewhere. Nil: every undo at once.
    public var ownEntry: (@Sendable (HistoryEntry) -> Bool)?
    /// What the change just sent does, for the status line's sentence when it is applied
    /// (`Started`, `Stopped`, `Annotated`); nil: `Changed`.
    var changeVerb: String?
    /// How the file stands with its remote (`synced 3 s ago`), when the screen syncs live.
    var syncNote: String?
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

    /// Rows the list area holds (all but the status line, and the details pane below it in a
    /// narrow window).
    var listHeight: Int { paneLayout.list.rows }

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
            .bind { [unowned self] event in
                defer { changeVerb = nil }
                guard let text = ListScreen.sentence(for: event, verb: changeVerb) else { return }
                message = StatusMessage(text: text + ListScreen.hiddenNote(for: event, in: reactor.currentState.query), isError: false)
                if calendarDay != nil { loadCalendarCounts() }
            }
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
            let page = max(1, size.rows - 2)
            switch key {
            case .character("j"), .down: helpTop += 1
            case .character("k"), .up: helpTop = max(0, helpTop - 1)
            case .character(" "), .pageDown, .control("f"): helpTop += page
            case .pageUp, .control("b"): helpTop = max(0, helpTop - page)
            default: showsHelp = false
            }
            onChange()
            return
        }
        if let entry = state.undoQuestion {
            switch key {
            case .character("y"), .character("Y"): reactor.action.onNext(.undo(entry: entry.id))
            case .character("n"), .character("N"), .escape, .control("c"): reactor.action.onNext(.cancelUndo)
            default: break
            }
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
        if handleCalendarKey(key, reactor: reactor) {
            onChange()
            return
        }
        let cursor = state.cursor
        let page = max(1, listHeight - 1)
        if handleChangeKey(key, state, reactor: reactor) {
            onChange()
            return
        }
        switch key {
        case .character("j"), .down: reactor.action.onNext(.moveCursor(to: cursor + 1))
        case .character("k"), .up: reactor.action.onNext(.moveCursor(to: cursor - 1))
        case .character("g"), .home: reactor.action.onNext(.moveCursor(to: 0))
        case .character("G"), .end: reactor.action.onNext(.moveCursor(to: state.totals.count - 1))
        case .pageDown, .control("f"): reactor.action.onNext(.moveCursor(to: cursor + page))
        case .pageUp, .control("b"): reactor.action.onNext(.moveCursor(to: cursor - page))
        case .character("a"):
            onRequest(.add(list: state.cursorTask?.list ?? Task.defaultList))
        case .character("e"):
            if let task = state.cursorTask { onRequest(.edit(task)) }
        case .character("i"), .enter:
            if calendarDay != nil { closeCalendar(reactor: reactor) }
            showsDetails.toggle()
        case .character("c"):
            toggleCalendar(reactor: reactor)
        case .character("J"), .character("K"):
            if let task = state.cursorTask { reactor.action.onNext(.nudge(task.id, down: key == .character("J"))) }
        case .character("s"):
            cycleSort(state, reactor: reactor)
        case .character("/"):
            if filterSettings != nil {
                if filterBase == nil { filterBase = state.query }
                prompt = .filter(TextField(filterText), error: nil)
            } else {
                prompt = .search(TextField(state.query.search ?? ""))
            }
        case .character("f") where queries != nil:
            guard let queries, !queries.reports.isEmpty else { break }
            // The screen opens on `list` (or the command line's own view): the first f goes on
            // to the report after it, never to the one already shown.
            let index = (queries.reports.firstIndex(of: report ?? "list") ?? -1) + 1
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
        case .character("u"):
            if let ownEntry { reactor.action.onNext(.proposeUndo(own: ownEntry)) } else { reactor.action.onNext(.undo(entry: nil)) }
        case .control("r"): reactor.action.onNext(.redo)
        case .character("r"):
            reactor.action.onNext(.catchUp)
            reactor.action.onNext(.refresh(state.query))
        case .character("?"):
            showsHelp = true
            helpTop = 0
        case .control("d") where showsDetails: detailsTop += max(1, (paneLayout.pane?.rows ?? 2) - 1)
        case .control("u") where showsDetails: detailsTop = max(0, detailsTop - max(1, (paneLayout.pane?.rows ?? 2) - 1))
        case .character("q"): onRequest(.quit)
        case .control("c"): onRequest(.interrupt)
        case .escape: break
        default:
            message = StatusMessage(text: "no key \(ListScreen.name(of: key)) here; ? lists the keys", isError: true)
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
        case .moveTo, .priority, .date, .tags, .annotate, .jump, .confirmDelete:
            handleChangePrompt(key, prompt, reactor: reactor)
        }
    }

    /// What a committed change did, in a few words: `Done 3: Buy milk`.
    static func sentence(for event: TaskEvent, verb: String? = nil) -> String? {
        switch event {
        case .create(let task): return "\(verb ?? "Added") \(task.id): \(task.title)"
        case .update(let task): return "\(verb ?? "Changed") \(task.id): \(task.title)"
        case .delete(let task): return "Deleted \(task.id): \(task.title)"
        case .move(let task): return "Moved \(task.id) to \(task.list)"
        case .markAsDone(let task): return "Done \(task.id): \(task.title)"
        case .markAsUndone(let task): return "Reopened \(task.id): \(task.title)"
        case .batch(let events):
            if events.count == 1 { return events.first.flatMap { sentence(for: $0, verb: verb) } }
            return verb.map { "\($0) \(Summary.tasks(events.count))" } ?? "\(events.count) changes"
        case .reread: return nil
        }
    }

    /// ` — hidden by the filter priority:M` when a task added, changed or moved is not in
    /// `query` (nothing for a task done or deleted, which leaves the view as expected).
    static func hiddenNote(for event: TaskEvent, in query: TaskQuery) -> String {
        switch event {
        case .create(let task), .update(let task), .move(let task):
            return query.whyHidden(task).map { " — " + $0 } ?? ""
        default:
            return ""
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
