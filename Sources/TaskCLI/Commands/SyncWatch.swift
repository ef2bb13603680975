import MainLoop
import ReactorCore
import TaskModel
import TaskReactors
import TaskUI
import TerminalKit
import TextFormats

/// `tasks sync --watch`: `LiveSync` without a screen, for a terminal multiplexer's pane or a
/// user service. Each sync runs here, on the loop (there is nothing else to keep responsive),
/// so a SIGTERM that arrives during one is acted on after it: nothing is left half-done. Each
/// sync that moved something is a line (`14:02:31 Sent 1, received 2 (2 changed).`, or its
/// JSON with `--format json`); the remote going out of reach and coming back are a line each
/// on stderr. A remote that cannot be used at all (no remote, a bad address, a refused login,
/// a missing database, a newer schema) ends the watch with status 1.
struct SyncWatch {
    let context: CommandContext
    let url: String?
    let remember: Bool

    func run() {
        let service = context.service, console = context.console, invocation = context.invocation
        do {
            try service.open(creating: true)
        } catch {
            return context.status.fail(error)
        }
        var identity: SyncIdentity?
        _ = service.syncIdentity().take(1).subscribe(onNext: { identity = $0 }, onError: { context.status.fail(TaskServiceError($0)) })
        guard let identity else { return }
        guard let address = url ?? identity.remote else { return context.status.fail(TaskServiceError.noRemote) }
        let signals: SignalPipe
        do {
            signals = try SignalPipe()
        } catch {
            return context.status.fail(CLIError.failure("cannot watch: \(error)"))
        }
        let loop = MainScheduler.instance.loop
        var rememberNext = remember
        var fatal: TaskServiceError?
        let runner = InProcessSync { () -> String? in
            var failure: TaskServiceError?
            _ = service.sync(url: address, remember: rememberNext, through: invocation.remotes).take(1)
                .subscribe(onNext: { report in
                    rememberNext = false
                    SyncWatch.say(report, context: context)
                }, onError: { failure = TaskServiceError($0) })
            guard let failure else { return nil }
            if SyncWatch.isLasting(failure) {
                fatal = failure
                loop.stop()
            }
            return ErrorPresenter.present(failure).message
        }
        let live = LiveSync(loop: loop, url: address, node: identity.node, maker: invocation.remotes, runner: runner,
                            newestEntry: {
                                var newest: Int64?
                                _ = service.history(HistoryQuery(limit: 1)).take(1).subscribe(onNext: { newest = $0.first?.id })
                                return newest
                            },
                            now: invocation.now, describe: { ErrorPresenter.present($0).message })
        var wasOffline = false
        live.onStatus = { status in
            switch status {
            case .offline(_, let reason) where !wasOffline:
                wasOffline = true
                let (note, _) = LiveSync.note(status, now: invocation.now(), zone: invocation.localTime)
                console.message("tasks: \(note): \(reason); trying again")
            case .synced where wasOffline:
                wasOffline = false
                console.message("tasks: the remote answers again")
            default:
                break
            }
            console.stderr.flush()
        }
        // One sync before watching: a remote that can never work (a bad address, a refused
        // login) ends the watch here, before anything says it will be tried again.
        runner.start { _ in }
        if let fatal { return context.status.fail(fatal) }
        let subscription = loop.watch(descriptor: signals.descriptor) {
            if !signals.drain().isEmpty { loop.stop() }
        }
        live.start(databasePath: service.path)
        loop.run()
        live.stop()
        subscription.dispose()
        if let fatal { context.status.fail(fatal) }
    }

    /// A failure that waiting will not mend: the watch ends with it.
    static func isLasting(_ failure: TaskServiceError) -> Bool {
        switch failure {
        case .remote(.unreachable, _), .remote(.failed, _), .locked, .ioFailure: return false
        default: return true
        }
    }

    /// A sync that moved something, as a line on stdout, flushed (a pane or a log shows it
    /// now); conflicts as warnings on stderr, as `tasks sync` says them.
    static func say(_ report: SyncReport, context: CommandContext) {
        let console = context.console
        let count = report.conflicts.count
        if count > 0 && !console.settings.quiet {
            console.warn("\(count) conflict\(count == 1 ? "" : "s"), the later change kept (the history keeps the other; 'tasks undo' puts it back):")
            for conflict in report.conflicts { console.message("  " + TerminalText.escapingControls(conflict.sentence)) }
            console.stderr.flush()
        }
        guard !report.isEmpty, !console.settings.quiet else { return }
        if console.settings.isExplicit && console.settings.format == .json {
            console.stdout.write(SyncView.json(report).serialized() + "\n")
        } else {
            let seconds = context.invocation.localTime.clock(context.invocation.now()).1
            let clock = [seconds / 3600, seconds / 60 % 60, seconds % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
            console.stdout.write(clock + " " + report.sentence + "\n")
        }
        console.stdout.flush()
    }
}

/// A sync run where it is asked for, its end told at once.
final class InProcessSync: SyncRunner {
    private let body: () -> String?

    init(_ body: @escaping () -> String?) { self.body = body }

    func start(done: @escaping (String?) -> Void) { done(body()) }
}
