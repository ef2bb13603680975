import TextFormats
import TaskModel

/// Writing tasks out in an interchange format, a task at a time.
public struct ExportWriter {
    public let format: InterchangeFormat
    /// Whether the format is JSON (ours or Taskwarrior's), which escapes every control itself.
    public var writesJSON: Bool { format == .json || format == .taskwarrior }
    private let localTime: CachedLocalTime
    private var count = 0
    private var notKept = NotKept()
    /// Taskwarrior's recurring templates an import kept, written at the end (`taskwarrior`):
    /// each whose series the export holds an instance of, when Taskwarrior needs it back
    /// (`Taskwarrior.template`), its mask saying what they are now.
    public var kept: [KeptRecord] = []
    private var marks = Taskwarrior.Marks()

    /// The columns of `csv`, in the order `CSVRow` writes them: the id, the uuid, then every
    /// field of `TaskFields.all` by its name.
    static let csvColumns = ["id", "uuid"] + TaskFields.all.map(\.name)

    public init(format: InterchangeFormat, localTime: LocalTime) {
        self.format = format
        self.localTime = CachedLocalTime(localTime)
    }

    /// What comes before the first task.
    public func begin(to bytes: inout [UInt8]) {
        switch format {
        case .json, .taskwarrior: bytes.append(UInt8(ascii: "["))
        case .csv: bytes.append(contentsOf: CSV.line(ExportWriter.csvColumns).utf8)
        case .todotxt: break
        }
    }

    /// One task, as given (a view that writes to a terminal escapes it first).
    public mutating func append(_ task: Task, to bytes: inout [UInt8]) {
        switch format {
        case .json, .taskwarrior:
            bytes.append(contentsOf: count == 0 ? [0x0A] : [0x2C, 0x0A])
            if format == .json {
                TaskJSON.append(task, to: &bytes)
            } else {
                Taskwarrior.append(task, localTime: localTime, to: &bytes, notKept: &notKept)
                Taskwarrior.mark(task, into: &marks)
            }
        case .csv:
            CSVRow.append(task, to: &bytes)
        case .todotxt:
            TodoTxt.append(task, localTime: localTime, notKept: &notKept, to: &bytes)
        }
        count += 1
    }

    /// What comes after the last task: Taskwarrior's templates, then the end.
    public mutating func end(to bytes: inout [UInt8]) {
        if format == .taskwarrior {
            for record in kept where record.format == "taskwarrior" {
                guard let marks = marks[record.uuid], let template = Taskwarrior.template(record.body, marks: marks) else { continue }
                bytes.append(contentsOf: count == 0 ? [0x0A] : [0x2C, 0x0A])
                bytes.append(contentsOf: template.utf8)
                count += 1
            }
        }
        switch format {
        case .json, .taskwarrior: bytes.append(contentsOf: count == 0 ? [0x5D, 0x0A] : [0x0A, 0x5D, 0x0A])
        case .csv, .todotxt: break
        }
    }

    /// What the format could not hold, for a warning: `notes (3 tasks)`.
    public var notKeptLines: [String] { notKept.lines }
}

/// Every field of a task as one RFC 4180 row, in the order of `ExportWriter.csvColumns`: each
/// as its kind writes it as text (`FieldKind.plainText`), `extras` as the JSON object it holds.
enum CSVRow {
    static func append(_ task: Task, to bytes: inout [UInt8]) {
        var fields = [String(task.id), task.uuid]
        for spec in TaskFields.all {
            if spec.field == .extras {
                fields.append(task.extras.isEmpty ? "" : "{" + task.extras + "}")
            } else {
                fields.append(spec.kind.plainText(spec.stored(task)))
            }
        }
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            CSV.append(field, to: &bytes)
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
    }
}
