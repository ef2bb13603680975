// MARK: - Sharing one run among subscribers

extension Observable {
    /// One run of this sequence shared by all current subscribers, connected by the first and
    /// disconnected when the last leaves; a new subscriber first gets the last `replay` elements.
    public func share(replay: Int = 0) -> Observable<Element> {
        let shared = ShareReplay(source: self, bufferSize: max(0, replay))
        return Producer { observer in shared.subscribe(observer) }
    }
}

/// The state of one shared run: its subscribers, the elements kept for the next one, the
/// connection to the source.
final class ShareReplay<Element>: @unchecked Sendable {
    private let source: Observable<Element>
    private let bufferSize: Int
    private let lock = Lock()
    private var observers: [UInt64: AnyObserver<Element>] = [:]
    private var nextKey: UInt64 = 0
    private var buffer: [Element] = []
    private var connection: (any Disposable)?
    private var connecting = false

    init(source: Observable<Element>, bufferSize: Int) {
        self.source = source
        self.bufferSize = bufferSize
    }

    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        lock.lock()
        let replayed = buffer
        let key = nextKey
        nextKey += 1
        observers[key] = observer
        let connect = connection == nil && !connecting
        if connect { connecting = true }
        lock.unlock()

        for element in replayed { observer.onNext(element) }
        if connect {
            let subscription = source.run(AnyObserver { [self] event in forward(event) })
            let disposeNow = lock.withLock { () -> Bool in
                connecting = false
                if observers.isEmpty { return true }
                connection = subscription
                return false
            }
            if disposeNow { subscription.dispose() }
        }
        return Disposables.create { [self] in remove(key) }
    }

    private func forward(_ event: Event<Element>) {
        lock.lock()
        let current = Array(observers.values)
        switch event {
        case .next(let element):
            if bufferSize > 0 {
                buffer.append(element)
                if buffer.count > bufferSize { buffer.removeFirst(buffer.count - bufferSize) }
            }
        case .error, .completed:
            // The run ended: the next subscriber starts a fresh one.
            observers = [:]
            buffer = []
            connection = nil
        }
        lock.unlock()
        for observer in current { observer.on(event) }
    }

    private func remove(_ key: UInt64) {
        let disconnect = lock.withLock { () -> (any Disposable)? in
            guard observers.removeValue(forKey: key) != nil, observers.isEmpty else { return nil }
            buffer = []
            defer { connection = nil }
            return connection
        }
        disconnect?.dispose()
    }
}
