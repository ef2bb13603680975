import Synchronization

/// A subscription or any other resource that can be released. Disposing twice is harmless.
public protocol Disposable {
    /// Releases the resource; stops the events of a subscription.
    func dispose()
}

extension Disposable {
    /// Adds this disposable to `bag`, to be disposed when the bag is.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}

/// Factories of the usual disposables.
public enum Disposables {
    /// A disposable that does nothing.
    public static func create() -> any Disposable { NopDisposable.instance }

    /// A disposable that runs `action` once, on its first disposal.
    public static func create(with action: @escaping () -> Void) -> any Disposable {
        AnonymousDisposable(action)
    }

    /// A disposable that disposes all of `disposables` together.
    public static func create(_ disposables: any Disposable...) -> any Disposable {
        CompositeDisposable(disposables)
    }
}

/// The disposable of a subscription that holds nothing, e.g. to a `just`.
final class NopDisposable: Disposable, Sendable {
    static let instance = NopDisposable()
    func dispose() {}
}

/// Runs an action on its first disposal only.
final class AnonymousDisposable: Disposable, @unchecked Sendable {
    private let lock = Lock()
    private var action: (() -> Void)?

    init(_ action: @escaping () -> Void) { self.action = action }

    func dispose() {
        let action = lock.withLock { () -> (() -> Void)? in
            defer { self.action = nil }
            return self.action
        }
        action?()
    }
}

/// Tells whether it was disposed; holds nothing else.
public final class BooleanDisposable: Disposable, Sendable {
    private let flag = Atomic<Bool>(false)

    /// Makes a disposable that is not yet disposed.
    public init() {}

    /// Whether `dispose()` was called.
    public var isDisposed: Bool { flag.load(ordering: .acquiring) }

    public func dispose() { flag.store(true, ordering: .releasing) }
}

/// Holds one disposable that may be set after it was disposed (a synchronous source can end
/// the subscription before `subscribe` returned its disposable): the late one is disposed at once.
public final class SingleAssignmentDisposable: Disposable, @unchecked Sendable {
    private let slot = DisposableSlot()

    /// Makes an empty holder.
    public init() {}

    /// Whether `dispose()` was called.
    public var isDisposed: Bool { slot.isDisposed }

    /// Sets the held disposable; disposes it at once when the holder is already disposed.
    public func setDisposable(_ disposable: any Disposable) {
        slot.put(disposable, disposingOld: false)?.dispose()
    }

    public func dispose() { slot.dispose() }
}

/// Holds one disposable at a time; setting a new one disposes the previous one.
public final class SerialDisposable: Disposable, @unchecked Sendable {
    private let slot = DisposableSlot()

    /// Makes an empty holder.
    public init() {}

    /// Whether `dispose()` was called.
    public var isDisposed: Bool { slot.isDisposed }

    /// Replaces the held disposable, disposing the one it held (or the new one, once disposed).
    public func setDisposable(_ disposable: any Disposable) {
        slot.put(disposable, disposingOld: true)?.dispose()
    }

    public func dispose() { slot.dispose() }
}

/// One disposable held under a lock until the holder is disposed: what the single-assignment
/// and serial holders share.
final class DisposableSlot: @unchecked Sendable {
    private let lock = Lock()
    private var current: (any Disposable)?
    private var disposed = false

    var isDisposed: Bool { lock.withLock { disposed } }

    /// Puts `disposable` in; returns what the caller must dispose: `disposable` itself once
    /// the slot is disposed, else — with `disposingOld` — the one it replaced.
    func put(_ disposable: any Disposable, disposingOld: Bool) -> (any Disposable)? {
        lock.withLock {
            if disposed { return disposable }
            defer { current = disposable }
            return disposingOld ? current : nil
        }
    }

    /// Disposes the held one, once.
    func dispose() {
        let held = lock.withLock { () -> (any Disposable)? in
            if disposed { return nil }
            disposed = true
            defer { current = nil }
            return current
        }
        held?.dispose()
    }
}

/// A set of disposables disposed together; one added after disposal is disposed at once.
public final class CompositeDisposable: Disposable, @unchecked Sendable {
    /// Identifies an added disposable, to remove it again when it ended on its own.
    public struct Key: Hashable, Sendable { fileprivate let value: UInt64 }

    private let lock = Lock()
    private var items: [UInt64: any Disposable] = [:]
    private var nextKey: UInt64 = 0
    private var disposed = false

    /// Makes a composite of `disposables`.
    public init(_ disposables: [any Disposable] = []) {
        for disposable in disposables { _ = insert(disposable) }
    }

    /// The number of disposables held.
    public var count: Int { lock.withLock { items.count } }

    /// Whether `dispose()` was called.
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// Adds a disposable; returns `nil` (having disposed it) when the composite is disposed.
    @discardableResult
    public func insert(_ disposable: any Disposable) -> Key? {
        let key = lock.withLock { () -> Key? in
            if disposed { return nil }
            defer { nextKey += 1 }
            items[nextKey] = disposable
            return Key(value: nextKey)
        }
        if key == nil { disposable.dispose() }
        return key
    }

    /// Removes and disposes the disposable added under `key`.
    public func remove(for key: Key) {
        let item = lock.withLock { items.removeValue(forKey: key.value) }
        item?.dispose()
    }

    public func dispose() {
        let all = lock.withLock { () -> [any Disposable] in
            if disposed { return [] }
            disposed = true
            defer { items = [:] }
            return Array(items.values)
        }
        for item in all { item.dispose() }
    }
}

/// Disposes what it holds when it is deallocated — RxSwift's way of tying subscriptions to an
/// owner's lifetime. Replace the bag (`disposeBag = DisposeBag()`) to dispose early.
public final class DisposeBag: @unchecked Sendable {
    private let lock = Lock()
    private var disposables: [any Disposable] = []
    private var disposed = false

    /// Makes an empty bag.
    public init() {}

    /// Adds a disposable; a bag that is being deallocated disposes it at once.
    public func insert(_ disposable: any Disposable) {
        let disposeNow = lock.withLock { () -> Bool in
            if disposed { return true }
            disposables.append(disposable)
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    deinit {
        let all = lock.withLock { () -> [any Disposable] in
            disposed = true
            defer { disposables = [] }
            return disposables
        }
        for disposable in all { disposable.dispose() }
    }
}
