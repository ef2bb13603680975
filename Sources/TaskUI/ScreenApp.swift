#if canImport(Glibc)
import Glibc
#endif
import MainLoop
import QueryLanguage
import ReactorCore
import TaskModel
import TaskReactors
import TerminalKit

/// `tasks ui`: the two screens on one run loop (`MainScheduler`'s). Keys, resizes, signals,
/// the change feed's wake-ups and every state update arrive on that loop, one at a time, so
/// nothing drawn ever races; a frame is drawn once per turn of the loop, whatever changed.
public final class ScreenApp {
    public struct Options {
        public var query: TaskQuery
        public var color: Bool
        public var today: () -> CalendarDay
        /// What dates typed in the editor count from (the clock, zone and week start); `nil`:
        /// today alone.
        public var dates: (() -> DateContext)?
        /// The reports `f` cycles and the contexts `@` picks; nil: `f` cycles pending, all, done.
        public var queries: ScreenQueries?
        /// What `/`'s filter words are read with; nil: `/` searches for a phrase.
        public var filterSettings: (() -> FilterSettings)?
        /// The database file, watched for other processes' commits; nil: not watched.
        public var databasePath: String?
        /// `TASKS_UI_TRACE`: where to write each frame's timing and size (the benchmark).
        public var tracePath: String?
        /// When the program started (the trace's time zero).
        public var started: MonotonicInstant
        /// Whether a history entry is this screen's own (`ListScreen.ownEntry`).
        public var ownEntry: (@Sendable (HistoryEntry) -> Bool)?
        /// The words for a failure, on the status line.
        public var describe: (TaskServiceError) -> String = { String(describing: $0) }
        /// Kept in step with a remote while the screen runs (a remote is configured).
        public var live: LiveSetup?
        /// The configuration's colour rules, for the list's rows.
        public var colorRules = ColorRules.none

        public init(query: TaskQuery, color: Bool, today: @escaping () -> CalendarDay, databasePath: String?,
                    tracePath: String? = nil, started: MonotonicInstant = MonotonicInstant.now) {
            self.query = query
            self.color = color
            self.today = today
            self.databasePath = databasePath
            self.tracePath = tracePath
            self.started = started
        }
    }

    private let service: any TaskService
    private let options: Options
    private let loop = MainScheduler.instance.loop
    private let terminal = Terminal()
    private var session: TerminalSession?
    private var renderer = Renderer()
    private var size: (rows: Int, columns: Int)
    private let listKeys = PublishSubject<Key>()
    private let editKeys = PublishSubject<Key>()
    private let list: TaskListReactor
    private let listScreen: ListScreen
    private var editor: EditScreen?
    private var drawQueued = false
    private var drawing = false
    private var exitStatus: Int32 = 0
    private var watch: FolderWatch?
    private var catchUpQueued = false
    private let disposeBag = DisposeBag()
    private var trace: Trace?
    private var liveSync: LiveSync?
    private var syncTick: (any Disposable)?

    /// The editor's reactor in `mode`, its dates counted from the options' clock.
    private func editReactor(_ mode: TaskEditReactor.Mode) -> TaskEditReactor {
        let today = options.today
        return TaskEditReactor(mode: mode, service: service, dates: options.dates ?? { DateContext.on(today()) })
    }

    public init(service: any TaskService, options: Options) {
        self.service = service
        self.options = options
        size = terminal.size
        list = TaskListReactor(service: service, query: options.query, windowSize: max(64, size.rows * 2))
        listScreen = ListScreen(keys: listKeys, size: size, style: ScreenStyle(color: options.color, rules: options.colorRules), today: options.today)
        listScreen.filterSettings = options.filterSettings
        listScreen.queries = options.queries
        listScreen.dateContext = options.dates
        listScreen.ownEntry = options.ownEntry
        listScreen.afterKeys = { [unowned self] work in runAfterKeys(work) }
        listScreen.details = TaskDetailsReactor(service: service)
        listScreen.calendar = TaskPicturesReactor(service: service)
        listScreen.weekStart = options.dates?().weekStart ?? 0
        trace = options.tracePath.flatMap { Trace(path: $0, started: options.started) }
    }

    /// Runs until `q` or a signal; the terminal is given back whatever happens. The status:
    /// 0, 1 when the terminal could not be taken over, 128 + the signal that ended it.
    public func run(stderr: (String) -> Void) -> Int32 {
        let session = TerminalSession(terminal: terminal, loop: loop) { [unowned self] event in handle(event) }
        self.session = session
        do {
            try session.start()
        } catch {
            session.stop()
            stderr("tasks: cannot use the terminal: \(error)\n")
            return 1
        }
        listScreen.onRequest = { [unowned self] request in handle(request) }
        listScreen.onChange = { [unowned self] in setNeedsDraw() }
        listScreen.describe = options.describe
        listScreen.reactor = list
        // The first screenful at once, the count on the next turn, after the first frame.
        list.action.onNext(.open(options.query))
        loop.enqueue { [unowned self] in list.action.onNext(.count) }
        startFeed()
        startLiveSync()
        setNeedsDraw()
        loop.run()
        liveSync?.stop()
        session.stop()
        trace?.finish()
        return exitStatus
    }

    // MARK: - Events

    private func handle(_ event: TerminalSession.Event) {
        switch event {
        case .key(let key):
            trace?.keyArrived()
            if key == .control("z") {
                session?.suspend()
                return
            }
            if key == .control("l") {
                // Repaint everything: whatever another program or a terminal's own idea of a
                // character's width left on the screen is cleared.
                renderer.invalidate()
                setNeedsDraw()
                return
            }
            if editor != nil { editKeys.onNext(key) } else { listKeys.onNext(key) }
        case .resized(let rows, let columns):
            size = (rows, columns)
            listScreen.size = size
            editor?.size = size
            renderer.invalidate()
            setNeedsDraw()
        case .resumed:
            renderer.invalidate()
            setNeedsDraw()
        case .ended(let signal):
            exitStatus = 128 + signal
            loop.stop()
        }
    }

    private func handle(_ request: ScreenRequest) {
        switch request {
        case .quit:
            loop.stop()
        case .interrupt:
            exitStatus = 130
            loop.stop()
        case .edit(let task):
            openEditor(editReactor(.edit(task)))
        case .add(let name):
            let reactor = editReactor(.new)
            reactor.action.onNext(.updateList(name))
            openEditor(reactor)
        }
    }

    private func openEditor(_ reactor: TaskEditReactor) {
        let screen = EditScreen(keys: editKeys, size: size, style: ScreenStyle(color: options.color))
        screen.onChange = { [unowned self] in setNeedsDraw() }
        screen.describe = options.describe
        if list.currentState.lists == nil { list.action.onNext(.loadLists) }
        screen.listNames = (list.currentState.lists ?? []).map(\.name)
        screen.onDismiss = { [unowned self] _ in
            // Closed on the next turn: not from inside the editor's own state update.
            loop.enqueue { [unowned self] in
                editor = nil
                setNeedsDraw()
            }
        }
        screen.reactor = reactor
        editor = screen
        setNeedsDraw()
    }

    // MARK: - Other processes' changes

    /// Watches the database's folder; a write to the file or its WAL by anyone wakes the loop,
    /// and the list takes in what was committed (`catchUp`: nothing is read when nothing
    /// changed). Without inotify, the same check once a second.
    private func startFeed() {
        guard let path = options.databasePath, path != ":memory:" else { return }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let watch = FolderWatch(folder: folder) else {
            pollEverySecond()
            return
        }
        self.watch = watch
        loop.watch(descriptor: watch.descriptor) { [unowned self] in
            var touched = false
            for change in watch.drain() where change.name == name || change.name == name + "-wal" {
                touched = true
                if change.isGone && change.name == name {
                    list.action.onNext(.catchUp)
                    listScreen.tell("'\(path)' was deleted or moved: changes made here are lost", isError: true)
                }
            }
            if touched { catchUpSoon() }
        }
        .disposed(by: disposeBag)
    }

    /// One catch-up for a burst of writes (a commit touches the WAL several times).
    private func catchUpSoon() {
        guard !catchUpQueued else { return }
        catchUpQueued = true
        loop.schedule(after: .milliseconds(10)) { [unowned self] in
            catchUpQueued = false
            list.action.onNext(.catchUp)
        }
    }

    private func pollEverySecond() {
        loop.schedule(after: .seconds(1)) { [weak self] in
            self?.list.action.onNext(.catchUp)
            self?.pollEverySecond()
        }
    }

    // MARK: - Other machines' changes

    /// With a remote, the file is synced on every notice and every change here, in a child
    /// `tasks sync`; what it applies arrives through the feed above. The status line says when
    /// the last sync was, or since when the remote is out of reach.
    private func startLiveSync() {
        guard let setup = options.live, let path = options.databasePath else { return }
        let live = LiveSync(loop: loop, url: setup.url, node: setup.node, maker: setup.maker,
                            runner: ChildSync(loop: loop, arguments: setup.syncCommand), newestEntry: setup.newestEntry,
                            now: setup.now, describe: options.describe)
        live.onStatus = { [unowned self] _ in showSyncStatus() }
        liveSync = live
        listScreen.syncNote = "syncing…"
        live.start(databasePath: path)
    }

    /// `synced 3 s ago`, `offline since 14:02`, kept current once a second while it counts
    /// seconds, once a minute after.
    private func showSyncStatus() {
        guard let live = liveSync else { return }
        syncTick?.dispose()
        let now = options.live?.now() ?? Timestamp(millisecondsSince1970: 0)
        let (note, next) = LiveSync.note(live.status, now: now, zone: options.live?.zone ?? .system)
        listScreen.syncNote = note
        setNeedsDraw()
        if let next { syncTick = loop.schedule(after: next) { [unowned self] in showSyncStatus() } }
    }

    // MARK: - Drawing

    /// `work` on a later turn of the loop, after the frame of the keys handled so far, and
    /// not while more keys wait to be read (those come first: they may make it moot).
    private func runAfterKeys(_ work: @escaping () -> Void) {
        // Queued twice: the frame queued by the key that asked is drawn on the next turn, and
        // this runs on the one after, once the keys read meanwhile are handled.
        loop.enqueue { [unowned self] in
            loop.enqueue { [unowned self] in
                var waiting = pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0)
                if poll(&waiting, 1, 0) > 0 && waiting.revents & Int16(POLLIN) != 0 {
                    runAfterKeys(work)
                } else {
                    work()
                }
            }
        }
    }

    private func setNeedsDraw() {
        guard !drawQueued && !drawing else { return }
        drawQueued = true
        loop.enqueue { [unowned self] in draw() }
    }

    private func draw() {
        drawQueued = false
        drawing = true
        defer { drawing = false }
        if editor == nil { listScreen.layout() }
        var screen = ScreenBuffer(rows: size.rows, columns: size.columns)
        let cursor = editor.map { $0.draw(into: &screen) } ?? listScreen.draw(into: &screen)
        let bytes = renderer.frame(screen, cursor: cursor)
        terminal.write(bytes)
        trace?.frameWritten(bytes: bytes.count)
    }
}

extension ListScreen {
    /// A message on the status line from outside the screen (the app's own news).
    func tell(_ text: String, isError: Bool) {
        message = StatusMessage(text: text, isError: isError)
        onChange()
    }
}

/// `TASKS_UI_TRACE`: one line per frame — the time since the program started, the bytes
/// written, and for a frame that answers a key, the time since the key arrived — and the peak
/// resident memory at the end. What `scripts/benchmark-ui` reads.
final class Trace {
    private let descriptor: Int32
    private let started: MonotonicInstant
    private var keyTime: MonotonicInstant?

    init?(path: String, started: MonotonicInstant) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        self.started = started
    }

    deinit { close(descriptor) }

    func keyArrived() {
        if keyTime == nil { keyTime = .now }
    }

    func frameWritten(bytes: Int) {
        let now = MonotonicInstant.now
        var line = "frame \(microseconds(now - started)) \(bytes)"
        if let keyTime {
            line += " key \(microseconds(now - keyTime))"
            self.keyTime = nil
        }
        write(line + "\n")
    }

    func finish() {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        write("peak-rss-kb \(usage.ru_maxrss)\n")
    }

    private func microseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}
