/// Stands in for a reactor's logic when testing a view: the actions the view sends are
/// recorded, and the state is whatever the test sets. `mutate` and `reduce` never run.
public final class Stub<R: Reactor> {
    /// The state the view sees; set `stub.state.value` to drive the view.
    public let state: StateRelay<R.State>
    /// Where the view's actions go while stubbed.
    public let action = ActionSubject<R.Action>()
    /// Every action sent while stubbed, in order.
    public private(set) var actions: [R.Action] = []
    private var subscription: (any Disposable)?

    init(initialState: R.State) {
        state = StateRelay(value: initialState)
        subscription = action.subscribe(onNext: { [weak self] in self?.actions.append($0) })
    }

    deinit { subscription?.dispose() }
}
