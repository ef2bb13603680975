import ReactorCore

/// What every command's view has: its bindings, its reactor, and the run's context. A
/// command's view subclasses it and overrides `bind(reactor:)`.
class CommandView<R: ReactorCore.Reactor>: View {
    var disposeBag = DisposeBag()
    @Reacting var reactor: R?
    let context: ViewContext

    init(context: ViewContext) { self.context = context }

    /// Binds the reactor's state to what the command prints; overridden by each view.
    func bind(reactor: R) {}
}
