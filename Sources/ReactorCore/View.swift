/// A view shows a reactor's state and sends it actions. Assigning `reactor` gives the view a
/// fresh `disposeBag` (dropping the old bindings) and calls `bind(reactor:)`.
///
/// ```swift
/// final class CounterView: View {
///     var disposeBag = DisposeBag()
///     func bind(reactor: CounterReactor) { … }
/// }
/// view.reactor = CounterReactor()   // binds
/// ```
///
/// As in ReactorKit, the protocol provides `reactor`, kept per view and released with it. A
/// view may declare `@Reacting var reactor: MyReactor?` instead, which keeps it in the view, or
/// `var reactor: MyReactor? { didSet { reactorDidChange() } }`, which does the same without
/// the key paths a wrapper of its enclosing instance is handed: those are made at run time, the
/// first time each view class is assigned a reactor (about 0.15 ms, which a short-lived
/// process notices).
public protocol View: AnyObject {
    /// The reactor type the view shows.
    associatedtype Reactor: ReactorCore.Reactor

    /// The view's bindings; replaced whenever `reactor` is assigned.
    var disposeBag: DisposeBag { get set }

    /// The reactor; assigning one renews `disposeBag` and calls `bind(reactor:)`.
    var reactor: Reactor? { get set }

    /// Binds actions and state; called on each assignment of a reactor.
    func bind(reactor: Reactor)
}

/// ReactorKit's later name for `View`.
public typealias ReactorView = View

extension View {
    /// What assigning `reactor` does, for a view that stores its `reactor` itself: call it from
    /// the property's `didSet`. Renews `disposeBag` and binds the reactor now assigned, if any.
    public func reactorDidChange() {
        disposeBag = DisposeBag()
        if let reactor { bind(reactor: reactor) }
    }
}

/// A `reactor` property kept in the view itself: assigning it renews the dispose bag and
/// binds, as the protocol's own `reactor` does, without the per-view lookup.
@propertyWrapper
public struct Reacting<R: Reactor> {
    private var stored: R?

    /// A property holding `wrappedValue`, not bound until assigned.
    public init(wrappedValue: R?) { stored = wrappedValue }

    @available(*, unavailable, message: "@Reacting is for a View's `reactor` property only")
    public var wrappedValue: R? {
        get { stored }
        set { stored = newValue }
    }

    public static subscript<V: View>(
        _enclosingInstance view: V,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<V, R?>,
        storage storageKeyPath: ReferenceWritableKeyPath<V, Reacting<R>>
    ) -> R? where V.Reactor == R {
        get { view[keyPath: storageKeyPath].stored }
        set {
            view[keyPath: storageKeyPath].stored = newValue
            view.disposeBag = DisposeBag()
            if let reactor = newValue { view.bind(reactor: reactor) }
        }
    }
}

/// Equal when identical: for reactors compared as values (ReactorKit's `IdentityEquatable`).
public protocol IdentityEquatable: AnyObject, Equatable {}

extension IdentityEquatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
}

/// Hashed by identity: for reactors kept in sets or as keys (ReactorKit's `IdentityHashable`).
public protocol IdentityHashable: Hashable, IdentityEquatable {}

extension IdentityHashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
