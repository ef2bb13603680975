import ReactorCore
import TaskModel
import TaskReactors
import TextFormats

/// `tasks sync --rejected`: the changes received and kept aside, oldest first — on a terminal a
/// line each (when, from whom, which task, where the remote holds it, why), else TSV, CSV or
/// JSON with every column. What a remote sent is escaped on a terminal, as every field is.
final class RejectedView: CommandView, View {
    var reactor: TaskSyncReactor? { didSet { reactorDidChange() } }

    func bind(reactor: TaskSyncReactor) {
        reactor.pulse { $0.$failure }.compactMap { $0 }.bind { [unowned self] in context.status.fail($0) }.disposed(by: disposeBag)
        reactor.pulse { $0.$rejected }.compactMap { $0 }.bind { [unowned self] in write($0) }.disposed(by: disposeBag)
    }

    static let header = ["time", "remote", "change", "node", "origin", "task", "source", "reason", "fields"]

    private func write(_ rejected: [SyncRejection]) {
        let output = context.console.stdout
        let terminal = context.console.terminal.stdoutIsTerminal
        func shown(_ text: String) -> String { terminal ? TerminalText.escapingControls(text) : text }
        switch context.console.settings.format {
        case .table:
            if rejected.isEmpty {
                output.write("No changes kept aside.\n")
                return
            }
            for rejection in rejected {
                let source = rejection.source.isEmpty ? "" : " (" + rejection.source + ")"
                output.write(shown("\(TimestampText.iso8601(rejection.time))  task \(rejection.task) from \(rejection.origin)\(source) "
                                   + "through \(rejection.remote): \(rejection.reason)") + "\n")
            }
        case .tsv, .ids, .csv:
            let rows = rejected.map { rejection in
                [TimestampText.iso8601(rejection.time), rejection.remote, rejection.change, rejection.node, rejection.origin, rejection.task,
                 rejection.source, rejection.reason, rejection.fields].map(shown)
            }
            if context.console.settings.format == .csv {
                output.write(CSV.line(Self.header) + rows.map { CSV.line($0) }.joined())
            } else {
                if context.console.settings.header { output.write(TSV.line(Self.header)) }
                output.write(rows.map { TSV.line($0) }.joined())
            }
        case .json:
            let value = JSONValue.array(rejected.map { rejection in
                .object([("time", .string(TimestampText.iso8601(rejection.time))), ("remote", .string(rejection.remote)),
                         ("change", .string(rejection.change)), ("node", .string(rejection.node)), ("origin", .string(rejection.origin)),
                         ("task", .string(rejection.task)), ("source", .string(rejection.source)), ("reason", .string(rejection.reason)),
                         ("fields", .string(rejection.fields))])
            })
            output.write(value.serialized() + "\n")
        }
    }
}
