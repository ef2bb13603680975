import ReactorCore
import TaskModel
import TaskReactors
import TextFormats

/// The history screen: `tasks history` prints the entries once loaded, in the chosen format;
/// `tasks undo` and `tasks redo` say, on a terminal, what was reverted or applied again
/// (`Undid #12: done 3 "Buy milk"`) — in a pipe nothing, unless a `--format` asks for the entry.
final class HistoryView: CommandView, View {
    var reactor: TaskHistoryReactor? { didSet { reactorDidChange() } }
    private let writer: HistoryWriter

    init(context: ViewContext, writer: HistoryWriter) {
        self.writer = writer
        super.init(context: context)
    }

    func bind(reactor: TaskHistoryReactor) {
        reactor.pulse { $0.$failure }.compactMap { $0 }.bind { [unowned self] in context.status.fail($0) }.disposed(by: disposeBag)
        reactor.state.map { $0.isLoading }.distinctUntilChanged().skip(1).filter { !$0 }
            .bind { [unowned self, unowned reactor] _ in if !context.status.failed { writer.write(reactor.currentState.entries) } }
            .disposed(by: disposeBag)
        reactor.pulse { $0.$step }.compactMap { $0 }
            .bind { [unowned self] step in report(step) }
            .disposed(by: disposeBag)
    }

    private func report(_ step: HistoryStep) {
        let console = context.console
        if console.settings.quiet { return }
        if console.settings.isExplicit && console.settings.format != .table {
            writer.write([step.entry])
        } else if console.terminal.stdoutIsTerminal || console.settings.isExplicit {
            console.stdout.write(TerminalText.escapingControls(step.sentence) + "\n")
        }
    }
}
