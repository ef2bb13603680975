import ReactorCore
import TaskModel
import TaskReactors
import TextFormats

/// `tasks sync`: `Syncing…` on a terminal's stderr while it runs; then, on a terminal, what
/// travelled (`Sent 3, received 5 (2 new, 3 changed).`); each conflict as a warning on stderr,
/// wherever the output goes; `--format json` the whole report; in a pipe otherwise nothing
/// but the warnings.
final class SyncView: CommandView, View {
    var reactor: TaskSyncReactor? { didSet { reactorDidChange() } }
    /// The configured remote's name, when `tasks sync` syncs several in turn: each line and
    /// JSON record says which.
    let label: String?

    init(context: ViewContext, label: String? = nil) {
        self.label = label
        super.init(context: context)
    }

    func bind(reactor: TaskSyncReactor) {
        // The seeds' isLoading, made visible: a progress line on a terminal while the remote is asked.
        reactor.state.map { $0.isSyncing }.distinctUntilChanged().skip(1)
            .bind { [unowned self] isSyncing in context.console.progress(isSyncing ? "Syncing…" : nil) }
            .disposed(by: disposeBag)
        reactor.pulse { $0.$failure }.compactMap { $0 }.bind { [unowned self] in context.status.fail($0) }.disposed(by: disposeBag)
        reactor.pulse { $0.$report }.compactMap { $0 }.bind { [unowned self] in report($0) }.disposed(by: disposeBag)
    }

    private func report(_ report: SyncReport) {
        let console = context.console
        console.progress(nil)
        // A change kept aside is said wherever the output goes, once: the next sync does not
        // report it again unless it changes.
        for rejection in report.rejected {
            let source = rejection.source.isEmpty ? "" : " (" + rejection.source + ")"
            console.warn(TerminalText.escapingControls("kept aside a change to task \(rejection.task) from \(rejection.origin)\(source): "
                                                       + "\(rejection.reason); see tasks sync --rejected"))
        }
        if !console.settings.quiet {
            let count = report.conflicts.count
            if count > 0 {
                console.warn("\(count) conflict\(count == 1 ? "" : "s"), the later change kept (the history keeps the other; 'tasks undo' puts it back):")
                for conflict in report.conflicts { console.message("  " + TerminalText.escapingControls(conflict.sentence)) }
            }
        }
        if console.settings.isExplicit && console.settings.format == .json {
            var json = Self.json(report)
            if let label, case .object(let fields) = json { json = .object([("remote", .string(label))] + fields) }
            console.stdout.write(json.serialized() + "\n")
        } else if !console.settings.quiet && (console.terminal.stdoutIsTerminal || console.settings.isExplicit) {
            console.stdout.write((label.map { $0 + ": " } ?? "") + report.sentence + "\n")
        }
    }

    static func json(_ report: SyncReport) -> JSONValue {
        .object([
            ("sent", .number(Int64(report.pushed))), ("received", .number(Int64(report.pulled))),
            ("created", .number(Int64(report.created))), ("changed", .number(Int64(report.changed))), ("deleted", .number(Int64(report.deleted))),
            ("entry", report.entry.map(JSONValue.number) ?? .null),
            ("rejected", .number(Int64(report.rejected.count))),
            ("conflicts", .array(report.conflicts.map { conflict in
                .object([("id", .number(conflict.taskID)), ("title", .string(conflict.title)), ("field", .string(conflict.field)),
                         ("kept", conflict.kept.json), ("keptFrom", .string(conflict.keptFrom)),
                         ("replaced", conflict.replaced.json), ("replacedFrom", .string(conflict.replacedFrom))])
            })),
        ])
    }
}
