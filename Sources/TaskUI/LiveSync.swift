import MainLoop
import ReactorCore
import TaskModel
import TerminalKit

/// One sync started by `LiveSync`: `tasks sync` in a child process for the screen (which must
/// not wait on the network), in this process for `tasks sync --watch` (which has nothing else
/// to do). It calls `done` on the loop when the sync ended: nil, or why it failed.
public protocol SyncRunner: AnyObject {
    func start(done: @escaping (String?) -> Void)
}

/// What a screen needs to keep its file in step with a remote: made by `tasks ui` when a remote
/// is configured (`TASKS_REMOTE`, or the one `tasks sync --remote` remembered).
public struct LiveSetup {
    /// The remote (it may carry a password: never shown).
    public var url: String
    /// This file's id in syncs: its own syncs' notices are not news.
    public var node: String
    public var maker: any SyncRemoteMaker
    /// The program and arguments of one sync of this file (`tasks --db FILE sync`).
    public var syncCommand: [String]
    /// The newest history entry's id, read now.
    public var newestEntry: () -> Int64?
    public var now: () -> Timestamp
    /// Where `offline since 14:02` is read.
    public var zone: LocalTime

    public init(url: String, node: String, maker: any SyncRemoteMaker, syncCommand: [String], newestEntry: @escaping () -> Int64?,
                now: @escaping () -> Timestamp, zone: LocalTime) {
        self.url = url
        self.node = node
        self.maker = maker
        self.syncCommand = syncCommand
        self.newestEntry = newestEntry
        self.now = now
        self.zone = zone
    }
}

/// A file kept in step with a remote while a screen or `tasks sync --watch` runs: a sync when
/// another machine's sync commits (the remote's notice, through `RemoteWatch`), when this
/// file gets a change of its own (the history's newest entry moved: any process's command),
/// and once at the start. Bursts become one sync (`debounce`); one sync runs at a time, and a
/// reason that arrives during it runs one more after it. A remote that cannot be reached is
/// asked again after 1, 2, 4 … 60 s, and its first notice after that syncs what was missed.
/// Everything runs on one `EventLoop`; nothing here blocks it.
public final class LiveSync {
    public enum Status: Equatable, Sendable {
        /// Not synced yet this run.
        case starting
        /// The last sync ended well at this moment.
        case synced(Timestamp)
        /// The remote could not be reached (or refused) since this moment, and why.
        case offline(since: Timestamp, reason: String)
    }

    private let loop: EventLoop
    private let url: String
    private let node: String
    private let maker: any SyncRemoteMaker
    private let runner: any SyncRunner
    /// The newest history entry's id: moves with every command committed here, by anyone.
    private let newestEntry: () -> Int64?
    private let now: () -> Timestamp
    private let describe: (TaskServiceError) -> String
    /// How long a burst of reasons is waited out before the one sync they make.
    private let debounce: Duration

    private var watch: (any RemoteWatch)?
    private var watchSubscription: (any Disposable)?
    private var folder: FolderWatch?
    private var folderSubscription: (any Disposable)?
    private var pendingTimer: (any Disposable)?
    private var retryTimer: (any Disposable)?
    private var retryDelay: Duration = .seconds(1)
    private var running = false
    private var again = false
    /// The newest entry when the last sync started: a later one is a change to send.
    private var mark: Int64?
    private var databaseName = ""
    private var stopped = false

    public private(set) var status: Status = .starting {
        didSet { if status != oldValue { onStatus?(status) } }
    }
    /// Told each time the status changes.
    public var onStatus: ((Status) -> Void)?
    /// Told when a sync starts and ends (`tasks sync --watch` says nothing else).
    public var onSync: ((_ started: Bool) -> Void)?

    public init(loop: EventLoop, url: String, node: String, maker: any SyncRemoteMaker, runner: any SyncRunner,
                newestEntry: @escaping () -> Int64?, now: @escaping () -> Timestamp,
                describe: @escaping (TaskServiceError) -> String = { String(describing: $0) }, debounce: Duration = .milliseconds(20)) {
        self.describe = describe
        self.loop = loop
        self.url = url
        self.node = node
        self.maker = maker
        self.runner = runner
        self.newestEntry = newestEntry
        self.now = now
        self.debounce = debounce
    }

    deinit { stop() }

    /// Listens to the remote and to the file at `databasePath` (its folder, with inotify), and
    /// syncs once now.
    public func start(databasePath: String) {
        let slash = databasePath.lastIndex(of: "/")
        let folderPath = slash.map { String(databasePath[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        databaseName = slash.map { String(databasePath[databasePath.index(after: $0)...]) } ?? databasePath
        if let folder = FolderWatch(folder: folderPath) {
            self.folder = folder
            folderSubscription = loop.watch(descriptor: folder.descriptor) { [unowned self] in
                let name = databaseName
                if folder.drain().contains(where: { $0.name == name || $0.name == name + "-wal" }) { fileChanged() }
            }
        }
        listen()
        syncSoon()
    }

    /// Stops listening; a sync under way finishes on its own.
    public func stop() {
        stopped = true
        pendingTimer?.dispose()
        retryTimer?.dispose()
        watchSubscription?.dispose()
        folderSubscription?.dispose()
        watch?.close()
        watch = nil
    }

    // MARK: - Reasons to sync

    /// This file changed: a sync when the history moved past what the last sync started from.
    private func fileChanged() {
        guard !running, let newest = newestEntry(), newest != mark else { return }
        syncSoon()
    }

    private func syncSoon() {
        guard !stopped else { return }
        if running {
            again = true
            return
        }
        guard pendingTimer == nil else { return }
        pendingTimer = loop.schedule(after: debounce) { [unowned self] in
            pendingTimer = nil
            syncNow()
        }
    }

    private func syncNow() {
        guard !stopped, !running else { return }
        running = true
        again = false
        mark = newestEntry()
        onSync?(true)
        runner.start { [unowned self] failure in
            running = false
            onSync?(false)
            if let failure {
                status = .offline(since: offlineSince, reason: failure)
            } else {
                status = .synced(now())
            }
            // Changes made here while it ran, or another notice, make one more; a sync that
            // only applied what it received moves the history too, and the one after it is idle.
            if again || (failure == nil && newestEntry() != mark) { syncSoon() }
        }
    }

    private var offlineSince: Timestamp {
        if case .offline(let since, _) = status { return since }
        return now()
    }

    // MARK: - The remote's notices

    private func listen() {
        guard !stopped else { return }
        do {
            let watch = try maker.watch(url: url, node: node)
            self.watch = watch
            watchSubscription = loop.watch(descriptor: watch.descriptor) { [unowned self] in heard() }
        } catch {
            lost(TaskServiceError(error))
        }
    }

    private func heard() {
        guard let watch else { return }
        for news in watch.read() {
            switch news {
            case .listening:
                retryDelay = .seconds(1)
                // From now on no commit is missed: one sync takes in whatever came before
                // (between the start's sync and this, or while the remote was out of reach).
                syncSoon()
            case .changed:
                syncSoon()
            case .ended(let failure):
                lost(failure)
                return
            }
        }
    }

    /// The watch ended: offline until it is back, asked again after a growing pause.
    private func lost(_ failure: TaskServiceError) {
        watchSubscription?.dispose()
        watchSubscription = nil
        watch?.close()
        watch = nil
        status = .offline(since: offlineSince, reason: describe(failure))
        guard !stopped else { return }
        retryTimer = loop.schedule(after: retryDelay) { [unowned self] in
            retryTimer = nil
            listen()
        }
        retryDelay = min(retryDelay * 2, .seconds(60))
    }

    // MARK: - Words

    /// The status line's words for `status` at `now`, and when they next change: `synced 3 s
    /// ago` (each second), `synced 5 min ago` (each minute), `offline since 14:02`.
    public static func note(_ status: Status, now: Timestamp, zone: LocalTime) -> (String, Duration?) {
        switch status {
        case .starting:
            return ("syncing…", nil)
        case .synced(let at):
            let seconds = max(0, (now.millisecondsSince1970 - at.millisecondsSince1970) / 1000)
            if seconds < 60 { return ("synced \(seconds) s ago", .seconds(1)) }
            if seconds < 3600 { return ("synced \(seconds / 60) min ago", .seconds(60)) }
            return ("synced " + String(TaskDate(at, in: zone).shown(in: zone).prefix(16)), nil)
        case .offline(let since, _):
            let shown = TaskDate(since, in: zone).shown(in: zone)
            let today = TaskDate(now, in: zone).shown(in: zone)
            // The time alone on the same day, the day too otherwise.
            let sameDay = shown.prefix(10) == today.prefix(10)
            return ("offline since " + (sameDay ? String(shown.dropFirst(11).prefix(5)) : String(shown.prefix(16))), nil)
        }
    }
}
