import CommandLineKit
import TaskModel
import TaskReactors

/// `tasks modify ID|FILTER… FIELD-FLAGS`: the same changes to every task chosen, in one
/// transaction and one history entry — one `tasks undo` takes it all back.
struct ModifyCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "modify", aliases: ["mod"], abstract: "Change every task the ids or the filter choose, as one command (one undo).",
        discussion: """
            tasks modify +errand --priority H --tag +urgent --tag -later --due fri
            tasks modify list:Home due.before:eow --list Home.Weekend --set estimate=1h
            The filter chooses among the tasks 'tasks list' would show (pending, in the
            context) unless it names a status or ids. On a terminal, more than three
            tasks chosen by a filter are shown and asked about first; --yes does not ask.
            A date counting from a field (--wait due-3d) is refused here: each task has its
            own; use 'tasks edit' for one task.
            """,
        arguments: TasksSpec.selectionArguments,
        options: TasksSpec.editOptions + TasksSpec.selectionOptions
    )
    static let changesTasks = true

    let selection: Selection
    let changes: TaskChanges

    init(_ line: ParsedLine) throws {
        guard !line.arguments.isEmpty else {
            throw CLIError.usage("'modify' needs ids or a filter", hint: "to change every pending task, say so: tasks modify +PENDING --priority L")
        }
        let fields = try line.fieldFlags(titled: true)
        guard !fields.isEmpty else {
            throw CLIError.usage("'modify' needs a field flag: " + TasksSpec.editOptions.map { "--" + $0.long }.joined(separator: ", "))
        }
        let dates = try line.dates()
        changes = try BulkChanges.of(fields, dates: dates)
        selection = try line.selection()
    }

    func run(_ context: CommandContext) {
        context.change(selection, { .updateTasks($0, changes) }, verb: { _ in "Modified" }, asking: "Modify")
    }
}

/// Field flags as the changes of many tasks at once: each value judged once, with no task's
/// own fields to count from.
enum BulkChanges {
    static func of(_ fields: FieldFlags, dates: DateContext) throws -> TaskChanges {
        var changes = TaskChanges()
        do throws(TaskFieldError) {
            if let title = fields.title { changes.title = try FieldRules.title(title) }
            changes.notes = fields.notes
            if let list = fields.list { changes.list = try FieldRules.list(list, typed: true) }
            var known: [TaskField: TaskDate] = [:]
            var context = dates
            for field in TaskFields.form {
                switch field {
                case .title, .notes, .list: break
                case .tags:
                    for typed in fields.addTags {
                        let tag = FieldRules.tagWord(typed)
                        try FieldRules.checkTag(tag, typed: true)
                        changes.addTags.append(tag)
                    }
                    changes.removeTags = fields.removeTags.map(FieldRules.tagWord)
                case .repeat:
                    if let rule = fields.repeatRule { changes.repeat = .to(try FieldRules.repeatRule(rule)) }
                default:
                    guard let text = fields.typed[field] else { continue }
                    context.fields = { [known] in known[$0] }
                    let value = try TaskFields.spec(field).judge(text, in: context)
                    changes.values[field] = value
                    if case .date(let date) = value { known[field] = date }
                }
            }
        } catch {
            if case .dateFromUnsetField(let field, let base, let text) = error {
                throw CLIError.usage("'--\(field.rawValue) \(text)' counts from \(base.rawValue), and each task has its own; give a date, or use 'tasks edit' for one task")
            }
            throw error
        }
        changes.dependencies = fields.dependencies
        changes.customs = fields.customs
        return changes
    }
}
