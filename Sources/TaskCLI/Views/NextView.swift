import QueryLanguage
import ReactorCore
import TaskModel
import TaskReactors

/// `tasks next`: the first tasks by rank, one list without sections — few enough (`--limit`)
/// to be held and measured here, so that a table's columns fit them rather than every
/// pending task; with `--explain`, each score part by part.
final class NextView: CommandView, View {
    var reactor: TaskListReactor? { didSet { reactorDidChange() } }
    private let writer: TaskWriter
    private var rows: [Task] = []
    /// What a table says when nothing matched.
    private let empty: String
    /// A limited report grouped by list keeps its sections (`next` is one list).
    var keepsSections = false

    init(context: ViewContext, writer: TaskWriter, empty: String = "Nothing to do.") {
        self.writer = writer
        self.empty = empty
        super.init(context: context)
    }

    /// The action that makes this view's output: the rows of `query` (at most its `limit`), streamed.
    func stream(_ query: TaskQuery) -> TaskListReactor.Action {
        .stream(query, batch: max(1, query.limit ?? 1_000), totals: .none, fields: writer.fieldsRead)
    }

    func bind(reactor: TaskListReactor) {
        reactor.whenWindowMoves(disposedBy: disposeBag) { [unowned self] window in rows += window.rows }
        reactor.whenLoaded(reporting: context.status, disposedBy: disposeBag) { [unowned self, unowned reactor] _ in
            let console = context.console
            if rows.isEmpty && console.settings.format == .table {
                if !console.settings.quiet { console.stdout.write(empty + "\n") }
                return
            }
            writer.sectionHeaders = keepsSections
            // The query's day and zone for the cells (a score, a time); its sections only when kept.
            var query = reactor.currentState.query
            if !keepsSections { query.grouping = .none }
            writer.writeAll(rows, query: query)
        }
    }
}
