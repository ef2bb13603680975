import ReactorCore
import TaskReactors

/// `tasks list`: the sections of `TaskListReactor` once loaded, in the chosen format.
final class ListView: CommandView, View {
    @Reacting var reactor: TaskListReactor?

    func bind(reactor: TaskListReactor) {
        reactor.whenLoaded(reporting: context.status, disposedBy: disposeBag) { [unowned self] state in
            let settings = context.console.settings
            if state.sections.isEmpty && settings.format == .table {
                if !settings.quiet { context.console.stdout.write("No tasks.\n") }
                return
            }
            context.printer.writer.write(state.sections)
        }
    }
}

extension TaskListReactor {
    /// Runs `body` with the state each time loading ends, unless the run has failed; every
    /// failure pulse goes to `status`.
    func whenLoaded(reporting status: ExitStatus, disposedBy bag: DisposeBag, _ body: @escaping (State) -> Void) {
        reportFailures(to: status, disposedBy: bag)
        state.map(\.isLoading).distinctUntilChanged().skip(1).filter { !$0 }
            .bind { [unowned self] _ in if !status.failed { body(currentState) } }
            .disposed(by: bag)
    }

    /// Every failure pulse, to `status`.
    func reportFailures(to status: ExitStatus, disposedBy bag: DisposeBag) {
        pulse(\.$failure).compactMap { $0 }.bind { status.fail($0) }.disposed(by: bag)
    }
}
