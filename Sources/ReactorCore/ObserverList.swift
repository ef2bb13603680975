/// The observers of a subject, in subscription order, with stable keys for removal.
struct ObserverList<Element> {
    private(set) var entries: [(key: UInt64, observer: AnyObserver<Element>)] = []
    private var nextKey: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }

    var count: Int { entries.count }

    mutating func insert(_ observer: AnyObserver<Element>) -> UInt64 {
        defer { nextKey += 1 }
        entries.append((nextKey, observer))
        return nextKey
    }

    mutating func remove(_ key: UInt64) {
        if let index = entries.firstIndex(where: { $0.key == key }) { entries.remove(at: index) }
    }

    mutating func removeAll() { entries = [] }
}
