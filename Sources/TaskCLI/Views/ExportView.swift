import ReactorCore
import TaskInterchange
import TaskModel
import TaskReactors

/// `tasks export`: every task, streamed out in an interchange format; what the format could
/// not hold is named on stderr.
final class ExportView: CommandView, View {
    @Reacting var reactor: TaskListReactor?
    private let writer: ExportWriter

    init(context: ViewContext, writer: ExportWriter) {
        self.writer = writer
        super.init(context: context)
    }

    func bind(reactor: TaskListReactor) {
        reactor.whenLoaded(reporting: context.status, disposedBy: disposeBag) { [unowned self] state in
            let console = context.console
            var writer = writer
            console.stdout.write(state.sections, with: &writer, escaping: console.terminal.stdoutIsTerminal)
            if !writer.notKeptLines.isEmpty && !console.settings.quiet {
                console.warn("\(writer.format.rawValue) has no place for: \(writer.notKeptLines.joined(separator: ", "))")
            }
        }
    }
}

extension Output {
    /// The sections' tasks streamed out by `writer`, framing included; escaped for a terminal
    /// when `escaping`.
    func write(_ sections: [TaskSection], with writer: inout ExportWriter, escaping: Bool) {
        append { writer.begin(to: &$0) }
        for section in sections {
            for task in section.items {
                let shown = escaping ? task.escapingControls() : task
                append { writer.append(shown, to: &$0) }
            }
        }
        append { writer.end(to: &$0) }
    }
}
