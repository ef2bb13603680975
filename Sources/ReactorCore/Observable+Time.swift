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
