import CommandLineKit
import QueryLanguage
import TaskInterchange
import TaskModel

/// Every option of the command tree, declared once: the tree lists them and the reader reads
/// them through these same values (`parsed.value(Option.list)`), so a name is never typed
/// twice. `StructureTests`' sibling in TaskCLITests checks that each is read where declared.
enum Option {
    // The root's, valid after every command.
    static let db = OptionSpec.value("db", name: "PATH", help: "The database file.", completion: .files)
    static let format = OptionSpec.value("format", short: "f", name: "FORMAT", help: "table, tsv, csv, json or ids (see 'tasks help list'); svg for a picture.",
                                         completion: .choices(OutputFormat.self))
    static let header = OptionSpec.flag("header", help: "With tsv, print a header line first.")
    static let color = OptionSpec.value("color", name: "WHEN", help: "auto, always or never (NO_COLOR also turns it off).",
                                        completion: .choices(TerminalFacts.ColorChoice.self))
    static let quiet = OptionSpec.flag("quiet", short: "q", help: "Say nothing on success.")
    static let version = OptionSpec.flag("version", help: "Print the version.")
    static let noHooks = OptionSpec.flag("no-hooks", help: "Run no hooks for this command (tasks hooks).")
    static let context = OptionSpec.value("context", name: "NAME", help: "Use this context for this command (none: no context).",
                                          completion: Completion.contextNames)
    static let setting = OptionSpec.value("config", short: "c", name: "KEY=VALUE", help: "Override one configuration setting for this command; repeatable.",
                                          repeatable: true)

    // `list`'s filters.
    static let inList = OptionSpec.value("list", short: "l", name: "LIST", help: "Only this list and the lists under it (Work.*); list:NAME.",
                                         completion: Completion.listNames)
    static let explainFilter = OptionSpec.flag("explain", help: "Print how the filter was read (its tree, the context's part) and stop.")
    static let contextDefaults = OptionSpec.value("defaults", name: "WORDS", help: "What a new task gets in this context: list:NAME +tag priority:H due:DATE.")
    static let create = OptionSpec.flag("create", help: "Make the database file named by --db or TASKS_DB when it does not exist.")
    static let yes = OptionSpec.flag("yes", short: "y", help: "Change the tasks without asking, however many the filter chose.")
    static let withTag = OptionSpec.value("tag", short: "t", name: "[+|-]TAG", help: "Only tasks with this tag (+t or t), or without it (-t or !t); repeatable.",
                                          repeatable: true, completion: Completion.tagNames)
    static let search = OptionSpec.value("search", short: "s", name: "TEXT", help: "Title or notes contain TEXT (ignoring case, in any script).")
    static let withPriority = OptionSpec.value("priority", short: "p", name: "H|M|L", help: "Only this priority.",
                                               completion: Completion.priorities)
    static let dueBefore = OptionSpec.value("due-before", name: "DATE", help: "Due before this day.", completion: Completion.dates)
    static let overdue = OptionSpec.flag("overdue", help: "Due before today.")
    static let sort = OptionSpec.value("sort", name: "ORDER", help: "manual (default), due, priority, created, or keys: due,priority- (- descending).",
                                       completion: .choices(ChoiceWords { SortChoice.allCases.map(\.rawValue) + FieldVocabulary.builtIn.names(.sort).filter { SortChoice(rawValue: $0) == nil } }))
    static let group = OptionSpec.value("group", name: "BY", help: "Sections: list (default), status or none.", completion: .choices(GroupChoice.self))
    static let columns = OptionSpec.value("columns", name: "COLUMNS", help: "The columns shown: id,title,due,… (tasks help reports).",
                                          completion: .choices(ChoiceWords { FieldVocabulary.builtIn.names(.column) }))
    static let reportLimit = OptionSpec.value("limit", short: "n", name: "N", help: "At most N tasks.")
    static let reportFilter = OptionSpec.value("filter", name: "WORDS", help: "The report's filter words: '+work -someday'.")
    static let reportDescription = OptionSpec.value("description", name: "TEXT", help: "What the report shows, for 'tasks report'.")
    static let all = OptionSpec.flag("all", short: "a", help: "Pending and done.")
    static let done = OptionSpec.flag("done", short: "d", help: "Done only.")
    static let waiting = OptionSpec.flag("waiting", help: "Only tasks waiting (their --wait day still ahead).")
    static let expired = OptionSpec.flag("expired", help: "Only tasks expired (pending, their --until day past).")

    // The fields of `add` and `edit`.
    static let title = OptionSpec.value("title", name: "TITLE", help: "The new title.")
    static let list = OptionSpec.value("list", short: "l", name: "LIST", help: "The list (default Inbox).", completion: Completion.listNames)
    /// `edit --list`: the same option, read as `list`; only its help differs.
    static let moveToList = OptionSpec.value("list", short: "l", name: "LIST", help: "Move the task to this list.", completion: Completion.listNames)
    static let notes = OptionSpec.value("notes", short: "n", name: "TEXT", help: "Notes; may span lines.")
    /// The flag of each field of `TaskFields.edited` (`--due`, `--priority`, `--wait`…), made
    /// from its `FieldEdit`: its name, value and help from the field table, its completion from
    /// its kind.
    static let edited: [(field: TaskField, option: OptionSpec)] = TaskFields.edited.compactMap { spec in
        guard let edit = spec.edit else { return nil }
        let completion: ValueCompletion
        switch spec.kind {
        case .day, .date: completion = Completion.dates
        case .priority: completion = Completion.priorities
        case .text, .optionalText, .flag, .number, .tags, .time, .rule, .duration, .annotations, .reminders: completion = .none
        }
        return (spec.field, OptionSpec.value(edit.flag ?? spec.name, short: edit.short, name: edit.valueName, help: edit.help, completion: completion))
    }
    static let setCustom = OptionSpec.value("set", name: "NAME=VALUE", help: "Set a custom field declared in the configuration (uda.NAME.type); NAME= removes it.",
                                            repeatable: true)
    static let blockedBy = OptionSpec.value("blocked-by", name: "ID,…", help: "Wait on these tasks (blocked while one is pending); -ID stops waiting.",
                                            repeatable: true, completion: Completion.ids)
    static let parent = OptionSpec.value("parent", name: "ID", help: "Make it a subtask of task ID; '' makes it no task's subtask.", completion: Completion.ids)
    static let blocks = OptionSpec.value("blocks", name: "ID,…", help: "Make these tasks wait on this one; -ID stops them waiting.",
                                         repeatable: true, completion: Completion.ids)
    static let tag = OptionSpec.value("tag", short: "t", name: "+TAG|-TAG", help: "Add a tag (+t or t) or remove one (-t); repeatable.",
                                      repeatable: true, completion: Completion.tagNames)

    static let every = OptionSpec.value("every", name: "INTERVAL",
                                        help: "Repeat on a schedule: day, weekday, week, month, year, or 2w, 3m…; '' stops.",
                                        completion: .choices(["day", "weekday", "week", "month", "year"]))
    static let repeatAfter = OptionSpec.value("after", name: "INTERVAL", help: "Repeat INTERVAL after each time it is done.",
                                              completion: .choices(["day", "week", "month", "year"]))

    // `date`.
    static let dateNow = OptionSpec.value("now", name: "TIME", help: "Resolve as if it were TIME (2026-12-01T09:00, local; or with Z or an offset).")

    // `next`.
    static let nextLimit = OptionSpec.value("limit", short: "n", name: "N", help: "At most N tasks (10 by default).")
    static let explain = OptionSpec.flag("explain", help: "Show each part of each task's score.")

    // `move`'s places.
    static let before = OptionSpec.value("before", name: "ID", help: "Just before this task (in its list).", completion: Completion.ids)
    static let after = OptionSpec.value("after", name: "ID", help: "Just after this task (in its list).", completion: Completion.ids)
    static let top = OptionSpec.flag("top", help: "First in its list.")
    static let bottom = OptionSpec.flag("bottom", help: "Last in its list.")
    static let toList = OptionSpec.value("list", short: "l", name: "LIST", help: "Last in this list.", completion: Completion.listNames)

    // `history`.
    static let limit = OptionSpec.value("limit", short: "n", name: "N", help: "At most N entries (20 in a table; all otherwise).")
    static let since = OptionSpec.value("since", name: "DATE", help: "Only the entries since DATE (mon, sow, 2026-11-30, 3d ago…).", completion: Completion.dates)
    static let forTask = OptionSpec.value("task", name: "ID", help: "Only the entries that changed this task.", completion: Completion.ids)

    // `history --graph`, `ghistory`, `burndown`.
    static let graph = OptionSpec.flag("graph", help: "Added, completed and deleted tasks per period as bars (tasks ghistory).")
    static let numbers = OptionSpec.flag("numbers", help: "The numbers as Taskwarrior's history table: added, completed, deleted, net, average.")

    // `calendar`.
    static let months = OptionSpec.value("months", name: "N", help: "Show N months (1 to 120); as many as fit the width by default.")
    static let details = OptionSpec.flag("details", help: "List the tasks due in the months shown, and their holidays.")

    // `timesheet`.
    static let weeks = OptionSpec.value("weeks", name: "N", help: "The last N weeks (1 to 520; 4 by default).")

    // `sync`.
    static let remote = OptionSpec.value("remote", name: "URL",
                                         help: "The PostgreSQL database to sync with (postgresql://USER@HOST/DB); remembered without its password.")
    static let watch = OptionSpec.flag("watch", help: "Keep syncing: on every change here and every other machine's sync, until stopped.")
    static let rejected = OptionSpec.flag("rejected", help: "List the changes received and kept aside, not applied (a value add would refuse).")

    // `export` and `import`, each with its own formats.
    static let exportFormat = OptionSpec.value("format", short: "f", name: "FORMAT", help: "json, csv, taskwarrior or todotxt.",
                                               completion: .choices(InterchangeFormat.self))
    static let importFormat = OptionSpec.value("format", short: "f", name: "FORMAT", help: "json, taskwarrior or todotxt.",
                                               completion: .choices(ImportCommand.Format.self))
}

/// What shells offer at completion time, from the database the command line would use.
enum Completion {
    static let ids = ValueCompletion.command("tasks list --all --format tsv 2>/dev/null | cut -f1,4")
    static let contextNames = ValueCompletion.command("tasks context --format tsv 2>/dev/null | cut -f1")
    static let reportNames = ValueCompletion.command("tasks report --format tsv 2>/dev/null | cut -f1")
    static let listNames = ValueCompletion.command("tasks lists --format tsv 2>/dev/null | cut -f1")
    static let tagNames = ValueCompletion.command("tasks list --all --format tsv 2>/dev/null | cut -f7 | tr ' ' '\\n' | sort -u | grep .")
    static let entries = ValueCompletion.command("tasks history --format tsv 2>/dev/null | cut -f1,5")
    static let priorities = ValueCompletion.choices(["H", "M", "L"])
    /// A filter's words: the fields with `:` and each modifier, the virtual tags, and from the
    /// database each tag as `+tag` and each list as `list:NAME` (`tasks completions words`).
    static let filterWords = ValueCompletion.command("tasks completions words 2>/dev/null")
    static let dates = ValueCompletion.choices(ChoiceWords { ["today", "tomorrow"] + CalendarDay.weekdayNames })
}
