import ReactorCore
import TaskModel
import TaskReactors

/// What every view of `TaskEditReactor` reports: a failed service call, and a field the
/// editor refused — in a batch of titles, named by its number (`line 3`).
func bindFailures(of reactor: TaskEditReactor, to status: ExitStatus, itemName: String = "title", count: Int = 1,
                  disposedBy bag: DisposeBag) {
    reactor.pulse { $0.$validationError }.compactMap { $0 }
        .bind { error in
            if case .inItem(let number, let inner) = error {
                status.fail(.usage(count > 1 ? "\(itemName) \(number): \(inner); nothing was added" : inner.description))
            } else {
                status.fail(error)
            }
        }
        .disposed(by: bag)
    reactor.pulse { $0.$failure }.compactMap { $0 }.bind { status.fail($0) }.disposed(by: bag)
}

extension TaskEditReactor.State {
    /// The task being edited, once loaded.
    var task: Task? {
        if case .edit(let task) = mode { return task }
        return nil
    }
}
