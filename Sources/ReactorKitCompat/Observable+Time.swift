// MARK: - Time and scheduling

extension Observable {
    /// Each element and the completion, `dueTime` later on `scheduler`, in their order; a
    /// failure passes at once and drops what was still waiting.
    public func delay(_ dueTime: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        Producer { observer in
            let lock = Lock()
            var timers: [UInt64: any Disposable] = [:]
            var firedBeforeStored: Set<UInt64> = []
            var nextID: UInt64 = 0
            // Each timer delivers the oldest waiting event, so that the order holds even when
            // the scheduler runs timers with equal deadlines out of order.
            var waiting: [Event<Element>] = []
            var head = 0
            var stopped = false
            let upstream = self.run(AnyObserver { event in
                switch event {
                case .next, .completed:
                    let id = lock.withLock { () -> UInt64 in
                        waiting.append(event)
                        defer { nextID += 1 }
                        return nextID
                    }
                    let timer = scheduler.schedule(after: dueTime) {
                        let due = lock.withLock { () -> Event<Element>? in
                            if timers.removeValue(forKey: id) == nil { firedBeforeStored.insert(id) }
                            guard !stopped, head < waiting.count else { return nil }
                            defer {
                                head += 1
                                if head == waiting.count {
                                    waiting.removeAll(keepingCapacity: true)
                                    head = 0
                                }
                            }
                            return waiting[head]
                        }
                        if let due { observer.on(due) }
                    }
                    lock.withLock {
                        if firedBeforeStored.remove(id) == nil && !stopped { timers[id] = timer }
                    }
                case .error:
                    cancelAll()
                    observer.on(event)
                }
            })
            func cancelAll() {
                let all = lock.withLock { () -> [any Disposable] in
                    stopped = true
                    waiting = []
                    defer { timers = [:] }
                    return Array(timers.values)
                }
                for timer in all { timer.dispose() }
            }
            return Disposables.create {
                upstream.dispose()
                cancelAll()
            }
        }
    }

    /// `delay` with the time in seconds, as the seeds write it: `.delay(1, scheduler: …)`.
    public func delay(_ seconds: Double, scheduler: any SchedulerType) -> Observable<Element> {
        delay(.nanoseconds(Int64(seconds * 1_000_000_000)), scheduler: scheduler)
    }

    /// Every event delivered on `scheduler`, in order.
    public func observe(on scheduler: any SchedulerType) -> Observable<Element> {
        Producer { observer in
            let pending = CompositeDisposable()
            let upstream = self.run(AnyObserver { event in
                pending.insert(scheduler.schedule { observer.on(event) })
            })
            return Disposables.create(upstream, pending)
        }
    }
}

extension Observable where Element == Int {
    /// 0, 1, 2, … one every `period` on `scheduler`, the first one `period` after subscribing.
    public static func interval(_ period: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Int> {
        timer(period, period: period, scheduler: scheduler)
    }

    /// 0 after `dueTime`, then (with a `period`) 1, 2, … every `period`; without one, completes.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil,
                             scheduler: any SchedulerType) -> Observable<Int> {
        Producer { observer in
            let current = SerialDisposable()
            var count = 0
            func tick(after delay: Duration) {
                current.setDisposable(scheduler.schedule(after: delay) {
                    observer.onNext(count)
                    count += 1
                    if let period {
                        tick(after: period)
                    } else {
                        observer.onCompleted()
                    }
                })
            }
            tick(after: dueTime)
            return current
        }
    }
}

extension Observable {
    /// An element once `dueTime` has passed without another after it; the last one waiting is
    /// sent on completion.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
        Producer { observer in
            let lock = Lock()
            let timer = SerialDisposable()
            var waiting: (id: UInt64, element: Element)?
            var nextID: UInt64 = 0
            let upstream = self.run(AnyObserver { event in
                switch event {
                case .next(let element):
                    let id = lock.withLock { () -> UInt64 in
                        nextID += 1
                        waiting = (nextID, element)
                        return nextID
                    }
                    timer.setDisposable(scheduler.schedule(after: dueTime) {
                        let due = lock.withLock { () -> Element? in
                            guard let current = waiting, current.id == id else { return nil }
                            waiting = nil
                            return current.element
                        }
                        if let due { observer.onNext(due) }
                    })
                case .error:
                    timer.dispose()
                    observer.on(event)
                case .completed:
                    timer.dispose()
                    if let last = lock.withLock({ () -> Element? in defer { waiting = nil }; return waiting?.element }) {
                        observer.onNext(last)
                    }
                    observer.onCompleted()
                }
            })
            return Disposables.create(upstream, timer)
        }
    }

    /// The first element at once, then at most one per `dueTime`: with `latest`, the last
    /// element that came during the window, at its end; without, none of them.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: any SchedulerType) -> Observable<Element> {
        Producer { observer in
            let lock = Lock()
            let timer = SerialDisposable()
            var windowOpen = false
            var pending: Element?
            var completedInWindow = false
            func openWindow() {
                timer.setDisposable(scheduler.schedule(after: dueTime) {
                    let (next, complete) = lock.withLock { () -> (Element?, Bool) in
                        defer { pending = nil }
                        if pending == nil { windowOpen = false }
                        return (pending, completedInWindow)
                    }
                    if let next {
                        observer.onNext(next)
                        if complete { observer.onCompleted() } else { openWindow() }
                    } else if complete {
                        observer.onCompleted()
                    }
                })
            }
            let upstream = self.run(AnyObserver { event in
                switch event {
                case .next(let element):
                    let sendNow = lock.withLock { () -> Bool in
                        if windowOpen {
                            if latest { pending = element }
                            return false
                        }
                        windowOpen = true
                        return true
                    }
                    if sendNow {
                        observer.onNext(element)
                        openWindow()
                    }
                case .error:
                    timer.dispose()
                    observer.on(event)
                case .completed:
                    let waitForWindow = lock.withLock { () -> Bool in
                        completedInWindow = true
                        return pending != nil
                    }
                    if !waitForWindow {
                        timer.dispose()
                        observer.onCompleted()
                    }
                }
            })
            return Disposables.create(upstream, timer)
        }
    }

    /// Subscribes (and disposes the subscription) on `scheduler`.
    public func subscribe(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
        Producer { observer in
            let subscription = SerialDisposable()
            let start = scheduler.schedule {
                subscription.setDisposable(self.run(observer))
            }
            return Disposables.create {
                start.dispose()
                scheduler.schedule { subscription.dispose() }
            }
        }
    }

    /// Prints each subscription, event and disposal, named by `identifier` (RxSwift's
    /// `debug`), on standard output.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false,
                      file: StaticString = #file, line: UInt = #line, function: StaticString = #function) -> Observable<Element> {
        let name = identifier ?? "\(String(describing: file).split(separator: "/").last ?? ""):\(line) (\(function))"
        return Producer { observer in
            func log(_ text: String) {
                let shown = trimOutput && text.count > 40 ? String(text.prefix(37)) + "..." : text
                print("\(name) -> \(shown)")
            }
            log("subscribed")
            let upstream = self.run(AnyObserver { event in
                log("Event \(event)")
                observer.on(event)
            })
            return Disposables.create {
                log("isDisposed")
                upstream.dispose()
            }
        }
    }
}
