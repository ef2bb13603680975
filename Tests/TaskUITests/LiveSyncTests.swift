#if canImport(Glibc)
import Glibc
#endif
import MainLoop
import TaskModel
import Testing
import _TestSupport
@testable import TaskUI

/// `LiveSync`'s reasons to sync, on a loop of its own: the remote's news (a fake watch whose
/// descriptor is a real pipe), this file's changes (a real folder watched with inotify, the
/// history's newest entry a number the test moves), and a runner that records each sync.
@Suite("LiveSync: when a live screen syncs", .serialized)
struct LiveSyncTests {
    final class FakeWatch: RemoteWatch {
        let ends: [Int32]
        var queued: [RemoteNews] = []

        init() {
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            self.ends = ends
        }

        deinit { close() }

        var descriptor: Int32 { ends[0] }

        /// `news` arrives: the descriptor becomes readable.
        func say(_ news: RemoteNews...) {
            queued += news
            var byte: UInt8 = 1
            _ = write(ends[1], &byte, 1)
        }

        func read() -> [RemoteNews] {
            var chunk = [UInt8](repeating: 0, count: 64)
            while Glibc.read(ends[0], &chunk, chunk.count) > 0 {}
            defer { queued = [] }
            return queued
        }

        func close() {}
    }

    final class FakeMaker: SyncRemoteMaker {
        var watches: [FakeWatch] = []
        var refuse: TaskServiceError?
        func remote(url: String) throws(TaskServiceError) -> any SyncRemote { throw .noRemote }
        func watch(url: String, node: String) throws(TaskServiceError) -> any RemoteWatch {
            if let refuse { throw refuse }
            let watch = FakeWatch()
            watches.append(watch)
            return watch
        }
    }

    final class CountingRunner: SyncRunner {
        var runs = 0
        var failure: String?
        /// What a sync does to the file (a sync that applied changes moves the history).
        var effect: () -> Void = {}
        func start(done: @escaping (String?) -> Void) {
            runs += 1
            effect()
            done(failure)
        }
    }

    final class Harness {
        let loop = EventLoop()
        let maker = FakeMaker()
        let runner = CountingRunner()
        let folder = TemporaryFolder()
        var newest: Int64 = 1
        var clock: Int64 = 1_796_032_800_000
        var statuses: [LiveSync.Status] = []
        lazy var live: LiveSync = {
            let live = LiveSync(loop: loop, url: "postgresql://x/y", node: "n", maker: maker, runner: runner,
                                newestEntry: { [unowned self] in newest }, now: { [unowned self] in Timestamp(millisecondsSince1970: clock) },
                                debounce: .milliseconds(5))
            live.onStatus = { [unowned self] in statuses.append($0) }
            return live
        }()

        var path: String { folder.file("tasks.db") }

        func start() {
            live.start(databasePath: path)
            turn(for: .milliseconds(30))
        }

        /// Runs the loop for about `duration`, and for at least eight turns of up to 5 ms each:
        /// a test process descheduled on a loaded machine still gives a readable pipe, then
        /// the debounce timer it starts, their turns.
        func turn(for duration: Duration) {
            let end = loop.now + duration
            var turns = 0
            while loop.now < end || turns < 8 {
                loop.runOnce(timeout: .milliseconds(5))
                turns += 1
            }
        }

        /// A command here: the history moves and the file is written.
        func commitHere() {
            newest += 1
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            _ = write(descriptor, "x", 1)
            _ = Glibc.close(descriptor)
        }
    }

    @Test func oneSyncAtTheStartAndOneForABurstOfNotices() {
        let ui = Harness()
        ui.start()
        #expect(ui.runner.runs == 1, "the first sync catches up")
        #expect(ui.statuses == [.synced(Timestamp(millisecondsSince1970: ui.clock))])
        let watch = ui.maker.watches[0]
        watch.say(.listening)
        ui.turn(for: .milliseconds(20))
        #expect(ui.runner.runs == 2, "listening: one sync takes in what came before it")
        watch.say(.changed)
        watch.say(.changed, .changed)
        ui.turn(for: .milliseconds(30))
        #expect(ui.runner.runs == 3, "three notices, one sync")
    }

    @Test func aChangeHereSyncsAndASyncThatOnlyAppliedIsFollowedByOneIdleSync() {
        let ui = Harness()
        ui.start()
        ui.commitHere()
        ui.turn(for: .milliseconds(40))
        #expect(ui.runner.runs == 2, "the file's change is sent")
        // A sync that applies another machine's change writes an entry of its own: the next
        // look sees the history moved once more, syncs once, and that sync changes nothing.
        ui.runner.effect = { [unowned ui] in
            ui.newest += 1
            ui.runner.effect = {}
        }
        ui.maker.watches[0].say(.changed)
        ui.turn(for: .milliseconds(80))
        #expect(ui.runner.runs == 4, "the notice's sync, then one idle sync, then quiet")
        ui.turn(for: .milliseconds(60))
        #expect(ui.runner.runs == 4)
    }

    @Test func aLostRemoteIsOfflineUntilItListensAgainThenWhatWasMissedIsSynced() {
        let ui = Harness()
        ui.start()
        ui.maker.watches[0].say(.ended(.remote(.unreachable("connection refused"), remote: "x")))
        ui.turn(for: .milliseconds(20))
        guard case .offline(let since, let reason)? = ui.statuses.last else {
            Issue.record("not offline: \(ui.statuses)")
            return
        }
        #expect(since == Timestamp(millisecondsSince1970: ui.clock))
        #expect(reason.contains("connection refused"))
        #expect(ui.maker.watches.count == 1, "asked again only after a second")
        ui.turn(for: .milliseconds(1_100))
        #expect(ui.maker.watches.count == 2, "asked again")
        let runs = ui.runner.runs
        ui.clock += 5_000
        ui.maker.watches[1].say(.listening)
        ui.turn(for: .milliseconds(30))
        #expect(ui.runner.runs == runs + 1, "back: what was missed is synced")
        #expect(ui.statuses.last == .synced(Timestamp(millisecondsSince1970: ui.clock)))
    }

    @Test func aFailedSyncKeepsTheFirstMomentItWasOffline() {
        let ui = Harness()
        ui.runner.failure = "cannot reach db.example.com"
        ui.start()
        let first = ui.clock
        ui.clock += 60_000
        ui.maker.watches[0].say(.changed)
        ui.turn(for: .milliseconds(30))
        #expect(ui.runner.runs == 2)
        #expect(ui.statuses == [.offline(since: Timestamp(millisecondsSince1970: first), reason: "cannot reach db.example.com")])
    }

    @Test func theStatusLineWords() {
        let zone = LocalTime.fixed(offsetSeconds: 3600)
        let at = Timestamp(millisecondsSince1970: 1_796_032_800_000)  // 2026-11-30 10:00 UTC, 11:00 here
        func later(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: at.millisecondsSince1970 + seconds * 1000) }
        #expect(LiveSync.note(.synced(at), now: later(3), zone: zone) == ("synced 3 s ago", .seconds(1)))
        #expect(LiveSync.note(.synced(at), now: later(300), zone: zone) == ("synced 5 min ago", .seconds(60)))
        #expect(LiveSync.note(.synced(at), now: later(7200), zone: zone) == ("synced 2026-11-30 11:00", nil))
        #expect(LiveSync.note(.offline(since: at, reason: ""), now: later(60), zone: zone) == ("offline since 11:00", nil))
        #expect(LiveSync.note(.offline(since: at, reason: ""), now: later(86_400), zone: zone) == ("offline since 2026-11-30 11:00", nil))
        #expect(LiveSync.note(.starting, now: at, zone: zone) == ("syncing…", nil))
    }
}
