/// What the fake service fails with when told to (`FakeTaskService.failNext`).
public struct FakeFailure: Error, Equatable, CustomStringConvertible {
    public init() {}
    public var description: String { "the fake service was told to fail" }
}
