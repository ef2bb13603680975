import TaskModel

// MARK: - Judging the form, field by field

extension TaskEditReactor {
    /// Why each field of `fields` in error is refused, every one of them (the screen shows each
    /// beside its field; a save reports the first): a date counting from another field of the
    /// form counts from it when that field can be read.
    public func fieldErrors(_ fields: Fields) -> [TaskField: TaskFieldError] {
        var errors: [TaskField: TaskFieldError] = [:]
        do {
            _ = try FieldRules.title(fields.title)
        } catch {
            errors[.title] = error
        }
        var judging = Judging(reactor: self, fields: fields)
        for field in TaskFields.form {
            do {
                try judging.judge(field)
            } catch {
                errors[field] = error
            }
        }
        return errors
    }

    /// The fields read one at a time in the form's order, what each gave kept for the next.
    struct Judging {
        let fields: Fields
        let originalTags: [String]
        var validated: Validated
        var dates: DateContext
        /// A date may count from another (`--wait due-3d`): the one given in this form, judged
        /// before it in the form's order, else the task's own.
        var known: [TaskField: TaskDate] = [:]

        init(reactor: TaskEditReactor, fields: Fields) {
            self.fields = fields
            originalTags = reactor.currentState.originalFields.tags
            validated = Validated(title: "", list: Task.defaultList, tags: fields.tags, repeat: nil, values: [:], isDone: fields.isDone,
                                  dependencies: fields.dependencies, annotate: fields.annotate, denotate: fields.denotate,
                                  customs: fields.customs)
            dates = reactor.dates()
            if case .edit(let task) = reactor.currentState.mode {
                for field in TaskFields.edited where field.kind == .date {
                    if case .date(let date) = field.value(of: task) { known[field.field] = date }
                }
            }
        }

        mutating func judge(_ field: TaskField) throws(TaskFieldError) {
            switch field {
            case .title, .notes: break
            case .list: validated.list = try FieldRules.list(fields.list, typed: true)
            case .tags:
                for tag in fields.tags { try FieldRules.checkTag(tag, typed: !originalTags.contains(tag)) }
            case .repeat: validated.repeat = try FieldRules.repeatRule(fields.repeat)
            default:
                dates.fields = { [known] in known[$0] }
                let value = try TaskFields.spec(field).judge(fields[field], in: dates)
                validated.values[field] = value
                if case .date(let date) = value { known[field] = date } else { known[field] = nil }
            }
        }
    }
}
