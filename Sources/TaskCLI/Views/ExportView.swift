import QueryLanguage
import ReactorCore
import TaskInterchange
import TaskModel
import TaskReactors

/// `tasks export`: every task, streamed out in an interchange format batch by batch as the
/// reactor reads them; what the format could not hold is named on stderr.
final class ExportView: CommandView, View {
    var reactor: TaskListReactor? { didSet { reactorDidChange() } }
    private var writer: ExportWriter
    private var begun = false

    init(context: ViewContext, writer: ExportWriter) {
        self.writer = writer
        super.init(context: context)
    }

    /// The action that makes this view's output: every task, by id, streamed.
    /// Every task, and the deleted ones' tombstones when `withDeleted` (Taskwarrior's export).
    static func everyTask(withDeleted: Bool = false) -> TaskListReactor.Action {
        var query = TaskQuery(status: .all, sort: .id, grouping: .none)
        query.withDeleted = withDeleted
        return .stream(query, batch: 1_000, totals: .none, fields: .all)
    }

    func bind(reactor: TaskListReactor) {
        let console = context.console
        // JSON (ours and Taskwarrior's) escapes every control itself: the same bytes on a terminal.
        let escaping = console.terminal.stdoutIsTerminal && !writer.writesJSON
        reactor.whenWindowMoves(disposedBy: disposeBag) { [unowned self] window in
            beginOnce()
            for task in window.rows {
                let shown = escaping ? task.escapingControls() : task
                console.stdout.append { writer.append(shown, to: &$0) }
            }
        }
        reactor.whenLoaded(reporting: context.status, disposedBy: disposeBag) { [unowned self] state in
            beginOnce()
            writer.kept = state.kept
            console.stdout.append { writer.end(to: &$0) }
            if !writer.notKeptLines.isEmpty && !console.settings.quiet {
                console.warn("\(writer.format.rawValue) has no place for: \(writer.notKeptLines.joined(separator: ", "))")
            }
        }
    }

    private func beginOnce() {
        if begun { return }
        begun = true
        context.console.stdout.append { writer.begin(to: &$0) }
    }
}
