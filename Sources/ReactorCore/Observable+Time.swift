// MARK: - Time and scheduling

extension Observable {
    /// Each element and the completion, `dueTime` later on `scheduler`; a failure passes at once
    /// and drops what was still waiting.
    public func delay(_ dueTime: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        Producer { observer in
            let pending = CompositeDisposable()
            let lock = Lock()
            var stopped = false
            let upstream = self.run(AnyObserver { event in
                switch event {
                case .next, .completed:
                    var key: CompositeDisposable.Key?
                    var ran = false
                    let work = scheduler.schedule(after: dueTime) {
                        let deliver = lock.withLock { () -> Bool in
                            ran = true
                            return !stopped
                        }
                        if let key { pending.remove(for: key) }
                        if deliver { observer.on(event) }
                    }
                    if !lock.withLock({ ran }) { key = pending.insert(work) }
                case .error:
                    lock.withLock { stopped = true }
                    pending.dispose()
                    observer.on(event)
                }
            })
            return Disposables.create(upstream, pending)
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
