/// A reactor turns a view's actions into state, one way: action → mutate → mutation →
/// reduce → state. The names, defaults and semantics are ReactorKit's.
///
/// ```swift
/// final class CounterReactor: Reactor {
///     enum Action { case increase }
///     enum Mutation { case increaseValue }
///     struct State { var value = 0 }
///
///     let initialState = State()
///     let reactorStorage = ReactorStorage<CounterReactor>()
///
///     func mutate(action: Action) -> Observable<Mutation> { .just(.increaseValue) }
///     func reduce(state: State, mutation: Mutation) -> State {
///         var state = state
///         state.value += 1
///         return state
///     }
/// }
/// ```
///
/// Swift has no stored properties in extensions, so a reactor declares one:
/// `let reactorStorage = ReactorStorage<Self>()`, which holds the action subject, the state
/// and the stub.
///
/// The guarantees, each pinned by a test:
/// - `state` replays the current state to each new subscriber;
/// - `currentState` holds the reduced state as soon as `action.onNext` returns, when `mutate`
///   is synchronous;
/// - an error in one action's `mutate` ends that action's mutations only;
/// - an action sent while another is being handled (from `reduce` or a state subscriber)
///   runs after it, never interleaved;
/// - `reduce` is handed a state no one else holds, so `var state = state` followed by a
///   change to one element of a large array changes it in place instead of copying it.
public protocol Reactor: AnyObject {
    /// What happened: a user's gesture, a command.
    associatedtype Action
    /// What changes in the state. Defaults to `Action`.
    associatedtype Mutation = Action
    /// Everything a view shows.
    associatedtype State

    /// The state before any action.
    var initialState: State { get }

    /// Where the reactor keeps its streams; declare it as
    /// `let reactorStorage = ReactorStorage<Self>()`.
    var reactorStorage: ReactorStorage<Self> { get }

    /// Transforms the action stream, e.g. to merge in actions from elsewhere.
    func transform(action: Observable<Action>) -> Observable<Action>

    /// The mutations an action causes; the place for side effects.
    func mutate(action: Action) -> Observable<Mutation>

    /// Transforms the mutation stream, e.g. to merge in a service's events.
    func transform(mutation: Observable<Mutation>) -> Observable<Mutation>

    /// The new state after `mutation`. Pure and total. The state is the reactor's only copy,
    /// given up for the call: `var state = state` and an in-place change costs no copy.
    func reduce(state: consuming State, mutation: Mutation) -> State

    /// Transforms the state stream. What it emits is `state` and `currentState`; it does not
    /// feed back into `reduce`.
    func transform(state: Observable<State>) -> Observable<State>
}

// MARK: - Defaults, as in ReactorKit

extension Reactor {
    public func transform(action: Observable<Action>) -> Observable<Action> { action }

    public func mutate(action: Action) -> Observable<Mutation> { .empty() }

    public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> { mutation }

    public func reduce(state: consuming State, mutation: Mutation) -> State { state }

    public func transform(state: Observable<State>) -> Observable<State> { state }
}

extension Reactor where Action == Mutation {
    public func mutate(action: Action) -> Observable<Mutation> { .just(action) }
}

// MARK: - The streams

extension Reactor {
    /// Where the view sends actions: `reactor.action.onNext(.increase)` or
    /// `button.tap.map { .increase }.bind(to: reactor.action)`.
    public var action: ActionSubject<Action> {
        let storage = reactorStorage
        if storage.isStubEnabled { return stub.action }
        storage.bindIfNeeded(self)
        return storage.actionSubject
    }

    /// The state as it is now.
    public var currentState: State {
        let storage = reactorStorage
        if storage.isStubEnabled { return stub.state.value }
        return storage.currentState ?? initialState
    }

    /// The state stream: the current state at once, then each new state.
    public var state: Observable<State> {
        let storage = reactorStorage
        if storage.isStubEnabled { return stub.state }
        storage.bindIfNeeded(self)
        return storage.stateObservable
    }

    /// Whether actions are only recorded and the state is set by hand (`stub`), for testing
    /// a view alone. Set it before the first use of `action` or `state`.
    public var isStubEnabled: Bool {
        get { reactorStorage.isStubEnabled }
        set { reactorStorage.isStubEnabled = newValue }
    }

    /// The stub: the actions sent while stubbed, and the state to show.
    public var stub: Stub<Self> {
        reactorStorage.stub(initialState: initialState)
    }

    /// The values of a `@Pulse` property of the state, emitted on each assignment — even of an
    /// equal value — and not on other changes. A new subscriber gets no old value.
    public func pulse<Result>(_ keyPath: KeyPath<State, Pulse<Result>>) -> Observable<Result> {
        state.map { $0[keyPath: keyPath] }
            .distinctUntilChanged { $0.valueUpdatedCount == $1.valueUpdatedCount }
            .skip(1)
            .map { $0.value }
    }
}
