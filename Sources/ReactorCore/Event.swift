/// One thing an `Observable` tells its observers: a value, a failure, or the end.
///
/// The grammar is RxSwift's: any number of `next`, then at most one `error` or `completed`,
/// after which nothing more arrives.
public enum Event<Element> {
    case next(Element)
    case error(any Error)
    case completed

    /// The element of a `next` event, `nil` for the terminal events.
    public var element: Element? {
        if case .next(let element) = self { return element }
        return nil
    }

    /// Whether the event ends the sequence.
    public var isStopEvent: Bool {
        switch self {
        case .next: return false
        case .error, .completed: return true
        }
    }
}
