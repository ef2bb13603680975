/// Virtual time, in ticks: what RxTest's `TestScheduler` counts in.
public typealias TestTime = Int

/// A scheduler on virtual time, with RxTest's API and behaviour: nothing runs until the test
/// starts or advances it; then everything due runs in order of due time, ties in order of
/// scheduling. A tick is `resolution` seconds (1 by default). With `simulateProcessingDelay`
/// (the default), work scheduled for now or the past runs one tick later, as in RxTest.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// scheduler.createHotObservable([.next(100, ["action"])]).subscribe(reactor.action).disposed(by: bag)
/// let response = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
/// XCTAssertEqual(response.events, [.next(0, initial), .next(100, after)])
/// ```
public final class TestScheduler: SchedulerType {
    /// When `start(_:)` creates, subscribes and disposes, by default.
    public enum Defaults {
        public static let created = 100
        public static let subscribed = 200
        public static let disposed = 1000
    }

    private struct Item {
        let time: TestTime
        let sequence: Int
        let cancel: BooleanDisposable
        let action: () -> Void
    }

    private var items: [Item] = []
    private var sequence = 0
    private var running = false
    private let resolution: Double
    private let simulateProcessingDelay: Bool

    /// The virtual clock, in ticks.
    public private(set) var clock: TestTime

    /// A scheduler whose clock starts at `initialClock`; one tick is `resolution` seconds.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        clock = initialClock
        self.resolution = resolution
        self.simulateProcessingDelay = simulateProcessingDelay
    }

    // MARK: - SchedulerType

    public var now: Duration { .nanoseconds(Int64((Double(clock) * resolution * 1e9).rounded())) }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        schedule(after: .zero, action)
    }

    @discardableResult
    public func schedule(after dueTime: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let ticks = TestTime((max(dueTime, .zero).seconds / resolution + 0.5).rounded(.down))
        return scheduleAbsolute(adjusted(clock + ticks), action)
    }

    private func adjusted(_ time: TestTime) -> TestTime {
        time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// Runs `action` at virtual time `time` exactly (RxTest's `scheduleAt`).
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        scheduleAbsolute(time, action)
    }

    @discardableResult
    private func scheduleAbsolute(_ time: TestTime, _ action: @escaping () -> Void) -> any Disposable {
        let cancel = BooleanDisposable()
        sequence += 1
        items.append(Item(time: time, sequence: sequence, cancel: cancel, action: action))
        return cancel
    }

    // MARK: - Running

    /// Runs everything scheduled, including what the work schedules, until nothing is left or
    /// `stop()` is called.
    public func start() {
        if running { return }
        running = true
        while running, let index = nextIndex(dueBy: nil) {
            runItem(at: index)
        }
        running = false
    }

    /// Stops `start()` after the work running now.
    public func stop() { running = false }

    /// Runs everything due by `time`, then sets the clock to `time`.
    public func advanceTo(_ time: TestTime) {
        running = true
        while running, let index = nextIndex(dueBy: time) {
            runItem(at: index)
        }
        running = false
        clock = max(clock, time)
    }

    /// Moves the clock forward without running anything.
    public func sleep(_ ticks: TestTime) {
        clock += max(0, ticks)
    }

    /// The number of actions waiting (cancelled ones included until their time comes).
    public var pendingCount: Int { items.count }

    private func runItem(at index: Int) {
        let item = items.remove(at: index)
        if item.time > clock { clock = item.time }
        if !item.cancel.isDisposed { item.action() }
    }

    private func nextIndex(dueBy limit: TestTime?) -> Int? {
        var best: Int?
        for (index, item) in items.enumerated() where !(limit.map { item.time > $0 } ?? false) {
            if let current = best {
                let other = items[current]
                if (item.time, item.sequence) < (other.time, other.sequence) { best = index }
            } else {
                best = index
            }
        }
        return best
    }

    // MARK: - RxTest's factories

    /// An observable that emits `events` at their absolute times, to whoever is subscribed then.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(scheduler: self, recordedEvents: events)
    }

    /// An observable that emits `events` at their times after each subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(scheduler: self, recordedEvents: events)
    }

    /// An observer that records what it receives with the virtual time.
    public func createObserver<Element>(_: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at `disposed`,
    /// runs the scheduler, and returns what the subscription received.
    public func start<Element, Sequence: ObservableConvertibleType>(
        created: TestTime, subscribed: TestTime, disposed: TestTime, create: @escaping () -> Sequence
    ) -> TestableObserver<Element> where Sequence.Element == Element {
        var source: Observable<Element>?
        var subscription: (any Disposable)?
        let observer = createObserver(Element.self)
        scheduleAbsolute(created) { source = create().asObservable() }
        scheduleAbsolute(subscribed) { subscription = source?.subscribe(observer) }
        scheduleAbsolute(disposed) { subscription?.dispose() }
        start()
        return observer
    }

    /// `start` with creation at 100 and subscription at 200.
    public func start<Element, Sequence: ObservableConvertibleType>(
        disposed: TestTime, create: @escaping () -> Sequence
    ) -> TestableObserver<Element> where Sequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// `start` at RxTest's default times: created at 100, subscribed at 200, disposed at 1000.
    public func start<Element, Sequence: ObservableConvertibleType>(
        _ create: @escaping () -> Sequence
    ) -> TestableObserver<Element> where Sequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }
}
