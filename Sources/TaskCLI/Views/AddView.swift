import ReactorCore
import TaskModel
import TaskReactors
import TextFormats

/// `tasks add`: the new ids one per line in a pipe (`id=$(tasks add t)`), sentences on a
/// terminal, a progress line while a large batch is written — or why nothing was added. For
/// `add -` the lines are streamed: progress counts the rows written, and the ids come from the
/// committed run, not from tasks held.
final class AddView: CommandView, View {
    var reactor: TaskEditReactor? { didSet { reactorDidChange() } }
    /// How many titles (`Int.max`: not known, streamed), and what one is called in a message:
    /// `line` when they came from stdin.
    private let titles: (count: Int, itemName: String)
    /// What a confirmation says: `Added`, `Logged`, `Duplicated`.
    private let verb: String

    init(context: ViewContext, titles: (count: Int, itemName: String), verb: String = "Added") {
        self.titles = titles
        self.verb = verb
        super.init(context: context)
    }

    func bind(reactor: TaskEditReactor) {
        bindFailures(of: reactor, to: context.status, itemName: titles.itemName, count: titles.count, disposedBy: disposeBag)
        // The seeds' isLoading, made visible: a progress line while a large batch is written.
        reactor.state.map { $0.isSaving }.distinctUntilChanged().skip(1)
            .bind { [unowned self] isSaving in
                if titles.count >= 1000 && titles.count != Int.max { context.console.progress(isSaving ? "Adding \(titles.count) tasks…" : nil) }
            }
            .disposed(by: disposeBag)
        reactor.state.compactMap { $0.creation }.distinctUntilChanged()
            .bind { [unowned self] creation in
                if case .written(let count) = creation { context.console.progress("Adding tasks… \(count) written") }
            }
            .disposed(by: disposeBag)
        reactor.state.filter { $0.isDismissed }.take(1)
            .bind { [unowned self] state in
                if case .committed(let first, let count, let head) = state.creation {
                    context.console.progress(nil)
                    context.printer.warnAboutDates(head.prefix(1).map { $0 })
                    printRun(first: first, count: count, head: head)
                } else {
                    context.printer.warnAboutDates(state.savedAll.prefix(1).map { $0 })
                    printAdded(state.savedAll)
                }
            }
            .disposed(by: disposeBag)
    }

    /// A streamed batch: its ids in a pipe, its first tasks and a count on a terminal.
    private func printRun(first: Int64, count: Int, head: [Task]) {
        let console = context.console
        if console.settings.quiet { return }
        if console.terminal.stdoutIsTerminal {
            context.printer.confirm(verb, head, of: count)
        } else {
            var id = first
            let last = first + Int64(count)
            while id < last {
                console.stdout.append { bytes in
                    DecimalText.append(id, to: &bytes)
                    bytes.append(0x0A)
                }
                id += 1
            }
        }
    }

    private func printAdded(_ tasks: [Task]) {
        let console = context.console
        if console.settings.quiet { return }
        if console.settings.isExplicit || console.terminal.stdoutIsTerminal {
            context.printer.report(verb, tasks)
        } else {
            TaskWriter.writeIDs(tasks, to: console.stdout)
        }
    }
}
