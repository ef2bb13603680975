import CommandLineKit
import TextFormats
import TaskInterchange

/// The `tasks` command tree: the one description that parsing, `help`, usage lines and
/// "did you mean" are generated from (`shared/design/CLI.md` is its contract).
public enum TasksSpec {
    /// The program's version, printed by `tasks --version`.
    public static let version = "0.1.0"

    static let fieldOptions: [OptionSpec] = [Option.list, Option.notes, Option.due, Option.priority, Option.tag, Option.every,
                                             Option.repeatAfter, Option.wait]
    /// `edit`'s: the same, with `--list` moving the task (there is no default to speak of).
    static let editOptions: [OptionSpec] = [Option.title, Option.moveToList] + fieldOptions.dropFirst()

    static let idArguments = [ArgumentSpec("ID", help: "Task ids, or '-' to read them from stdin.", variadic: true, completion: Completion.ids)]

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
                TZ              the time zone of 'today' and of dates in todo.txt and Taskwarrior files
                """),
            ("FILES", """
                ~/.local/share/tasks/tasks.db
                  The default database: one SQLite file (WAL), created on the first write, private to its owner.
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

            EXIT STATUS: 0 done; 1 could not (no such task, database unreadable, read-only,
            corrupt or newer); 2 the command line or its input is wrong.
            """,
        options: [Option.db, Option.format, Option.header, Option.color, Option.quiet, Option.version],
        subcommands: [
            CommandSpec(
                name: "list", aliases: ["ls"], abstract: "Show pending tasks, one section per list.",
                discussion: "FILTER words are searched for like --search.\n\n" + formatHelp,
                arguments: [ArgumentSpec("FILTER", help: "Words to search for in titles and notes.", variadic: true, optional: true)],
                options: [Option.inList, Option.withTag, Option.search, Option.withPriority, Option.dueBefore, Option.overdue, Option.sort,
                          Option.all, Option.done, Option.waiting]
            ),
            CommandSpec(
                name: "next", abstract: "Show the pending tasks to do first, ranked by a score (--explain shows it).",
                discussion: """
                    One list without sections, highest score first; tasks waiting are left out.
                    The score adds: due — overdue 100 + 2 per day late (30 days at most), due
                    today 90, due in 1 to 7 days 80 down to 20; priority — H 40, M 25, L 10;
                    age — 1 per whole week since it was added, at most 10. Ties: the lower id.
                    """,
                arguments: [ArgumentSpec("FILTER", help: "Words to search for in titles and notes.", variadic: true, optional: true)],
                options: [Option.inList, Option.withTag, Option.search, Option.withPriority, Option.nextLimit, Option.explain]
            ),
            CommandSpec(
                name: "add", abstract: "Add tasks: one per title, or one per line of stdin with '-'.",
                discussion: """
                    All titles are added in one transaction: a bad one stops the whole batch,
                    named by its line, and nothing is added. In a pipe or file the new ids are
                    printed, one per line: id=$(tasks add "Buy milk").
                    """,
                arguments: [ArgumentSpec("TITLE", help: "A title, or '-' to read titles from stdin.", variadic: true)],
                options: fieldOptions
            ),
            CommandSpec(name: "toggle", abstract: "Flip tasks between done and pending.", arguments: idArguments),
            CommandSpec(name: "done", abstract: "Mark tasks done (a done task stays done).", arguments: idArguments),
            CommandSpec(name: "reopen", abstract: "Mark tasks pending again (a pending task stays pending).", arguments: idArguments),
            CommandSpec(
                name: "edit", abstract: "Change a task; with no field flags on a terminal, open $VISUAL/$EDITOR.",
                discussion: "In the editor the first line is the title; the lines after a blank line are the notes.",
                arguments: [ArgumentSpec("ID", help: "The task's id.", completion: Completion.ids)],
                options: editOptions
            ),
            CommandSpec(
                name: "show", abstract: "Show every field of one task.",
                arguments: [ArgumentSpec("ID", help: "The task's id.", completion: Completion.ids)]
            ),
            CommandSpec(
                name: "delete", aliases: ["rm"], abstract: "Delete tasks.",
                arguments: idArguments
            ),
            CommandSpec(
                name: "move", aliases: ["mv"], abstract: "Reorder a task, or move it to another list.",
                discussion: "Give exactly one of --before, --after, --top, --bottom and --list.",
                arguments: [ArgumentSpec("ID", help: "The task's id.", completion: Completion.ids)],
                options: [Option.before, Option.after, Option.top, Option.bottom, Option.toList]
            ),
            CommandSpec(name: "lists", abstract: "Show the lists with their pending and done counts."),
            CommandSpec(
                name: "ui", abstract: "Browse and change tasks on a full screen that follows every change.",
                discussion: """
                    The list of 'tasks list', on the terminal's whole screen, with a cursor:
                    j/k move, space toggles, a adds, e edits, d deletes (after asking), J/K move
                    a task in its list, m moves it to another list, / searches as you type,
                    f cycles pending, all and done, u/Ctrl-R undo and redo, q quits; ? shows
                    the keys. Changes made elsewhere (another terminal, a script) appear as
                    they are committed. Takes the filters of 'tasks list'.
                    Needs a terminal on stdin and stdout (status 2 otherwise, or with TERM=dumb).
                    """,
                arguments: [ArgumentSpec("FILTER", help: "Words to search for in titles and notes.", variadic: true, optional: true)],
                options: [Option.inList, Option.withTag, Option.search, Option.withPriority, Option.dueBefore, Option.overdue, Option.sort,
                          Option.all, Option.done, Option.waiting]
            ),
            CommandSpec(
                name: "undo", abstract: "Revert the newest change, or history entry ENTRY, whole.",
                discussion: """
                    Every command that changed tasks is one entry of the history ('tasks history'),
                    however many tasks it changed: undo reverts all of it, in one transaction, as
                    an entry of its own. A deleted task comes back with its id and uuid. An entry
                    that a later change touched the same tasks as is refused, and nothing changes.
                    On a terminal it says what it reverted: Undid #12: done 3 "Buy milk".
                    """,
                arguments: [ArgumentSpec("ENTRY", help: "The entry's number (#12 or 12); the newest change when left out.",
                                         optional: true, completion: Completion.entries)]
            ),
            CommandSpec(
                name: "redo", abstract: "Apply again the change undone last.",
                discussion: "A new change ends what can be redone."
            ),
            CommandSpec(
                name: "history", abstract: "Show the history of changes, newest first.",
                discussion: """
                    Each entry: its number, when, the command as typed and what it did; an entry
                    undone since is marked. --format json adds every change: the task's id and
                    uuid, and each field before and after. The history keeps at least the last
                    1,000 entries and 30 days.
                    """,
                options: [Option.limit, Option.forTask]
            ),
            CommandSpec(
                name: "sync", abstract: "Exchange changes with a PostgreSQL database shared by your machines or your team.",
                discussion: """
                    Sends what changed here since the last sync and applies what the others sent,
                    in one transaction; every other command keeps working offline. Changes merge
                    field by field: different fields of one task changed on two machines both
                    stay; the same field is won by the later change (a hybrid logical clock),
                    and the conflict is reported on stderr, the other value kept in the history
                    ('tasks undo' puts it back). A task is the same everywhere by its uuid; each
                    machine keeps its own ids. The remote is --remote URL, else TASKS_REMOTE,
                    else the last --remote given (remembered without its password: passwords
                    come from ~/.pgpass or PGPASSWORD, as for psql). The tables are made on the
                    first sync. A failed sync changes nothing here (status 1); run it again.
                    --format json prints what travelled and every conflict.
                    """,
                options: [Option.remote]
            ),
            CommandSpec(
                name: "export", abstract: "Write every task to stdout, for another machine or another tool.",
                discussion: """
                    FORMATS (--format):
                      json         every field of every task (the default); 'tasks import' reads it
                                   back unchanged: ids, uuids, times, positions, notes
                      csv          the same fields as RFC 4180 rows with a header
                      taskwarrior  JSON for Taskwarrior's 'task import'; notes become annotations
                      todotxt      todo.txt lines: x, (A), +list, @tag, due:; notes are left out
                    What a format cannot hold is named on stderr.
                    """,
                options: [Option.exportFormat]
            ),
            CommandSpec(
                name: "import", abstract: "Read tasks from a file or stdin, in one transaction.",
                discussion: """
                    FORMATS (--format):
                      json         what 'tasks export' writes (the default)
                      taskwarrior  what Taskwarrior's 'task export' writes (2.6 and 3.x)
                      todotxt      todo.txt, as todo.txt-cli writes it
                    A task whose uuid is already here is updated, not added again: importing
                    the same file twice changes nothing. A bad record stops the import, named
                    by its number (or line), and nothing is imported. What has no place here
                    (Taskwarrior's wait, depends, recurrence…) is named on stderr.
                    """,
                arguments: [ArgumentSpec("FILE", help: "The file, or '-' for stdin (the default when stdin is not a terminal).",
                                         optional: true, completion: .files)],
                options: [Option.importFormat]
            ),
            CommandSpec(
                name: "completions", abstract: "Print a completion script for bash, zsh or fish.",
                discussion: """
                    bash:  source <(tasks completions bash)       (or save it in
                           ~/.local/share/bash-completion/completions/tasks)
                    zsh:   tasks completions zsh > ~/.zfunc/_tasks   (with ~/.zfunc in $fpath,
                           before compinit)
                    fish:  tasks completions fish > ~/.config/fish/completions/tasks.fish
                    Ids, list names and tags are completed from the database.
                    """,
                arguments: [ArgumentSpec("SHELL", help: "bash, zsh or fish.", completion: .choices(["bash", "zsh", "fish"]))]
            ),
            CommandSpec(
                name: "help", abstract: "Show the help of tasks or of a command.",
                arguments: [ArgumentSpec("COMMAND", help: "The command.", optional: true, completion: .subcommands)]
            ),
        ],
        defaultSubcommand: "list"
    )
}
