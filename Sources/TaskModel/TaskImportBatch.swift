/// Records read from one file, with the number each is known by in it (`record 3`, `line 7`).
public struct TaskImportBatch: Equatable, Sendable {
    public var records: [TaskRecord]
    /// What a number counts: "record" (an element of a JSON array) or "line".
    public var unit: String
    /// The number of each record, in order; empty means 1, 2, 3…
    public var numbers: [Int]

    public init(records: [TaskRecord], unit: String = "record", numbers: [Int] = []) {
        self.records = records
        self.unit = unit
        self.numbers = numbers
    }
}
