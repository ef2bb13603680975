import ReactorCore

/// The edit screen of RxTodo, for a terminal: the fields of a new or existing task, what may
/// be submitted, whether cancelling loses changes. `tasks add` and `tasks edit` both drive
/// it; every rule about a task's fields lives here.
public final class TaskEditReactor: Reactor {
    public enum Mode: Equatable, Sendable {
        case new
        case edit(Task)
    }

    public enum Action {
        case updateTitle(String)
        case updateNotes(String)
        case updateList(String)
        /// As typed: `2026-12-24`, `tomorrow`, `+3d`, `friday`; empty clears it.
        case updateDue(String)
        /// `H`, `M`, `L` (any case); empty clears it.
        case updatePriority(String)
        case addTag(String)
        case removeTag(String)
        case submit
        /// Create one task per title, each with the other fields as they are, in one
        /// transaction: a bad title stops the whole batch, named by its 1-based number.
        case submitTitles([String])
        case cancel
    }

    public enum Mutation {
        case setFields(Fields)
        case setValidationError(TaskFieldError)
        case setFailure(ServiceFailure)
        case setSaved(Task)
        case setSavedAll([Task])
        case setSaving(Bool)
        case dismiss
    }

    /// The editable fields, as typed.
    public struct Fields: Equatable, Sendable {
        public var title: String
        public var notes: String
        public var list: String
        public var due: String
        public var priority: String
        public var tags: [String]
    }

    public struct State: Equatable {
        public let mode: Mode
        public var fields: Fields
        /// Where the fields started: what `shouldConfirmCancel` compares with.
        public let originalFields: Fields
        public var isDismissed = false
        /// The task as saved by the last successful submit.
        public var saved: Task?
        /// The tasks a `submitTitles` created, in order.
        public var savedAll: [Task] = []
        /// A submit is writing (a large batch takes a moment).
        public var isSaving = false
        @Pulse public var validationError: TaskFieldError?
        @Pulse public var failure: ServiceFailure?

        /// Whether submitting can work: the title is not empty after trimming.
        public var canSubmit: Bool { !fields.title.trimmingWhitespace.isEmpty }
        /// Whether cancelling would lose a change (false again when every field is restored).
        public var shouldConfirmCancel: Bool { fields != originalFields }
    }

    public let initialState: State
    public let reactorStorage = Storage()
    private let service: any TaskService
    private let today: () -> CalendarDay

    /// An editor in `mode` over `service`; `today` anchors relative due dates.
    public init(mode: Mode, service: any TaskService, today: @escaping () -> CalendarDay) {
        self.service = service
        self.today = today
        let fields: Fields
        switch mode {
        case .new:
            fields = Fields(title: "", notes: "", list: Task.defaultList, due: "", priority: "", tags: [])
        case .edit(let task):
            fields = Fields(title: task.title, notes: task.notes, list: task.list, due: task.due?.description ?? "",
                            priority: task.priority?.rawValue ?? "", tags: task.tags)
        }
        initialState = State(mode: mode, fields: fields, originalFields: fields)
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        var fields = currentState.fields
        switch action {
        case .updateTitle(let title): fields.title = title
        case .updateNotes(let notes): fields.notes = notes
        case .updateList(let list): fields.list = list
        case .updateDue(let due): fields.due = due
        case .updatePriority(let priority): fields.priority = priority
        case .addTag(let tag):
            if !fields.tags.contains(tag) { fields.tags = (fields.tags + [tag]).sorted() }
        case .removeTag(let tag):
            fields.tags.removeAll { $0 == tag }
        case .cancel:
            return .just(.dismiss)
        case .submit:
            return submit(fields)
        case .submitTitles(let titles):
            return submit(fields, titles: titles)
        }
        return .just(.setFields(fields))
    }

    private func submit(_ fields: Fields) -> Observable<Mutation> {
        let validated: Validated
        do {
            validated = try validate(fields)
        } catch let error as TaskFieldError {
            return .just(.setValidationError(error))
        } catch {
            return .just(.setFailure(ServiceFailure(error)))
        }
        let saving: Observable<Task>
        switch currentState.mode {
        case .new:
            let draft = TaskDraft(title: validated.title, notes: fields.notes, list: validated.list, due: validated.due,
                                  priority: validated.priority, tags: validated.tags)
            saving = service.create([draft]).compactMap(\.first)
        case .edit(let task):
            saving = service.update(id: task.id, changes(from: task, to: validated, notes: fields.notes))
        }
        return saving
            .flatMap { Observable<Mutation>.from([.setSaved($0), .dismiss]) }
            .catch { .just(.setFailure(ServiceFailure($0))) }
    }

    private func submit(_ fields: Fields, titles: [String]) -> Observable<Mutation> {
        var drafts: [TaskDraft] = []
        drafts.reserveCapacity(titles.count)
        do {
            let shared = try validateSharedFields(fields)
            for (index, title) in titles.enumerated() {
                let trimmed: String
                do {
                    trimmed = try TaskEditReactor.validateTitle(title)
                } catch let error as TaskFieldError {
                    throw TaskFieldError.inItem(index + 1, error)
                }
                drafts.append(TaskDraft(title: trimmed, notes: fields.notes, list: shared.list, due: shared.due,
                                        priority: shared.priority, tags: shared.tags))
            }
        } catch let error as TaskFieldError {
            return .just(.setValidationError(error))
        } catch {
            return .just(.setFailure(ServiceFailure(error)))
        }
        return Observable.concat([
            .just(.setSaving(true)),
            service.create(drafts)
                .flatMap { Observable<Mutation>.from([.setSavedAll($0), .dismiss]) }
                .catch { .just(.setFailure(ServiceFailure($0))) },
            .just(.setSaving(false)),
        ])
    }

    /// The longest title accepted, in UTF-8 bytes: a title is one line, not a document.
    public static let maximumTitleBytes = 4096

    /// `title` trimmed, or why it cannot be one.
    static func validateTitle(_ title: String) throws -> String {
        let trimmed = title.trimmingWhitespace
        if trimmed.isEmpty { throw TaskFieldError.emptyTitle }
        var bytes = trimmed
        let ascii = bytes.withUTF8 { utf8 -> Bool? in
            utf8.allSatisfy { $0 < 0x80 } ? utf8.contains { $0 >= 0x0A && $0 <= 0x0D } : nil
        }
        if ascii ?? trimmed.contains(where: \.isNewline) { throw TaskFieldError.multilineTitle }
        if trimmed.utf8.count > maximumTitleBytes { throw TaskFieldError.titleTooLong(bytes: trimmed.utf8.count, limit: maximumTitleBytes) }
        return trimmed
    }

    /// Only what differs from the task: an edit keeps every field it did not touch.
    private func changes(from task: Task, to validated: Validated, notes: String) -> TaskChanges {
        var changes = TaskChanges()
        if validated.title != task.title { changes.title = validated.title }
        if notes != task.notes { changes.notes = notes }
        if validated.list != task.list { changes.list = validated.list }
        if validated.due != task.due { changes.due = .some(validated.due) }
        if validated.priority != task.priority { changes.priority = .some(validated.priority) }
        changes.addTags = validated.tags.filter { !task.tags.contains($0) }
        changes.removeTags = task.tags.filter { !validated.tags.contains($0) }
        return changes
    }

    private struct Validated {
        var title: String
        var list: String
        var due: CalendarDay?
        var priority: Priority?
        var tags: [String]
    }

    private func validate(_ fields: Fields) throws -> Validated {
        let title = try TaskEditReactor.validateTitle(fields.title)
        var validated = try validateSharedFields(fields)
        validated.title = title
        return validated
    }

    /// Every field but the title.
    private func validateSharedFields(_ fields: Fields) throws -> Validated {
        let list = fields.list.trimmingWhitespace
        if list.isEmpty || list.contains(where: \.isNewline) { throw TaskFieldError.emptyList }
        var due: CalendarDay?
        if !fields.due.trimmingWhitespace.isEmpty {
            guard let day = DueDate.parse(fields.due, today: today()) else { throw TaskFieldError.badDue(fields.due) }
            due = day
        }
        var priority: Priority?
        let priorityText = fields.priority.trimmingWhitespace.uppercased()
        if !priorityText.isEmpty {
            guard let parsed = Priority(rawValue: priorityText) else { throw TaskFieldError.badPriority(fields.priority) }
            priority = parsed
        }
        for tag in fields.tags where tag.isEmpty || tag.contains(where: { $0.isWhitespace || $0.isNewline }) {
            throw TaskFieldError.badTag(tag)
        }
        return Validated(title: "", list: list, due: due, priority: priority, tags: fields.tags)
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setFields(let fields): state.fields = fields
        case .setValidationError(let error): state.validationError = error
        case .setFailure(let failure): state.failure = failure
        case .setSaved(let task): state.saved = task
        case .setSavedAll(let tasks): state.savedAll = tasks
        case .setSaving(let isSaving): state.isSaving = isSaving
        case .dismiss: state.isDismissed = true
        }
        return state
    }
}
