/// Where `move` puts a task.
public enum TaskPlacement: Equatable, Sendable {
    case before(Int64)
    case after(Int64)
    case top
    case bottom
    /// The bottom of another list.
    case list(String)
}
