// MARK: - Bridges to Swift concurrency

extension Observable where Element: Sendable {
    /// The result of an `async` closure as a one-element sequence, run in a new `Task` for each
    /// subscriber; disposing cancels the task, and nothing is delivered after that.
    ///
    /// Events arrive on the task's executor: add `observe(on:)` to bring them elsewhere.
    public static func fromAsync(
        priority: TaskPriority? = nil,
        _ body: @escaping @Sendable () async throws -> Element
    ) -> Observable<Element> {
        Producer { observer in
            let cancelled = BooleanDisposable()
            let target = UncheckedSendable(observer)
            let task = Task(priority: priority) {
                do {
                    let element = try await body()
                    if cancelled.isDisposed || Task.isCancelled { return }
                    target.value.onNext(element)
                    target.value.onCompleted()
                } catch {
                    if cancelled.isDisposed || Task.isCancelled { return }
                    target.value.onError(error)
                }
            }
            return Disposables.create {
                cancelled.dispose()
                task.cancel()
            }
        }
    }

    /// The elements as an `AsyncThrowingStream`, for `for try await`; leaving the loop (or
    /// cancelling the task) disposes the subscription. Elements are buffered, none dropped.
    public var values: AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let subscription = self.subscribe(
                onNext: { continuation.yield($0) },
                onError: { continuation.finish(throwing: $0) },
                onCompleted: { continuation.finish() }
            )
            let held = UncheckedSendable(subscription)
            continuation.onTermination = { _ in held.value.dispose() }
        }
    }
}
