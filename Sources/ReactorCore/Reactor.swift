/// A reactor turns a view's actions into state, one way: action → mutate → mutation →
/// reduce → state. The names, defaults and semantics are ReactorKit's, and so is the source:
/// a reactor written for ReactorKit compiles unchanged.
///
/// ```swift
/// class CounterViewReactor: Reactor {
///     enum Action { case increase }
///     enum Mutation { case increaseValue }
///     struct State { var value = 0 }
///
///     let initialState = State()
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
/// The reactor's streams live in a `ReactorStorage` the reactor declares —
/// `let reactorStorage = Storage()` — freed with it. Code written for ReactorKit declares none:
/// `import ReactorKitCompat` finds one per instance in a table (`InstanceTable`), at the cost
/// of a lookup on every use of `action`, `state` and `currentState`.
///
/// The guarantees, each pinned by a test:
/// - `state` is one observable per reactor; it replays the current state to each subscriber;
/// - `currentState` holds the reduced state as soon as `action.onNext` returns, when `mutate`
///   is synchronous — `send(_:)` names this: it returns that state;
/// - an error in one action's `mutate` ends that action's mutations only;
/// - an action sent while another is being handled (from `reduce` or a state subscriber, or
///   from another thread) runs after it, never interleaved;
/// - `reduce(state: consuming State, …)` is handed a state no one else holds, so
///   `var state = state` followed by a change to one element of a large array changes it in
///   place instead of copying it.
public protocol Reactor: AnyObject {
    /// What happened: a user's gesture, a command.
    associatedtype Action
    /// What changes in the state. Defaults to `Action`.
    associatedtype Mutation = Action
    /// Everything a view shows.
    associatedtype State

    /// ReactorKit 3.2's name for the type of `scheduler`.
    typealias Scheduler = ImmediateSchedulerType

    /// The state before any action.
    var initialState: State { get }

    /// Where actions are handled and the state is reduced and emitted. The default, the
    /// current-thread scheduler, handles each action on the thread that sends it (queued
    /// behind the one being handled); any other scheduler moves that work onto itself.
    var scheduler: any ImmediateSchedulerType { get }

    /// Where the reactor keeps its streams: declared, `let reactorStorage = Storage()`, or —
    /// with ReactorKitCompat, for code written for ReactorKit — found per instance.
    var reactorStorage: ReactorStorage<Action, Mutation, State> { get }

    /// Transforms the action stream, e.g. to merge in actions from elsewhere.
    func transform(action: Observable<Action>) -> Observable<Action>

    /// The mutations an action causes; the place for side effects.
    func mutate(action: Action) -> Observable<Mutation>

    /// Transforms the mutation stream, e.g. to merge in a service's events.
    func transform(mutation: Observable<Mutation>) -> Observable<Mutation>

    /// The new state after `mutation`. Pure and total. The state is the reactor's only copy,
    /// given up for the call: `var state = state` and an in-place change costs no copy.
    /// (`reduce(state: State, …)`, as ReactorKit writes it, also satisfies this.)
    func reduce(state: consuming State, mutation: Mutation) -> State

    /// Transforms the state stream. What it emits is `state` and `currentState`; it does not
    /// feed back into `reduce`.
    func transform(state: Observable<State>) -> Observable<State>
}

// MARK: - Defaults, as in ReactorKit

extension Reactor {
    /// The storage type to declare: `let reactorStorage = Storage()`.
    public typealias Storage = ReactorStorage<Action, Mutation, State>

    public var scheduler: any ImmediateSchedulerType { CurrentThreadScheduler.instance }

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
        if storage.isStubEnabled { return storage.stubCore(initialState).action }
        storage.bindIfNeeded(self)
        return storage.actionSubject
    }

    /// The state as it is now.
    public var currentState: State {
        let storage = reactorStorage
        if storage.isStubEnabled { return storage.stubCore(initialState).state.value }
        return storage.currentState ?? initialState
    }

    /// The state stream: the current state at once, then each new state. The same observable
    /// every time.
    public var state: Observable<State> {
        let storage = reactorStorage
        if storage.isStubEnabled { return storage.stubCore(initialState).state }
        storage.bindIfNeeded(self)
        return storage.stateStream
    }

    /// Whether actions are only recorded and the state is set by hand (`stub`), for testing
    /// a view alone. Set it before the first use of `action` or `state`.
    public var isStubEnabled: Bool {
        get { reactorStorage.isStubEnabled }
        set { reactorStorage.isStubEnabled = newValue }
    }

    /// The stub: the actions sent while stubbed, and the state to show.
    public var stub: Stub<Self> {
        Stub(reactor: self, core: reactorStorage.stubCore(initialState))
    }

    /// Sends `action` and returns the state it was reduced to: one call for a program that
    /// runs one action and prints the result (`tasks toggle 3`). With the default scheduler,
    /// on a thread not already inside this reactor, every mutation an action's synchronous
    /// `mutate` emits — and every mutation `transform(mutation:)` merges in meanwhile — has
    /// been reduced when it returns. An asynchronous `mutate` (a timer, another scheduler)
    /// returns the state as it is; subscribe to `state` for what comes later, as a screen does.
    /// (Not ReactorKit's: an addition beside its API.)
    @discardableResult
    public func send(_ action: Action) -> State {
        self.action.onNext(action)
        return currentState
    }

    /// The values of a `@Pulse` property of the state (`reactor.pulse(\.$alert)`): its value
    /// now, then each value assigned — even an equal one — and nothing on other changes.
    public func pulse<Result>(_ transformToPulse: @escaping (State) throws -> Pulse<Result>) -> Observable<Result> {
        // ReactorKit's `distinctUntilChanged(\.valueUpdatedCount).map(\.value)`, with closures:
        // a key path is made at run time, a cost every short-lived command would pay.
        state.map(transformToPulse).distinctUntilChanged({ $0.valueUpdatedCount }, comparer: ==).map { $0.value }
    }
}
