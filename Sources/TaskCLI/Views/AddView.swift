import ReactorCore
import TaskModel
import TaskReactors

/// `tasks add`: the new ids one per line in a pipe (`id=$(tasks add t)`), sentences on a
/// terminal, a progress line while a large batch is written — or why nothing was added.
final class AddView: CommandView, View {
    @Reacting var reactor: TaskEditReactor?
    /// How many titles, and what one is called in a message: `line` when they came from stdin.
    private let titles: (count: Int, itemName: String)

    init(context: ViewContext, titles: (count: Int, itemName: String)) {
        self.titles = titles
        super.init(context: context)
    }

    func bind(reactor: TaskEditReactor) {
        bindFailures(of: reactor, to: context.status, itemName: titles.itemName, count: titles.count, disposedBy: disposeBag)
        // The seeds' isLoading, made visible: a progress line while a large batch is written.
        reactor.state.map(\.isSaving).distinctUntilChanged().skip(1)
            .bind { [unowned self] isSaving in
                if titles.count >= 1000 { context.console.progress(isSaving ? "Adding \(titles.count) tasks…" : nil) }
            }
            .disposed(by: disposeBag)
        reactor.state.filter(\.isDismissed).take(1)
            .bind { [unowned self] state in printAdded(state.savedAll) }
            .disposed(by: disposeBag)
    }

    private func printAdded(_ tasks: [Task]) {
        let console = context.console
        if console.settings.quiet { return }
        if console.settings.isExplicit || console.terminal.stdoutIsTerminal {
            context.printer.report("Added", tasks)
        } else {
            TaskWriter.writeIDs(tasks, to: console.stdout)
        }
    }
}
