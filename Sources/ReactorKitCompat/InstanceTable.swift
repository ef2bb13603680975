import CReactorSupport

/// A value kept per object for objects that do not store it themselves: a reactor's storage,
/// a view's reactor. What ReactorKit keeps in its weak-keyed map tables.
///
/// Swift has no stored properties in extensions, and Linux has no associated objects, so an
/// entry is keyed by the object's address and removed when the object goes: the first entry
/// for an object of a class installs a deallocation hook in that class (`CReactorSupport`), and
/// the hook removes the object's entries, in every table, just before the object is
/// destroyed. The value is therefore freed with its object, exactly then — no sweep, no
/// growth — and an address reused by a later object can never find an old entry.
///
/// Where a class cannot be hooked (its metadata is not laid out as the hook expects), its
/// entries hold the object weakly and are swept: on every lookup of that object, and of all
/// objects when the table has doubled since the last sweep. The value then lives until the
/// next sweep.
final class InstanceTable: @unchecked Sendable {
    /// Reactors' storages, for reactors that declare none.
    static let reactors = InstanceTable()
    /// Views' reactors, for views that declare no `reactor` of their own.
    static let views = InstanceTable()

    private struct Entry {
        let value: AnyObject
        /// Only for objects of classes that could not be hooked.
        let weakOwner: WeakReference?
    }

    private final class WeakReference {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    private let lock = Lock()
    private var entries: [UInt: Entry] = [:]
    private var unhookedCount = 0
    private var sweepAt = 64

    private init() {
        InstanceTable.registerCallback
    }

    /// The value for `object`, made by `make` the first time.
    func value(for object: AnyObject, default make: () -> AnyObject) -> AnyObject {
        let key = InstanceTable.key(object)
        lock.lock()
        if let entry = entries[key], entry.weakOwner.map({ $0.object === object }) ?? true {
            lock.unlock()
            return entry.value
        }
        lock.unlock()
        // Made outside the lock: making a value may look up other values.
        let made = make()
        let hooked = InstanceTable.hook(object)
        var replaced: [AnyObject] = []
        let value = lock.withLock { () -> AnyObject in
            if let entry = entries[key], entry.weakOwner.map({ $0.object === object }) ?? true { return entry.value }
            if let old = entries[key] { replaced.append(old.value) }
            entries[key] = Entry(value: made, weakOwner: hooked ? nil : WeakReference(object))
            if !hooked {
                unhookedCount += 1
                if entries.count >= sweepAt { replaced += sweepLocked() }
            }
            return made
        }
        _ = replaced  // released here, outside the lock
        return value
    }

    /// The value for `object`, if it has one.
    func existingValue(for object: AnyObject) -> AnyObject? {
        let key = InstanceTable.key(object)
        return lock.withLock {
            guard let entry = entries[key], entry.weakOwner.map({ $0.object === object }) ?? true else { return nil }
            return entry.value
        }
    }

    /// Whether `object`'s entry holds it weakly: its class could not be hooked, so what keeps
    /// a reference to it must not outlive it unchecked. `false` when it has no entry.
    func holdsWeakly(_ object: AnyObject) -> Bool {
        let key = InstanceTable.key(object)
        return lock.withLock { entries[key]?.weakOwner != nil }
    }

    /// Sets (or, with `nil`, removes) the value for `object`.
    func setValue(_ value: AnyObject?, for object: AnyObject) {
        let key = InstanceTable.key(object)
        let hooked = value == nil || InstanceTable.hook(object)
        let old = lock.withLock { () -> AnyObject? in
            let old = entries[key]?.value
            if let value {
                entries[key] = Entry(value: value, weakOwner: hooked ? nil : WeakReference(object))
            } else {
                entries.removeValue(forKey: key)
            }
            return old
        }
        _ = old  // released outside the lock: its deinit may run any code
    }

    /// Removes the entries of objects that are gone (only unhooked entries can be); returns
    /// their values, for the caller to release outside the lock.
    private func sweepLocked() -> [AnyObject] {
        guard unhookedCount > 0 else { return [] }
        var removed: [AnyObject] = []
        for (key, entry) in entries {
            if let owner = entry.weakOwner, owner.object == nil {
                removed.append(entry.value)
                entries.removeValue(forKey: key)
                unhookedCount -= 1
            }
        }
        sweepAt = max(64, entries.count * 2)
        return removed
    }

    /// The object is being destroyed: its entry goes, and its value is released after the lock.
    fileprivate func remove(address: UInt) {
        lock.lock()
        let removed = entries.removeValue(forKey: address)
        lock.unlock()
        _ = removed
    }

    private static func key(_ object: AnyObject) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }

    /// Installs the deallocation hook in `object`'s class; whether its instances report.
    private static func hook(_ object: AnyObject) -> Bool {
        let metadata = unsafeBitCast(type(of: object) as AnyClass, to: UnsafeMutableRawPointer.self)
        return cdeallochook_install(metadata) == 1
    }

    private static let registerCallback: Void = {
        cdeallochook_set_callback { object in
            guard let object else { return }
            let address = UInt(bitPattern: object)
            InstanceTable.reactors.remove(address: address)
            InstanceTable.views.remove(address: address)
        }
    }()
}

// MARK: - ReactorKit's defaults: what a reactor or view that declares nothing gets

extension Reactor {
    /// A storage found per instance in a table and freed with the reactor, as ReactorKit keeps
    /// it (the core asks a reactor to declare `let reactorStorage = Storage()`).
    public var reactorStorage: ReactorStorage<Action, Mutation, State> {
        let found = InstanceTable.reactors.value(for: self) {
            let made = Storage()
            made.holdsReactorWeakly = { InstanceTable.reactors.holdsWeakly($0) }
            return made
        }
        return unsafeDowncast(found, to: Storage.self)
    }
}

extension View {
    /// The reactor, kept per view in a table and released with the view, as ReactorKit keeps
    /// it (a view on the core alone stores it: `@Reacting`, or `didSet { reactorDidChange() }`).
    public var reactor: Reactor? {
        get { InstanceTable.views.existingValue(for: self) as? Reactor }
        set {
            InstanceTable.views.setValue(newValue, for: self)
            disposeBag = DisposeBag()
            if let reactor = newValue { bind(reactor: reactor) }
        }
    }
}
