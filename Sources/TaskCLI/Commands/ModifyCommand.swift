import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors

/// `tasks modify ID|FILTER… FIELD-FLAGS`, or `tasks modify SELECTION MODIFICATIONS…` (and
/// Taskwarrior's `tasks FILTER modify MODIFICATIONS…`): the same changes to every task chosen,
/// in one transaction and one history entry — one `tasks undo` takes it all back.
struct ModifyCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "modify", aliases: ["mod"], abstract: "Change every task the ids or the filter choose, as one command (one undo).",
        discussion: """
            tasks modify +errand --priority H --tag +urgent --tag -later --due fri
            tasks modify list:Home due.before:eow --list Home.Weekend --set estimate=1h
            tasks modify 12 priority:H +urgent -later due:fri project:Home
            tasks +bills or +urgent modify priority:H        (Taskwarrior's order)
            With field flags every word chooses the tasks. Without them the words are
            Taskwarrior's: the ids (or uuids) first, or one word of filter words
            ('+bills list:Home'), choose the tasks, and the words after them modify
            them as add's words do (+tag, -tag, project:, priority:, due:, …); other
            words are a new title, for ids only.
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
        var fields = try line.fieldFlags(titled: true)
        let dates = try line.dates()
        if fields.isEmpty {
            let (chosen, modifications) = Self.split(line.arguments)
            let vocabulary = try line.configuration().vocabulary
            let title = try AddWords.read(modifications, into: &fields, vocabulary: vocabulary, dates: dates, removingTags: true)
            // One word of filter words (`'+bills list:Home'`, `(+a or +b)`) is read as its words.
            var words = chosen
            if chosen.count == 1, !TaskwarriorOrder.isIDShaped(chosen[0]) {
                words = try ParsedLine.filterWords(of: chosen[0])
            }
            selection = try line.selection(words: words)
            if let title {
                guard selection.query == nil else {
                    throw CLIError.usage("'\(title)' would be the title of every task the filter chooses; give ids, or --title")
                }
                fields.title = title
            }
        } else {
            selection = try line.selection()
        }
        guard !fields.isEmpty else {
            throw CLIError.usage("'modify' needs a modification (priority:H, +tag, due:fri, …) or a field flag: "
                                 + TasksSpec.editOptions.map { "--" + $0.long }.joined(separator: ", "))
        }
        changes = try BulkChanges.of(fields, dates: dates)
    }

    func run(_ context: CommandContext) {
        context.change(selection, { .updateTasks($0, changes) }, verb: { _ in "Modified" }, asking: "Modify")
    }

    /// The words that choose the tasks — the ids, ranges and uuids in front, or else the first
    /// word (filter words quoted as one) — and the modifications after them.
    static func split(_ words: [String]) -> (selection: [String], modifications: [String]) {
        let ids = words.prefix { TaskwarriorOrder.isIDShaped($0) }.count
        let count = ids > 0 ? ids : min(1, words.count)
        return (Array(words.prefix(count)), Array(words.dropFirst(count)))
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
