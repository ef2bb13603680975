/// A value (an event, usually) and the virtual time it happened at.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When, in ticks of the test scheduler.
    public let time: TestTime
    /// What.
    public let value: Value

    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
    /// `.next(element)` at `time`.
    public static func next<T>(_ time: TestTime, _ element: T) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .next(element))
    }

    /// `.completed` at `time`.
    public static func completed<T>(_ time: TestTime, _: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .completed)
    }

    /// `.error(error)` at `time`.
    public static func error<T>(_ time: TestTime, _ error: any Error, _: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .error(error))
    }

    /// The events given, typed: `Recorded.events(.next(210, 2), .completed(250))`.
    public static func events<T>(_ recordedEvents: Recorded<Event<T>>...) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }

    /// The events given, typed.
    public static func events<T>(_ recordedEvents: [Recorded<Event<T>>]) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }
}

/// When a test observable was subscribed and unsubscribed, in ticks (`Int.max`: still subscribed).
public struct Subscription: Hashable, CustomDebugStringConvertible {
    public let subscribe: TestTime
    public let unsubscribe: TestTime

    public init(_ subscribe: TestTime, _ unsubscribe: TestTime = .max) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    public var debugDescription: String {
        "(\(subscribe): \(unsubscribe == .max ? "Infinity" : String(unsubscribe)))"
    }
}

/// An observable a test made from recorded events, which remembers its subscriptions.
public class TestableObservable<Element>: Observable<Element> {
    /// Each subscription's start and end.
    public internal(set) var subscriptions: [Subscription] = []
    /// The events it emits.
    public let recordedEvents: [Recorded<Event<Element>>]
    let scheduler: TestScheduler

    init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.scheduler = scheduler
        self.recordedEvents = recordedEvents
    }

    /// Records a subscription starting now; returns the disposable that records its end.
    func recordSubscription(then dispose: @escaping () -> Void) -> any Disposable {
        subscriptions.append(Subscription(scheduler.clock))
        let index = subscriptions.count - 1
        return Disposables.create { [weak self] in
            dispose()
            guard let self else { return }
            self.subscriptions[index] = Subscription(self.subscriptions[index].subscribe, self.scheduler.clock)
        }
    }
}

/// Emits its events at their absolute times to whoever is subscribed at that moment.
final class HotObservable<Element>: TestableObservable<Element> {
    private var observers = ObserverList<Element>()

    override init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(scheduler: scheduler, recordedEvents: recordedEvents)
        // The scheduler holds the observable until its last event, as RxTest's does.
        for recorded in recordedEvents {
            scheduler.scheduleAt(recorded.time) { [self] in
                for entry in observers.entries { entry.observer.on(recorded.value) }
            }
        }
    }

    override package func run(_ observer: AnyObserver<Element>) -> any Disposable {
        let key = observers.insert(observer)
        return recordSubscription { [weak self] in self?.observers.remove(key) }
    }
}

/// Emits its events at their times after each subscription.
final class ColdObservable<Element>: TestableObservable<Element> {
    override package func run(_ observer: AnyObserver<Element>) -> any Disposable {
        let cancelled = BooleanDisposable()
        for recorded in recordedEvents {
            scheduler.scheduleAt(scheduler.clock + recorded.time) {
                if !cancelled.isDisposed { observer.on(recorded.value) }
            }
        }
        return recordSubscription { cancelled.dispose() }
    }
}

/// An observer that records each event with the virtual time it arrived at.
public final class TestableObserver<Element>: ObserverType {
    private unowned let scheduler: TestScheduler
    /// Every event, in order, with its time.
    public private(set) var events: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) { self.scheduler = scheduler }

    public func on(_ event: Event<Element>) {
        events.append(Recorded(time: scheduler.clock, value: event))
    }
}

extension Event: Equatable where Element: Equatable {
    /// Errors are equal when they describe themselves the same way (as RxTest compares them on
    /// Linux).
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.next(let a), .next(let b)): return a == b
        case (.error(let a), .error(let b)): return String(describing: a) == String(describing: b)
        case (.completed, .completed): return true
        default: return false
        }
    }
}
