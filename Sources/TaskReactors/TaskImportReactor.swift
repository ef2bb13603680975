import QueryLanguage
import ReactorCore
import TaskModel

/// Moving tasks in from a file: the records another format was read into are checked with
/// the same rules as `tasks add` (title, list, tags), plus what only an import has (uuids),
/// then written in one transaction. A bad record stops it all, named by its number.
public final class TaskImportReactor: Reactor {
    public enum Action {
        case importTasks(TaskImportBatch)
        /// Records read as they are written (a file of any size): each checked as it comes.
        case importStream(any TaskRecordSource)
    }

    public enum Mutation {
        case setImporting(Int?)
        case setResult(TaskImportResult)
        case setValidationError(TaskFieldError)
        case setInputError(TaskImportInputError)
        case setFailure(TaskServiceError)
    }

    public struct State: Equatable {
        /// How many tasks are being written, while they are.
        public var importing: Int?
        /// What the last import did.
        public var result: TaskImportResult?
        @Pulse public var validationError: TaskFieldError?
        /// The input could not be read (streamed imports find it while writing).
        @Pulse public var inputError: TaskImportInputError?
        @Pulse public var failure: TaskServiceError?

        public init() {}
    }

    public let initialState = State()
    public let reactorStorage = Storage()
    private let service: any TaskWriting

    public init(service: any TaskWriting) {
        self.service = service
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .importTasks(let batch):
            let records: [TaskRecord]
            do throws(TaskFieldError) {
                records = try TaskImportReactor.validated(batch)
            } catch {
                return .just(.setValidationError(error))
            }
            // Nothing to write: the service (and the file it would create) is not asked.
            if records.isEmpty && batch.kept.isEmpty { return .just(.setResult(TaskImportResult())) }
            return Observable.concat([
                .just(.setImporting(records.count)),
                service.importTasks(records, keeping: batch.kept)
                    .map(Mutation.setResult)
                    .catch { .just(.setFailure(TaskServiceError($0))) },
                .just(.setImporting(nil)),
            ])
        case .importStream(let source):
            return Observable.concat([
                .just(.setImporting(source.expectedCount)),
                service.importTasks(from: ReadAheadSource(CheckedSource(source)))
                    .map(Mutation.setResult)
                    .catch { error in
                        if let error = error as? TaskFieldError { return .just(.setValidationError(error)) }
                        if let error = error as? TaskImportInputError { return .just(.setInputError(error)) }
                        return .just(.setFailure(TaskServiceError(error)))
                    },
                .just(.setImporting(nil)),
            ])
        }
    }

    /// `tasks add`'s rules applied to each record as the import takes it (uuids given twice
    /// are the store's to find, by its unique index).
    final class CheckedSource: TaskRecordSource {
        let source: any TaskRecordSource
        var unit: String { source.unit }
        var expectedCount: Int { source.expectedCount }
        var kept: [KeptRecord] { source.kept }

        init(_ source: any TaskRecordSource) { self.source = source }

        func next() throws -> (record: TaskRecord, number: Int)? {
            guard var next = try source.next() else { return nil }
            do throws(TaskFieldError) {
                try TaskImportReactor.check(&next.record)
                return next
            } catch {
                throw TaskFieldError.inRecord(source.unit, next.number, error)
            }
        }
    }

    /// Trims the record's title and list and puts its uuid in lower case, or says why it is
    /// bad (then the record is left part-way: throw it away). In place: a stream's record
    /// copied to be checked and copied back was 2% of an import.
    static func check(_ record: inout TaskRecord) throws(TaskFieldError) {
        record.fields.title = try FieldRules.title(record.fields.title)
        record.fields.list = try FieldRules.list(record.fields.list)
        for tag in record.fields.tags { try FieldRules.checkTag(tag) }
        if let uuid = record.uuid { record.uuid = try FieldRules.uuid(uuid) }
        if !record.fields.isDone && record.fields.completed != nil { throw TaskFieldError.completedButPending }
    }

    /// The records with titles and lists trimmed and uuids in lower case, or the first bad
    /// record's error: the rules of `tasks add` (`FieldRules`), and what only an import has.
    static func validated(_ batch: TaskImportBatch) throws(TaskFieldError) -> [TaskRecord] {
        var records = batch.records
        var firstByUUID: [String: Int] = [:]
        firstByUUID.reserveCapacity(records.count)
        for index in records.indices {
            let number = index < batch.numbers.count ? batch.numbers[index] : index + 1
            do throws(TaskFieldError) {
                try check(&records[index])
                if let uuid = records[index].uuid {
                    if let first = firstByUUID[uuid] { throw TaskFieldError.duplicateUUID(uuid, first: first) }
                    firstByUUID[uuid] = number
                }
            } catch {
                throw TaskFieldError.inRecord(batch.unit, number, error)
            }
        }
        return records
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setImporting(let count): state.importing = count
        case .setResult(let result): state.result = result
        case .setValidationError(let error): state.validationError = error
        case .setInputError(let error): state.inputError = error
        case .setFailure(let failure): state.failure = failure
        }
        return state
    }
}
