/// A view shows a reactor's state and sends it actions. Assigning `reactor` gives the view a
/// fresh `disposeBag` (dropping the old bindings) and calls `bind(reactor:)`.
///
/// ```swift
/// final class CounterView: View {
///     var disposeBag = DisposeBag()
///     @Reacting var reactor: CounterReactor?
///     func bind(reactor: CounterReactor) { … }
/// }
/// ```
public protocol View: AnyObject {
    /// The reactor type the view shows.
    associatedtype Reactor: ReactorCore.Reactor

    /// The view's bindings; replaced whenever `reactor` is assigned.
    var disposeBag: DisposeBag { get set }

    /// The reactor; declare it `@Reacting var reactor: MyReactor?`.
    var reactor: Reactor? { get set }

    /// Binds actions and state; called on each assignment of a reactor.
    func bind(reactor: Reactor)
}

/// The `reactor` property of a `View`: assigning it renews the dispose bag and binds.
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
