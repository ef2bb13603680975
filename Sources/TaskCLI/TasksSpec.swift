import CommandLineKit
import TextFormats
import TaskInterchange
import TaskModel

/// The `tasks` command tree: the one description that parsing, `help`, usage lines and
/// "did you mean" are generated from (docs/cli.md is its contract). Each command's entry is
/// its own type's `spec` (`Commands/`); this file holds the root and what commands share.
public enum TasksSpec {
    /// The program's version, printed by `tasks --version`.
    public static let version = "0.1.0"

    /// `add`'s: the list and notes, then every later field of `TaskFields.form` in its order
    /// (a field of `TaskFields.edited` by its own flag, `Option.edited`).
    static let fieldOptions: [OptionSpec] = [Option.list, Option.notes] + TaskFields.form.flatMap { field -> [OptionSpec] in
        switch field {
        case .title, .notes, .list: []
        case .tags: [Option.tag]
        case .repeat: [Option.every, Option.repeatAfter]
        default: Option.edited.first { $0.field == field }.map { [$0.option] } ?? []
        }
    } + [Option.blockedBy, Option.blocks, Option.parent, Option.setCustom]
    /// `edit`'s: the same, with `--list` moving the task (there is no default to speak of).
    static let editOptions: [OptionSpec] = [Option.title, Option.moveToList] + fieldOptions.dropFirst()

    static let idArgument = ArgumentSpec("ID", help: "The task's id, or its uuid (or a start of it no other task's has).", completion: Completion.ids)
    static let filterArgument = ArgumentSpec("FILTER", help: "Filter words: +tag -tag list:NAME due.before:DATE priority:H status:done, ids, words of the title (tasks help filters).",
                                             variadic: true, optional: true, completion: Completion.filterWords, filter: true)
    /// The options of a change that takes a filter: the context it is chosen in, no question.
    static let selectionOptions = [Option.context, Option.yes]
    /// The tasks a change acts on: ids, or a filter.
    static let selectionArguments = [ArgumentSpec("ID", help: "Task ids (3 1-5,8), '-' for ids on stdin, or filter words (+bills list:Home): tasks help filters.",
                                                  variadic: true, completion: Completion.ids, filter: true)]
    /// The filters of `list` and `ui`.
    static let listingOptions = [Option.inList, Option.withTag, Option.search, Option.withPriority, Option.dueBefore, Option.overdue, Option.sort,
                                 Option.all, Option.done, Option.waiting, Option.expired, Option.context, Option.explainFilter]

    /// What every report takes besides its filter: sections, columns, a limit.
    static let reportOptions = [Option.group, Option.columns, Option.reportLimit]
    /// The commands `--format svg` draws: the pictures.
    static let drawsSVG: Set<String> = ["burndown", "ghistory", "history", "calendar", "stats", "timesheet"]

    static let formatHelp = """
        FORMATS (--format):
          table  aligned columns, one section per list (the default on a terminal)
          tsv    one task per line (the default in a pipe or file); columns:
                 id, done, list, title, due, priority, tags (space-separated);
                 a tab, newline or backslash in a field is written \\t, \\n, \\\\
          csv    RFC 4180 with a header row, the same columns
          json   an array of task objects with every field
          ids    the ids alone, one per line, for '... | tasks toggle -'
        """

    /// The manual page, `docs/tasks.1`: the command tree, with the sections only a manual has.
    public static var manPage: ManPage {
        ManPage(root: root, source: "tasks \(version)", manual: "User Commands", extra: [
            ("ENVIRONMENT", """
                TASKS_DB        the database file, when --db is not given
                XDG_DATA_HOME   the database is $XDG_DATA_HOME/tasks/tasks.db when neither is given
                HOME            else ~/.local/share/tasks/tasks.db
                NO_COLOR        no colour, whatever --color says
                VISUAL, EDITOR  the editor of 'tasks edit' on a terminal (else vi)
                TZ              the time zone of 'today', of times of day, and of dates in todo.txt and Taskwarrior files
                TASKS_WEEK_START  the first day of a week for eow and sow (monday, else e.g. sunday)
                TASKS_ONE_ACTIVE  1: 'tasks start' stops every other active task
                """),
            ("FILES", """
                ~/.local/share/tasks/tasks.db
                  The default database: one SQLite file (WAL), created on the first write, private to its owner.
                ~/.config/tasks/config ($XDG_CONFIG_HOME/tasks/config)
                  The configuration (a TOML subset): custom fields, uda.NAME.type = string|number|date|duration;
                  Taskwarrior's colour rules, color.overdue = "bold red", color.tag.NAME = "black on rgb035".
                """),
            ("EXIT STATUS", """
                0  it did what was asked
                1  it could not: no such task, the database is unreadable, read-only, corrupt or newer
                2  the command line or its input is wrong (nothing was changed)
                """),
            ("EXAMPLES", """
                tasks add "Buy milk" --due tomorrow -t errand
                tasks list --format ids --search milk | tasks toggle -
                tasks export > tasks.json; tasks --db other.db import tasks.json
                task export | tasks import --format taskwarrior -
                source <(tasks completions bash)
                """),
            ("SEE ALSO", "task(1), todo.sh(1), sqlite3(1)"),
        ])
    }

    /// The root command.
    public static let root = CommandSpec(
        name: "tasks",
        abstract: "A task manager for the terminal.",
        discussion: """
            The database is --db PATH, else $TASKS_DB, else $XDG_DATA_HOME/tasks/tasks.db,
            else ~/.local/share/tasks/tasks.db; it is created on the first write.

            Taskwarrior's order works too: tasks 12 done, tasks +bills list,
            tasks 12 annotate called them (filter words, then the command).

            EXIT STATUS: 0 done; 1 could not (no such task, database unreadable, read-only,
            corrupt or newer); 2 the command line or its input is wrong.
            """,
        options: [Option.db, Option.format, Option.header, Option.color, Option.quiet, Option.setting, Option.version, Option.noHooks],
        entries: CommandRegistry.entries,
        defaultSubcommand: "list"
    )
}
