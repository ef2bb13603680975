import ReactorCore
import TaskModel

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
        case setFailure(TaskServiceError)
    }

    public struct State: Equatable {
        /// How many tasks are being written, while they are.
        public var importing: Int?
        /// What the last import did.
        public var result: TaskImportResult?
        @Pulse public var validationError: TaskFieldError?
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
            if records.isEmpty { return .just(.setResult(TaskImportResult())) }
            return Observable.concat([
                .just(.setImporting(records.count)),
                service.importTasks(records)
                    .map(Mutation.setResult)
                    .catch { .just(.setFailure(TaskServiceError($0))) },
                .just(.setImporting(nil)),
            ])
        }
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
                var record = records[index]
                record.fields.title = try FieldRules.title(record.fields.title)
                record.fields.list = try FieldRules.list(record.fields.list)
                for tag in record.fields.tags { try FieldRules.checkTag(tag) }
                if let uuid = record.uuid {
                    let normalized = try FieldRules.uuid(uuid)
                    if let first = firstByUUID[normalized] { throw TaskFieldError.duplicateUUID(normalized, first: first) }
                    firstByUUID[normalized] = number
                    record.uuid = normalized
                }
                if !record.fields.isDone && record.fields.completed != nil { throw TaskFieldError.completedButPending }
                records[index] = record
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
        case .setFailure(let failure): state.failure = failure
        }
        return state
    }
}
