/// Records read from one file, with the number each is known by in it (`record 3`, `line 7`).
public struct TaskImportBatch: Equatable, Sendable {
    public var records: [TaskRecord]
    /// What a number counts: "record" (an element of a JSON array) or "line".
    public var unit: String
    /// The number of each record, in order; empty means 1, 2, 3…
    public var numbers: [Int]
    /// Records of another tool's that are no task here but are kept as written, for the way
    /// back (Taskwarrior's recurring templates).
    public var kept: [KeptRecord]

    public init(records: [TaskRecord], unit: String = "record", numbers: [Int] = [], kept: [KeptRecord] = []) {
        self.records = records
        self.unit = unit
        self.numbers = numbers
        self.kept = kept
    }
}

/// A record another tool wrote that has no task here, kept byte for byte by its uuid:
/// Taskwarrior's recurring template, which its export carries and its import expects back,
/// with the series' `mask` brought up to date (`Taskwarrior.template`).
public struct KeptRecord: Equatable, Sendable {
    /// The format it is written in: "taskwarrior".
    public var format: String
    public var uuid: String
    /// The record as written: one JSON object.
    public var body: String

    public init(format: String, uuid: String, body: String) {
        self.format = format
        self.uuid = uuid
        self.body = body
    }
}

/// Records taken one at a time as an import writes them, so that a file of any size is
/// imported in the memory of one record (`tasks import` of our JSON reads its input so).
public protocol TaskRecordSource: AnyObject {
    /// What a number counts: "record" or "line".
    var unit: String { get }
    /// About how many records there are (from the input's size): sizes the write's cache and
    /// journal; 0 when unknown.
    var expectedCount: Int { get }
    /// The next record and its number; nil at the end. Input that cannot be read throws
    /// `TaskImportInputError`.
    func next() throws -> (record: TaskRecord, number: Int)?
    /// The records kept as written (read once the records are), written in the same transaction.
    var kept: [KeptRecord] { get }
}

extension TaskRecordSource {
    public var kept: [KeptRecord] { [] }
}

/// Why an import's input could not be read (not JSON where a record should be, a read that
/// failed), worded for the user: `line 3, column 5: … (in record 2)`.
public struct TaskImportInputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// The records of a batch read whole, as a source.
public final class TaskBatchSource: TaskRecordSource {
    public let unit: String
    public var expectedCount: Int { records.count }
    private let records: [TaskRecord]
    private let numbers: [Int]
    public let kept: [KeptRecord]
    private var index = 0

    public init(_ batch: TaskImportBatch) {
        unit = batch.unit
        records = batch.records
        numbers = batch.numbers
        kept = batch.kept
    }

    public func next() -> (record: TaskRecord, number: Int)? {
        guard index < records.count else { return nil }
        defer { index += 1 }
        return (records[index], index < numbers.count ? numbers[index] : index + 1)
    }
}
