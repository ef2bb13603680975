import ReactorCore
import TaskModel
import TaskReactors

/// `tasks edit`: what was changed, or why not.
final class EditView: CommandView, View {
    var reactor: TaskEditReactor? { didSet { reactorDidChange() } }

    func bind(reactor: TaskEditReactor) {
        bindFailures(of: reactor, to: context.status, disposedBy: disposeBag)
        reactor.state.filter { $0.isDismissed }.take(1)
            .bind { [unowned self] state in
                if let task = state.saved {
                    context.printer.warnAboutDates([task])
                    context.printer.report("Changed", [task])
                }
            }
            .disposed(by: disposeBag)
    }
}
