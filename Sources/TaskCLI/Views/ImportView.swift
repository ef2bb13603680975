import ReactorCore
import TaskInterchange
import TaskModel
import TaskReactors

/// The import screen: a progress line while a large file is written, then what happened —
/// with what the file held that has no place here — or why nothing was imported.
final class ImportView: CommandView, View {
    var reactor: TaskImportReactor? { didSet { reactorDidChange() } }
    private let file: ImportedFile
    /// `'tasks.json'` or `stdin`, for messages.
    private let source: String

    /// Read while it is written: its count is known only at the end.
    private let streamed: Bool

    init(context: ViewContext, file: ImportedFile, source: String, streamed: Bool = false) {
        self.file = file
        self.source = source
        self.streamed = streamed
        super.init(context: context)
    }

    func bind(reactor: TaskImportReactor) {
        reactor.pulse { $0.$validationError }
            .compactMap { $0 }
            .bind { [unowned self] error in
                context.status.fail(.usage("cannot import \(source): \(error); nothing was imported"))
            }
            .disposed(by: disposeBag)

        reactor.pulse { $0.$inputError }
            .compactMap { $0 }
            .bind { [unowned self] error in
                context.status.fail(.usage("cannot import \(source): \(error); nothing was imported"))
            }
            .disposed(by: disposeBag)

        reactor.pulse { $0.$failure }
            .compactMap { $0 }
            .bind { [unowned self] failure in context.status.fail(failure) }
            .disposed(by: disposeBag)

        reactor.state.map { $0.importing }.distinctUntilChanged().skip(1)
            .bind { [unowned self] count in
                guard let count else { return context.console.progress(nil) }  // (nothing, when nothing was shown)
                // A stream's count is its size over a task's: about, so not printed.
                guard count >= 1000 else { return }
                context.console.progress(streamed ? "Importing tasks…" : "Importing \(count) tasks…")
            }
            .disposed(by: disposeBag)

        reactor.state.compactMap { $0.result }.take(1)
            .bind { [unowned self] result in printResult(result) }
            .disposed(by: disposeBag)
    }

    /// On stderr (a message, not a result): `Imported 3 tasks from 'a.json': 2 new, 1 updated.`
    private func printResult(_ result: TaskImportResult) {
        if context.console.settings.quiet { return }
        if !file.skipped.isEmpty {
            context.console.warn("not imported: \(file.skipped.joined(separator: ", "))")
        }
        if !file.keptAside.isEmpty {
            context.console.message("tasks: note: kept as written, for the way back (no field here yet): \(file.keptAside.joined(separator: ", "))")
        }
        if !file.notKept.isEmpty {
            context.console.warn("no place here for: \(file.notKept.joined(separator: ", "))")
        }
        let total = result.created + result.updated + result.unchanged + result.deleted
        context.console.message("Imported \(total) task\(total == 1 ? "" : "s") from \(source): "
                       + "\(result.created) new, \(result.updated) updated, \(result.unchanged) unchanged"
                       + (result.deleted > 0 ? ", \(result.deleted) deleted (tasks list status:deleted)." : "."))
    }
}
