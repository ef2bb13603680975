import QueryLanguage
import ReactorCore
import TaskModel

/// Titles one at a time (`tasks add -` reads them from stdin as it goes), `nil` at the end; a
/// line that is not text throws `TaskFieldError.unreadableLine`.
public typealias TaskTitleSource = () throws(TaskFieldError) -> String?

/// The edit screen of RxTodo, for a terminal: the fields of a new or existing task, what may
/// be submitted, whether cancelling loses changes. `tasks add`, `tasks edit` and the editor of
/// `tasks ui` drive it; the fields are judged by `FieldRules`.
public final class TaskEditReactor: Reactor {
    public enum Mode: Equatable, Sendable {
        case new
        case edit(Task)
    }

    public enum Action {
        /// Edit the task with this id: its fields become the ones being edited.
        case load(Int64)
        /// Start a new task from the one with this id: its fields, as a new task (`duplicate`).
        case copy(Int64)
        /// Whether the new tasks are done already (`tasks log`).
        case updateDone(Bool)
        case updateTitle(String)
        case updateNotes(String)
        case updateList(String)
        /// A field set through its `FieldEdit` (`TaskFields.edited`), as typed: a due date as
        /// `2026-12-24`, `tomorrow`, `+3d` or `friday`, a priority as `H`, `M` or `L` (any case);
        /// empty clears it.
        case update(TaskField, String)
        case addTag(String)
        case removeTag(String)
        /// The tags as typed in one field, words separated by spaces (the screen's editor).
        case setTags([String])
        /// `every 2w`, `after 3d`, `week` (every), or empty: not repeating.
        case updateRepeat(String)
        /// Tasks to start or stop waiting on, and tasks to start or stop waiting on this one
        /// (`--blocked-by`, `--blocks`), by id: checked by the store (a cycle is refused).
        case updateDependencies(DependencyChanges)
        /// A line to add, stamped at the change (`tasks annotate`).
        case annotate(String)
        /// An annotation to remove (`tasks denotate`).
        case denotate(AnnotationPick)
        /// A custom field set (`--set estimate=3h`, its value checked by its declaration) or,
        /// `nil`, removed.
        case setCustom(CustomValue)
        case submit
        /// Create one task per title, each with the other fields as they are, in one
        /// transaction: a bad title stops the whole batch, named by its 1-based number.
        case submitTitles([String])
        /// Create a task of each title `lines` yields, writing them as they are read (`tasks add
        /// -` of a million lines): the first is checked before the store is called.
        case submitLines(TaskTitleSource)
        /// The task being edited is gone (another process deleted it): save the fields as
        /// typed as a new task instead, so that nothing typed is lost.
        case submitAsNew
        case cancel
    }

    public enum Mutation {
        case setTask(Task)
        case setCopy(Task)
        case setFields(Fields)
        case setValidationError(TaskFieldError)
        case setFailure(TaskServiceError)
        case setSaved(Task)
        case setSavedAll([Task])
        case setSaving(Bool)
        case setCreation(TaskCreationProgress)
        /// The edit becomes the making of a new task (its task was deleted meanwhile).
        case becomeNew
        case dismiss
    }

    /// The editable fields, as typed.
    public struct Fields: Equatable, Sendable {
        public var title: String
        public var notes: String
        public var list: String
        public var tags: [String]
        public var `repeat`: String
        /// New tasks are made done (`tasks log`); an edit leaves done alone.
        public var isDone = false
        /// The fields of `TaskFields.edited`, each as typed (every one is there, empty or not, so
        /// that a field typed and erased again compares equal).
        public var typed: [TaskField: String]
        /// The dependencies to change, by id (applied by the store on submit).
        public var dependencies = DependencyChanges()
        /// Annotations to add and remove on submit.
        public var annotate: [String] = []
        public var denotate: [AnnotationPick] = []
        public var customs: [CustomValue] = []

        /// `field` as typed, one of `TaskFields.edited`.
        public subscript(field: TaskField) -> String {
            get { typed[field] ?? "" }
            set { typed[field] = newValue }
        }
    }

    public struct State: Equatable {
        public internal(set) var mode: Mode
        public var fields: Fields
        /// Where the fields started: what `shouldConfirmCancel` compares with.
        public internal(set) var originalFields: Fields
        public var isDismissed = false
        /// The task as saved by the last successful submit.
        public var saved: Task?
        /// The tasks a `submitTitles` created, in order.
        public var savedAll: [Task] = []
        /// A submit is writing (a large batch takes a moment).
        public var isSaving = false
        /// How a `submitLines` goes: rows written, then the committed ids.
        public var creation: TaskCreationProgress?
        @Pulse public var validationError: TaskFieldError?
        @Pulse public var failure: TaskServiceError?

        /// Whether submitting can work: the title is not empty after trimming.
        public var canSubmit: Bool { !fields.title.trimmingWhitespace.isEmpty }
        /// Whether cancelling would lose a change (false again when every field is restored).
        public var shouldConfirmCancel: Bool { fields != originalFields }
    }

    public let initialState: State
    public let reactorStorage = Storage()
    let service: any TaskReading & TaskWriting
    let dates: () -> DateContext

    /// An editor in `mode` over `service`; `today` anchors relative dates (`tomorrow`, `+3d`).
    public convenience init(mode: Mode, service: any TaskReading & TaskWriting, today: @escaping () -> CalendarDay) {
        self.init(mode: mode, service: service, dates: { DateContext.on(today()) })
    }

    /// An editor in `mode` over `service`; `dates` is what typed dates count from (now, the
    /// local day and zone, where the week starts).
    public init(mode: Mode, service: any TaskReading & TaskWriting, dates: @escaping () -> DateContext) {
        self.service = service
        self.dates = dates
        let fields = Fields(mode)
        initialState = State(mode: mode, fields: fields, originalFields: fields)
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        var fields = currentState.fields
        switch action {
        case .load(let id):
            return service.task(id: id).map(Mutation.setTask).catch { .just(.setFailure(TaskServiceError($0))) }
        case .copy(let id):
            return service.task(id: id).map(Mutation.setCopy).catch { .just(.setFailure(TaskServiceError($0))) }
        case .updateDone(let isDone): fields.isDone = isDone
        case .updateTitle(let title): fields.title = title
        case .updateNotes(let notes): fields.notes = notes
        case .updateList(let list): fields.list = list
        case .update(let field, let text): fields[field] = text
        case .addTag(let typed):
            let tag = FieldRules.tagWord(typed)
            if !fields.tags.contains(tag) { fields.tags = (fields.tags + [tag]).sorted() }
        case .removeTag(let tag):
            fields.tags.removeAll { $0 == tag }
        case .setTags(let tags):
            fields.tags = Array(Set(tags.filter { !$0.isEmpty }.map(FieldRules.tagWord))).sorted()
        case .updateRepeat(let rule): fields.repeat = rule
        case .updateDependencies(let changes): fields.dependencies = changes
        case .annotate(let text): fields.annotate.append(text)
        case .denotate(let pick): fields.denotate.append(pick)
        case .setCustom(let value): fields.customs.append(value)
        case .cancel:
            return .just(.dismiss)
        case .submit:
            return submit(fields)
        case .submitAsNew:
            return .concat([.just(.becomeNew), submit(fields, as: .new)])
        case .submitTitles(let titles):
            return submit(fields, titles: titles)
        case .submitLines(let lines):
            return submit(fields, lines: lines)
        }
        return .just(.setFields(fields))
    }

    private func submit(_ fields: Fields) -> Observable<Mutation> {
        submit(fields, as: currentState.mode)
    }

    private func submit(_ fields: Fields, as mode: Mode) -> Observable<Mutation> {
        let validated: Validated
        do throws(TaskFieldError) {
            validated = try validate(fields)
        } catch {
            return .just(.setValidationError(error))
        }
        let saving: Observable<Task>
        switch mode {
        case .new:
            saving = service.create([validated.draft(title: validated.title, notes: fields.notes)]).compactMap { $0.first }
        case .edit(let task):
            saving = service.update(id: task.id, changes(from: task, to: validated, notes: fields.notes))
        }
        return saving
            .flatMap { Observable<Mutation>.from([.setSaved($0), .dismiss]) }
            .catch { .just(.setFailure(TaskServiceError($0))) }
    }

    private func submit(_ fields: Fields, titles: [String]) -> Observable<Mutation> {
        var drafts: [TaskDraft] = []
        drafts.reserveCapacity(titles.count)
        do throws(TaskFieldError) {
            let template = try validateSharedFields(fields).draft(title: "", notes: fields.notes)
            for (index, title) in titles.enumerated() {
                let trimmed: String
                do throws(TaskFieldError) {
                    trimmed = try FieldRules.title(title)
                } catch {
                    throw TaskFieldError.inItem(index + 1, error)
                }
                drafts.append(template.titled(trimmed))
            }
        } catch {
            return .just(.setValidationError(error))
        }
        return Observable.concat([
            .just(.setSaving(true)),
            service.create(drafts)
                .flatMap { Observable<Mutation>.from([.setSavedAll($0), .dismiss]) }
                .catch { .just(.setFailure(TaskServiceError($0))) },
            .just(.setSaving(false)),
        ])
    }

    /// Only what differs from the task: an edit keeps every field it did not touch.
    private func changes(from task: Task, to validated: Validated, notes: String) -> TaskChanges {
        var changes = TaskChanges()
        if validated.title != task.title { changes.title = validated.title }
        if notes != task.notes { changes.notes = notes }
        if validated.list != task.list { changes.list = validated.list }
        if validated.repeat != task.repeat { changes.repeat = .to(validated.repeat) }
        for field in TaskFields.edited {
            let value = validated.values[field.field] ?? .none
            if field.stored(task) != field.kind.stored(value) { changes.values[field.field] = value }
        }
        changes.addTags = validated.tags.filter { !task.tags.contains($0) }
        changes.removeTags = task.tags.filter { !validated.tags.contains($0) }
        changes.dependencies = validated.dependencies
        changes.annotate = validated.annotate
        changes.denotate = validated.denotate
        changes.customs = validated.customs
        return changes
    }

    struct Validated {
        var title: String
        var list: String
        var tags: [String]
        var `repeat`: RepeatRule?
        /// Each field of `TaskFields.edited`, read.
        var values: [TaskField: FieldValue]
        var isDone = false
        var dependencies = DependencyChanges()
        var annotate: [String] = []
        var denotate: [AnnotationPick] = []
        var customs: [CustomValue] = []

        /// A new task of these fields with `title` and `notes`.
        func draft(title: String, notes: String) -> TaskDraft {
            var task = Task(unsaved: title, notes: notes, list: list, tags: tags)
            task.repeat = self.repeat
            task.isDone = isDone
            for (field, value) in values { TaskFields.spec(field).assign(value, to: &task) }
            task.extras = CustomValue.applying(customs, to: task.extras)
            var draft = TaskDraft(fields: task)
            draft.dependencies = dependencies
            return draft
        }
    }

    private func validate(_ fields: Fields) throws(TaskFieldError) -> Validated {
        let title = try FieldRules.title(fields.title)
        var validated = try validateSharedFields(fields)
        validated.title = title
        return validated
    }

    /// Every field but the title.
    func validateSharedFields(_ fields: Fields) throws(TaskFieldError) -> Validated {
        // In the form's order: the first field in error is the one reported.
        var judging = Judging(reactor: self, fields: fields)
        for field in TaskFields.form { try judging.judge(field) }
        return judging.validated
    }

    public func reduce(state: consuming State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setCopy(let task):
            state.fields = Fields(.edit(task))
            state.originalFields = state.fields
        case .setTask(let task):
            state.mode = .edit(task)
            state.fields = Fields(state.mode)
            state.originalFields = state.fields
        case .setFields(let fields): state.fields = fields
        case .setValidationError(let error): state.validationError = error
        case .setFailure(let failure): state.failure = failure
        case .setSaved(let task): state.saved = task
        case .setSavedAll(let tasks): state.savedAll = tasks
        case .setSaving(let isSaving): state.isSaving = isSaving
        case .setCreation(let creation): state.creation = creation
        case .becomeNew: state.mode = .new
        case .dismiss: state.isDismissed = true
        }
        return state
    }
}

extension TaskEditReactor.Fields {
    /// The fields a mode starts from: empty for a new task, the task's own for an edit.
    init(_ mode: TaskEditReactor.Mode) {
        switch mode {
        case .new:
            self.init(title: "", notes: "", list: Task.defaultList, tags: [], repeat: "",
                      typed: Dictionary(uniqueKeysWithValues: TaskFields.edited.map { ($0.field, "") }))
        case .edit(let task):
            var typed: [TaskField: String] = [:]
            for field in TaskFields.edited { typed[field.field] = field.typedText(of: task) }
            self.init(title: task.title, notes: task.notes, list: task.list, tags: task.tags, repeat: task.repeat?.description ?? "",
                      typed: typed)
        }
    }
}

private extension TaskDraft {
    /// This draft with another title: each line of `add -` shares every other field, read once
    /// (built for each line, the draft was an eighth of the command's instructions).
    func titled(_ title: String) -> TaskDraft {
        var draft = self
        draft.fields.title = title
        return draft
    }
}
