import ReactorCore

/// Moving tasks in from a file: the records another format was read into are checked with
/// the same rules as `tasks add` (title, list, tags), plus what only an import has (uuids),
/// then written in one transaction. A bad record stops it all, named by its number.
public final class TaskImportReactor: Reactor {
    public enum Action {
        case importTasks(TaskImportBatch)
    }

    public enum Mutation {
        case setImporting(Int?)
        case setResult(TaskImportResult)
        case setValidationError(TaskFieldError)
        case setFailure(ServiceFailure)
    }

    public struct State: Equatable {
        /// How many tasks are being written, while they are.
        public var importing: Int?
        /// What the last import did.
        public var result: TaskImportResult?
        @Pulse public var validationError: TaskFieldError?
        @Pulse public var failure: ServiceFailure?

        public init() {}
    }

    public let initialState = State()
    public let reactorStorage = Storage()
    private let service: any TaskService

    public init(service: any TaskService) {
        self.service = service
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .importTasks(let batch):
            let records: [TaskRecord]
            do {
                records = try TaskImportReactor.validated(batch)
            } catch let error as TaskFieldError {
                return .just(.setValidationError(error))
            } catch {
                return .just(.setFailure(ServiceFailure(error)))
            }
            // Nothing to write: the service (and the file it would create) is not asked.
            if records.isEmpty { return .just(.setResult(TaskImportResult())) }
            return Observable.concat([
                .just(.setImporting(records.count)),
                service.importTasks(records)
                    .map(Mutation.setResult)
                    .catch { .just(.setFailure(ServiceFailure($0))) },
                .just(.setImporting(nil)),
            ])
        }
    }

    /// The records with titles and lists trimmed and uuids in lower case, or the first bad
    /// record's error.
    static func validated(_ batch: TaskImportBatch) throws -> [TaskRecord] {
        var records = batch.records
        var firstByUUID: [String: Int] = [:]
        firstByUUID.reserveCapacity(records.count)
        for index in records.indices {
            let number = index < batch.numbers.count ? batch.numbers[index] : index + 1
            do {
                var record = records[index]
                record.title = try TaskEditReactor.validateTitle(record.title)
                if record.list != Task.defaultList {
                    record.list = record.list.trimmingWhitespace
                    if record.list.isEmpty || record.list.contains(where: \.isNewline) { throw TaskFieldError.emptyList }
                }
                for tag in record.tags where !TaskImportReactor.isVisibleASCII(tag) {
                    if tag.isEmpty || tag.contains(where: { $0.isWhitespace || $0.isNewline }) { throw TaskFieldError.badTag(tag) }
                }
                if let uuid = record.uuid {
                    guard let normalized = TaskImportReactor.normalizedUUID(uuid) else { throw TaskFieldError.badUUID(uuid) }
                    if let first = firstByUUID[normalized] {
                        throw TaskFieldError.duplicateUUID(normalized, first: first)
                    }
                    firstByUUID[normalized] = number
                    record.uuid = normalized
                }
                if !record.isDone && record.completed != nil { throw TaskFieldError.completedButPending }
                records[index] = record
            } catch let error as TaskFieldError {
                throw TaskFieldError.inRecord(batch.unit, number, error)
            }
        }
        return records
    }

    /// Not empty, and only printable ASCII without spaces: a tag that needs no closer look.
    private static func isVisibleASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in !bytes.isEmpty && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
    }

    /// `uuid` in lower case when it is 32 hex digits in the 8-4-4-4-12 groups; else `nil`.
    public static func normalizedUUID(_ uuid: String) -> String? {
        var uuid = uuid
        guard uuid.utf8.count == 36 else { return nil }
        // The common case, already lower case: no copy.
        let isLower = uuid.withUTF8 { bytes in
            bytes.indices.allSatisfy { index in
                let byte = bytes[index]
                return index == 8 || index == 13 || index == 18 || index == 23
                    ? byte == UInt8(ascii: "-")
                    : (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            }
        }
        if isLower { return uuid }
        let bytes = Array(uuid.utf8)
        var lowered: [UInt8] = []
        lowered.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                lowered.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): lowered.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): lowered.append(byte + 32)
            default: return nil
            }
        }
        return String(decoding: lowered, as: UTF8.self)
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setImporting(let count): state.importing = count
        case .setResult(let result): state.result = result
        case .setValidationError(let error): state.validationError = error
        case .setFailure(let failure): state.failure = failure
        }
        return state
    }
}

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
