/// Milliseconds since 1970-01-01T00:00:00Z.
public struct Timestamp: Comparable, Hashable, Sendable {
    /// The count of milliseconds since the Unix epoch.
    public var millisecondsSince1970: Int64

    /// A timestamp `millisecondsSince1970` after the epoch.
    public init(millisecondsSince1970: Int64) { self.millisecondsSince1970 = millisecondsSince1970 }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }
}

extension Timestamp {
    /// 1970-01-01T00:00:00Z: the time of a task not yet stored.
    public static let unixEpoch = Timestamp(millisecondsSince1970: 0)
}
