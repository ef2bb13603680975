/// A service call that failed, as state: what the view reports and turns into an exit status.
public struct ServiceFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error the service threw.
    public let error: any Error

    /// A failure wrapping `error`.
    public init(_ error: any Error) { self.error = error }

    public var description: String { String(describing: error) }

    /// Equal when they describe the same error (errors in general are not `Equatable`).
    public static func == (lhs: ServiceFailure, rhs: ServiceFailure) -> Bool {
        lhs.description == rhs.description
    }
}
