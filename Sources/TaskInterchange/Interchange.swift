import TaskModel

/// The formats tasks move in and out in.
public enum InterchangeFormat: String, CaseIterable, Sendable {
    /// Our own: the objects of `tasks list --format json`, every field, lossless.
    case json
    /// Taskwarrior's `task export` / `task import` JSON.
    case taskwarrior
    /// todo.txt, as todo.txt-cli writes it.
    case todotxt
    /// RFC 4180, the columns of `tasks list --format csv` (export only).
    case csv
}

extension InterchangeFormat {
    /// The format called `name`, in any case; `todo.txt` is `todotxt`.
    public init?(named name: String) {
        self.init(rawValue: name.lowercased().replacing(".", with: ""))
    }
}

/// A file read for import: the records, and what it held that has no place here.
public struct ImportedFile: Equatable, Sendable {
    public var batch: TaskImportBatch
    /// Fields with no place here, with how many tasks had them: `wait: 2 tasks`.
    public var notKept: [String]
    /// Records not imported at all, and why: `deleted: 1 task`.
    public var skipped: [String]
    /// Attributes with no field here, kept as they were written (in `Task.extras`) and written
    /// back on export: `depends: 2 tasks`.
    public var keptAside: [String]

    public init(batch: TaskImportBatch, notKept: [String] = [], skipped: [String] = [], keptAside: [String] = []) {
        self.batch = batch
        self.notKept = notKept
        self.skipped = skipped
        self.keptAside = keptAside
    }
}

/// Why a file cannot be imported: where (record or line, when known) and what.
public struct InterchangeError: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }

    init(_ failure: JSONReader.Failure, record: Int?, key: String?) {
        switch failure {
        case .syntax(let line, let column, let message):
            self.init("line \(line), column \(column): \(message)" + (record.map { " (in record \($0))" } ?? ""))
        case .type(let expected):
            let place = record.map { "record \($0): " } ?? ""
            self.init(place + (key.map { "\"\($0)\" should be \(expected)" } ?? "expected \(expected)"))
        }
    }
}

/// Counts of things a reader or writer could not keep, worded for one warning line each.
struct NotKept {
    private var counts: [(what: String, count: Int)] = []

    mutating func add(_ what: String) {
        if let index = counts.firstIndex(where: { $0.what == what }) {
            counts[index].count += 1
        } else {
            counts.append((what, 1))
        }
    }

    /// "wait: 2 tasks", in the order first seen.
    var lines: [String] { counts.map { "\($0.what): \($0.count) task\($0.count == 1 ? "" : "s")" } }
}

extension JSONReader {
    /// Reads a top-level array of objects, calling `record` with each one's 1-based number and
    /// the reader positioned at its `{`. With `allowingLines`, a sequence of objects (one per
    /// line, as older Taskwarriors wrote) is read too.
    mutating func forEachRecord(allowingLines: Bool, notJSONHint: String,
                                _ record: (Int, inout JSONReader) throws -> Void) throws {
        guard let first = peek() else { throw InterchangeError("the input is empty; \(notJSONHint)") }
        var number = 0
        func each(_ reader: inout JSONReader) throws {
            number += 1
            guard reader.peek() == UInt8(ascii: "{") else {
                throw InterchangeError(reader.error("expected a task object ('{'), found \(reader.found())"), record: number, key: nil)
            }
            do {
                try record(number, &reader)
            } catch let failure as JSONReader.Failure {
                throw InterchangeError(failure, record: number, key: nil)
            }
        }
        do {
            if first == UInt8(ascii: "[") {
                try beginArray()
                var isFirst = true
                while try nextElement(isFirst: &isFirst) { try each(&self) }
                guard isAtEnd() else { throw error("more after the array's closing ']': \(found())") }
            } else if first == UInt8(ascii: "{") && allowingLines {
                while !isAtEnd() { try each(&self) }
            } else if first == UInt8(ascii: "{") {
                throw InterchangeError("expected an array of tasks ('[' … ']'), as 'tasks export' writes, found one object")
            } else {
                throw InterchangeError("this is not JSON (it starts with \(found())); \(notJSONHint)")
            }
        } catch let failure as JSONReader.Failure {
            throw InterchangeError(failure, record: nil, key: nil)
        }
    }

    /// The value of member `key`, read by `read`; a value of the wrong kind names the key (its
    /// name is made only then).
    mutating func member<T>(_ key: @autoclosure () -> String, record: Int, _ read: (inout JSONReader) throws -> T) throws -> T {
        do {
            return try read(&self)
        } catch let failure as JSONReader.Failure {
            throw InterchangeError(failure, record: record, key: key())
        }
    }

    /// A string or `null`.
    mutating func optionalString() throws -> String? {
        try null() ? nil : try string()
    }

    /// An array of strings, or `null` for none.
    mutating func strings() throws -> [String] {
        if try null() { return [] }
        guard peek() == UInt8(ascii: "[") else { throw Failure.type(expected: "an array of strings") }
        try beginArray()
        var values: [String] = []
        var isFirst = true
        while try nextElement(isFirst: &isFirst) {
            guard peek() == UInt8(ascii: "\"") else { throw Failure.type(expected: "an array of strings") }
            values.append(try string())
        }
        return values
    }
}
