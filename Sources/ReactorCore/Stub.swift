/// Stands in for a reactor's logic when testing a view: the actions the view sends are
/// recorded, and the state is whatever the test sets. `mutate` and `reduce` never run.
public final class Stub<Reactor: ReactorCore.Reactor> {
    private unowned let reactor: Reactor
    private let core: StubCore<Reactor.Action, Reactor.State>

    init(reactor: Reactor, core: StubCore<Reactor.Action, Reactor.State>) {
        self.reactor = reactor
        self.core = core
    }

    /// Whether the reactor is stubbed; `reactor.isStubEnabled` says the same.
    @available(*, deprecated, message: "Use 'Reactor.isStubEnabled' instead.")
    public var isEnabled: Bool {
        get { reactor.isStubEnabled }
        set { reactor.isStubEnabled = newValue }
    }

    /// The state the view sees; set `stub.state.value` to drive the view.
    public var state: StateRelay<Reactor.State> { core.state }
    /// Where the view's actions go while stubbed.
    public var action: ActionSubject<Reactor.Action> { core.action }
    /// Every action sent while stubbed, in order.
    public var actions: [Reactor.Action] { core.actions }
}

/// What a stub holds, kept in the reactor's storage: one per reactor, whatever type the
/// reactor is seen as.
final class StubCore<Action, State> {
    let state: StateRelay<State>
    let action = ActionSubject<Action>()
    private(set) var actions: [Action] = []
    private var subscription: (any Disposable)?

    init(initialState: State) {
        state = StateRelay(value: initialState)
        subscription = action.subscribe(onNext: { [weak self] in self?.actions.append($0) })
    }

    deinit { subscription?.dispose() }
}
