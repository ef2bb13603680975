/// A scheduler on virtual time: nothing runs until the test advances the clock, and then
/// everything due runs in order of due time, ties in order of scheduling. `delay` on it is
/// exact and instant.
public final class TestScheduler: SchedulerType {
    private struct Item {
        let dueTime: Duration
        let sequence: UInt64
        let cancel: BooleanDisposable
        let action: () -> Void
    }

    private var items: [Item] = []
    private var sequence: UInt64 = 0
    public private(set) var now: Duration

    /// A scheduler whose clock starts at `initialClock`.
    public init(initialClock: Duration = .zero) {
        now = initialClock
    }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        schedule(after: .zero, action)
    }

    @discardableResult
    public func schedule(after dueTime: Duration, _ action: @escaping () -> Void) -> any Disposable {
        schedule(at: now + max(dueTime, .zero), action)
    }

    /// Runs `action` at the absolute virtual time `time` (at once in the next advance if past).
    @discardableResult
    public func schedule(at time: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let cancel = BooleanDisposable()
        sequence += 1
        items.append(Item(dueTime: time, sequence: sequence, cancel: cancel, action: action))
        return cancel
    }

    /// Moves the clock to `time`, running everything due by then, in order.
    public func advance(to time: Duration) {
        while let index = nextIndex(dueBy: time) {
            let item = items.remove(at: index)
            if item.dueTime > now { now = item.dueTime }
            if !item.cancel.isDisposed { item.action() }
        }
        if time > now { now = time }
    }

    /// Moves the clock forward by `interval`.
    public func advance(by interval: Duration) {
        advance(to: now + interval)
    }

    /// Runs everything scheduled, including what the work schedules, until nothing is left.
    public func start() {
        while let index = nextIndex(dueBy: nil) {
            let item = items.remove(at: index)
            if item.dueTime > now { now = item.dueTime }
            if !item.cancel.isDisposed { item.action() }
        }
    }

    /// The number of actions waiting (cancelled ones included until their time comes).
    public var pendingCount: Int { items.count }

    private func nextIndex(dueBy limit: Duration?) -> Int? {
        var best: Int?
        for (index, item) in items.enumerated() {
            if let limit, item.dueTime > limit { continue }
            if let current = best {
                let other = items[current]
                if (item.dueTime, item.sequence) < (other.dueTime, other.sequence) { best = index }
            } else {
                best = index
            }
        }
        return best
    }

    /// Records every event of `source` with the virtual time it arrived at.
    public func record<Element>(_ source: Observable<Element>) -> TestableObserver<Element> {
        let observer = TestableObserver<Element>(scheduler: self)
        observer.subscription = source.subscribe { [weak observer] event in observer?.record(event) }
        return observer
    }
}

/// An event and the virtual time it happened at.
public struct Recorded<Value> {
    /// When, on the test scheduler's clock.
    public let time: Duration
    /// What.
    public let value: Value

    /// A recorded value.
    public init(time: Duration, value: Value) {
        self.time = time
        self.value = value
    }
}

extension Recorded: Equatable where Value: Equatable {}

/// The events of one subscription with their virtual times, for assertions.
public final class TestableObserver<Element> {
    private unowned let scheduler: TestScheduler
    /// Every event, in order.
    public private(set) var events: [Recorded<Event<Element>>] = []
    var subscription: (any Disposable)?

    init(scheduler: TestScheduler) { self.scheduler = scheduler }

    func record(_ event: Event<Element>) {
        events.append(Recorded(time: scheduler.now, value: event))
    }

    /// The `next` elements with their times, in order.
    public var elements: [Recorded<Element>] {
        events.compactMap { recorded in
            recorded.value.element.map { Recorded(time: recorded.time, value: $0) }
        }
    }

    /// The time of the terminal event, if any, and whether it was completion.
    public var completedAt: Duration? {
        events.last.flatMap { if case .completed = $0.value { return $0.time } else { return nil } }
    }

    /// Stops recording.
    public func dispose() { subscription?.dispose() }
}
