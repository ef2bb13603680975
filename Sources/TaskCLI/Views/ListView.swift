import QueryLanguage
import ReactorCore
import TaskModel
import TaskReactors

/// `tasks list`: the rows of `TaskListReactor`'s window, printed batch by batch as the reactor
/// streams the result through it, in the chosen format.
final class ListView: CommandView, View {
    var reactor: TaskListReactor? { didSet { reactorDidChange() } }
    private let writer: TaskWriter
    private var begun = false
    /// What a table says when nothing matched.
    var emptyText = "No tasks."

    init(context: ViewContext, writer: TaskWriter) {
        self.writer = writer
        super.init(context: context)
    }

    /// The action that makes this view's output: every row of `query`, streamed.
    func stream(_ query: TaskQuery) -> TaskListReactor.Action {
        .stream(query, batch: 1_000, totals: writer.totalsNeeded, fields: writer.fieldsRead)
    }

    func bind(reactor: TaskListReactor) {
        reactor.whenWindowMoves(disposedBy: disposeBag) { [unowned self, unowned reactor] window in
            beginOnce(reactor.currentState)
            writer.write(window.rows)
        }
        reactor.whenLoaded(reporting: context.status, disposedBy: disposeBag) { [unowned self] state in
            let console = context.console
            if state.totals.count == 0 && !begun && console.settings.format == .table {
                if !console.settings.quiet { console.stdout.write(emptyText + "\n") }
                return
            }
            beginOnce(state)
            writer.end()
        }
    }

    private func beginOnce(_ state: TaskListReactor.State) {
        if begun { return }
        begun = true
        writer.begin(state.totals, query: state.query)
    }
}

extension TaskListReactor {
    /// Runs `body` with the state each time loading ends, unless the run has failed; every
    /// failure pulse goes to `status`.
    func whenLoaded(reporting status: ExitStatus, disposedBy bag: DisposeBag, _ body: @escaping (State) -> Void) {
        reportFailures(to: status, disposedBy: bag)
        state.map { $0.isLoading }.distinctUntilChanged().skip(1).filter { !$0 }
            .bind { [unowned self] _ in if !status.failed { body(currentState) } }
            .disposed(by: bag)
    }

    /// Runs `body` with each new window (a streamed batch); not with the empty one it starts with.
    func whenWindowMoves(disposedBy bag: DisposeBag, _ body: @escaping (TaskWindow) -> Void) {
        state.map { $0.window }.distinctUntilChanged().skip(1).bind(onNext: body).disposed(by: bag)
    }

    /// Every failure pulse, to `status`.
    func reportFailures(to status: ExitStatus, disposedBy bag: DisposeBag) {
        pulse { $0.$failure }.compactMap { $0 }.bind { status.fail($0) }.disposed(by: bag)
    }
}
