/// A state property whose every assignment is an event, even of an equal value: an alert to
/// show, an editor to open. Observe it with `reactor.pulse(\.$property)`.
@propertyWrapper
public struct Pulse<Value> {
    /// The value last assigned.
    public var value: Value {
        didSet { valueUpdatedCount &+= 1 }
    }

    /// How many times a value was assigned; what `pulse(_:)` watches.
    public internal(set) var valueUpdatedCount: UInt = 0

    /// A pulse holding `wrappedValue`, not yet assigned.
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }

    /// The pulse itself, for `reactor.pulse(\.$property)`.
    public var projectedValue: Pulse<Value> { self }
}

extension Pulse: Equatable where Value: Equatable {}
extension Pulse: Sendable where Value: Sendable {}
