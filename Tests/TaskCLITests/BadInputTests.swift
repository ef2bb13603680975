import TaskModel
#if canImport(Glibc)
import Glibc
#endif
import SQLiteDB
import TaskStore
import _TestSupport
import Testing

/// One wrong command line or input: what `tasks` must say, and with which status.
struct BadInput: CustomTestStringConvertible, Sendable {
    let name: String
    let arguments: [String]
    let stdin: [UInt8]
    let status: Int32
    /// The whole of stderr.
    let message: String

    init(_ name: String, _ arguments: [String], stdin: [UInt8] = [], status: Int32, _ message: String) {
        self.name = name
        self.arguments = arguments
        self.stdin = stdin
        self.status = status
        self.message = message
    }

    var testDescription: String { name }

    static let catalogue: [BadInput] = [
        BadInput("unknown command", ["togle", "1"], status: 2, "tasks: unknown command 'togle'; did you mean 'toggle'?\n"),
        BadInput("unknown command, no near name", ["frobnicate"], status: 2,
                 "tasks: unknown command 'frobnicate'; commands: list, next, count, add, log, toggle, done, reopen, start, stop, active, edit, modify, append, prepend, annotate, denotate, duplicate, show, delete, undelete, purge, move, lists, tags, summary, stats, burndown, ghistory, calendar, timesheet, ui, undo, redo, history, report, context, config, hooks, sync, mcp, date, export, import, completions, help\n"),
        BadInput("unknown flag", ["list", "--overdeu"], status: 2, "tasks: unknown option '--overdeu' for 'list'; did you mean '--overdue'?\n"),
        BadInput("unknown short flag", ["add", "x", "-z"], status: 2, "tasks: unknown option '-z' for 'add'; see 'tasks help add'\n"),
        BadInput("missing argument", ["toggle"], status: 2, "tasks: 'toggle' needs ID...\n"),
        BadInput("missing option value", ["add", "x", "--due"], status: 2, "tasks: option '--due' needs a value\n"),
        BadInput("extra argument", ["show", "1", "2"], status: 2, "tasks: 'show' takes no further argument '2'; see 'tasks help show'\n"),
        BadInput("empty title", ["add", ""], status: 2, "tasks: the title is empty; give the task a title\n"),
        BadInput("whitespace title", ["add", " \t "], status: 2, "tasks: the title is empty; give the task a title\n"),
        BadInput("a title of only modifiers", ["add", "+errand", "due:fri"], status: 2, "tasks: the words are only modifiers (+errand due:fri); give the task a title\n"),
        BadInput("a modifier one letter off", ["add", "Call", "prority:H"], status: 2,
                 "tasks: 'prority:H': no field 'prority'; did you mean 'priority:H'?\ntasks: to keep it in the title, quote it with the words around it: \"… prority:H …\"\n"),
        BadInput("unknown filter field", ["list", "projcet:Home"], status: 2,
                 "tasks: filter word 1 'projcet:Home': no field 'projcet'; filter on id, uuid, title, notes, list, completed, due, priority, tags, created, modified, wait, scheduled, until, start, parent, status; did you mean 'project:Home'?\ntasks: filters are documented in 'tasks help filters'; --explain shows how words are read\n"),
        BadInput("unbalanced parenthesis", ["list", "(+a", "or", "+b"], status: 2,
                 "tasks: filter word 1 '(': this parenthesis is not closed\ntasks: filters are documented in 'tasks help filters'; --explain shows how words are read\n"),
        BadInput("bad date in a filter word", ["list", "due.before:tomorow"], status: 2,
                 "tasks: filter word 1 'due.before:tomorow': 'tomorow' is not a date; use \(DateGrammar.forms); did you mean 'due.before:tomorrow'?\ntasks: filters are documented in 'tasks help filters'; --explain shows how words are read\n"),
        BadInput("a virtual tag one letter off", ["list", "+OVERDU"], status: 2,
                 "tasks: filter word 1 '+OVERDU': 'OVERDU' is no virtual tag (a tag in capitals that is one letter off one is taken for a typo); did you mean '+OVERDUE'?\ntasks: filters are documented in 'tasks help filters'; --explain shows how words are read\n"),
        BadInput("a Taskwarrior setting word", ["list", "rc.color=off"], status: 2,
                 "tasks: filter word 1 'rc.color=off': tasks takes a setting for one command as -c NAME=VALUE; did you mean '-c color=off'?\ntasks: filters are documented in 'tasks help filters'; --explain shows how words are read\n"),
        BadInput("modify with no field", ["modify", "+a"], status: 2,
                 "tasks: 'modify' needs a modification (priority:H, +tag, due:fri, …) or a field flag: --title, --list, --notes, --due, --priority, --tag, --every, --after, --wait, --scheduled, --until, --remind, --blocked-by, --blocks, --parent, --set\n"),
        BadInput("multi-line title", ["add", "one\ntwo"], status: 2, "tasks: the title has a line break; put further lines in the notes\n"),
        BadInput("a filter that matches nothing", ["toggle", "abc"], status: 1,
                 "tasks: no task matches the filter; nothing was changed\n"),
        BadInput("negative id", ["toggle", "-5"], status: 2,
                 "tasks: filter word 1 '-5': '-5' is not a task id (ids start at 1); to leave out the tag 5, write tags.hasnt:5\ntasks: filters are documented in 'tasks help filters'; --explain shows how words are read\n"),
        BadInput("zero id", ["done", "0"], status: 2, "tasks: '0' is not a task id; ids start at 1 and are less than 2^63\n"),
        BadInput("huge id", ["toggle", "99999999999999999999"], status: 2,
                 "tasks: '99999999999999999999' is not a task id; ids start at 1 and are less than 2^63\n"),
        BadInput("missing id among good ones", ["toggle", "1", "999", "1000"], status: 1,
                 "tasks: no tasks with ids 999, 1000; nothing was changed\ntasks: 'tasks list --all' shows the ids\n"),
        BadInput("missing id to show", ["show", "42"], status: 1,
                 "tasks: no task with id 42\ntasks: 'tasks list --all' shows the ids\n"),
        BadInput("missing id to edit", ["edit", "42", "--title", "x"], status: 1,
                 "tasks: no task with id 42; nothing was changed\ntasks: 'tasks list --all' shows the ids\n"),
        BadInput("missing id to delete", ["rm", "1", "42"], status: 1,
                 "tasks: no task with id 42; nothing was changed\ntasks: 'tasks list --all' shows the ids\n"),
        BadInput("move relative to a missing task", ["move", "1", "--before", "42"], status: 1,
                 "tasks: no task with id 42; nothing was changed\ntasks: 'tasks list --all' shows the ids\n"),
        BadInput("bad date", ["add", "x", "--due", "2026-02-30"], status: 2,
                 "tasks: '2026-02-30' is not a date; use \(DateGrammar.forms)\n"),
        BadInput("bad date filter", ["list", "--due-before", "soonish"], status: 2,
                 "tasks: 'soonish' is not a date; use \(DateGrammar.forms)\n"),
        BadInput("bad priority", ["add", "x", "-p", "Z"], status: 2, "tasks: 'Z' is not a priority; use H, M or L\n"),
        BadInput("bad priority filter", ["list", "--priority", "urgent"], status: 2, "tasks: 'urgent' is not a priority; use H, M or L\n"),
        BadInput("tag with a space", ["add", "x", "--tag", "two words"], status: 2,
                 "tasks: 'two words' is not a tag; a tag is one word without spaces\n"),
        BadInput("removing a tag from a new task", ["add", "x", "--tag", "-old"], status: 2,
                 "tasks: '--tag -old' removes a tag, and a new task has none; use --tag old\n"),
        BadInput("bad format", ["list", "--format", "xml"], status: 2, "tasks: 'xml' is not a format; use table, tsv, csv, json or ids\n"),
        // Imports: a malformed record stops the whole file, named by its number, and nothing is imported.
        BadInput("import: no such file", ["import", "no-such.json"], status: 2, "tasks: cannot read 'no-such.json': No such file or directory\n"),
        BadInput("import: a folder", ["import", "/"], status: 2, "tasks: cannot read '/': Is a directory\n"),
        BadInput("import: csv", ["import", "-f", "csv", "-"], status: 2,
                 "tasks: 'csv' is not an import format; use json, taskwarrior or todotxt (csv is written by export only)\n"),
        BadInput("export: bad format", ["export", "--format", "xml"], status: 2,
                 "tasks: 'xml' is not an export format; use json, csv, taskwarrior or todotxt\n"),
        BadInput("import: not JSON", ["import", "-"], stdin: Array("(A) Buy milk +Home\n".utf8), status: 2,
                 "tasks: cannot import stdin: this is not JSON (it starts with '('); for a todo.txt file use --format todotxt; nothing was imported\n"),
        BadInput("import: empty stdin", ["import", "-"], status: 2,
                 "tasks: cannot import stdin: the input is empty; for a todo.txt file use --format todotxt; nothing was imported\n"),
        BadInput("import: cut short", ["import", "-"], stdin: Array("[{\"title\":\"a\"},\n{\"title\":\"b".utf8), status: 2,
                 "tasks: cannot import stdin: line 2, column 12: the input ends inside a string (in record 2); nothing was imported\n"),
        BadInput("import: missing title in record 3", ["import", "-"],
                 stdin: Array("[{\"title\":\"a\"},{\"title\":\"b\"},{\"notes\":\"c\"}]".utf8), status: 2,
                 "tasks: cannot import stdin: record 3: \"title\" is missing; every task needs one; nothing was imported\n"),
        BadInput("import: empty title", ["import", "-"], stdin: Array("[{\"title\":\"a\"},{\"title\":\"  \"}]".utf8), status: 2,
                 "tasks: cannot import stdin: record 2: the title is empty; give the task a title; nothing was imported\n"),
        BadInput("import: multi-line title", ["import", "-"], stdin: Array("[{\"title\":\"a\\nb\"}]".utf8), status: 2,
                 "tasks: cannot import stdin: record 1: the title has a line break; put further lines in the notes; nothing was imported\n"),
        BadInput("import: bad uuid", ["import", "-"], stdin: Array("[{\"title\":\"a\",\"uuid\":\"42\"}]".utf8), status: 2,
                 "tasks: cannot import stdin: record 1: '42' is not a uuid; a uuid is 32 hex digits such as 0190f1e2-7c3a-7b4d-8e5f-123456789abc; nothing was imported\n"),
        BadInput("import: a uuid twice", ["import", "-"], stdin: Array("""
            [{"title":"a","uuid":"0190F1E2-7C3A-7B4D-8E5F-123456789ABC"},{"title":"b","uuid":"0190f1e2-7c3a-7b4d-8e5f-123456789abc"}]
            """.utf8), status: 2,
                 "tasks: cannot import stdin: record 2: uuid 0190f1e2-7c3a-7b4d-8e5f-123456789abc was already used by record 1; each task once; nothing was imported\n"),
        BadInput("import: tag with a space", ["import", "-"], stdin: Array("[{\"title\":\"a\",\"tags\":[\"two words\"]}]".utf8), status: 2,
                 "tasks: cannot import stdin: record 1: 'two words' is not a tag; a tag is one word without spaces; nothing was imported\n"),
        BadInput("import: completed but pending", ["import", "-"],
                 stdin: Array("[{\"title\":\"a\",\"completed\":\"2026-11-29T00:00:00Z\"}]".utf8), status: 2,
                 "tasks: cannot import stdin: record 1: \"completed\" is set but \"done\" is false; a pending task has no completion time; nothing was imported\n"),
        BadInput("import: Taskwarrior's export as ours", ["import", "-"],
                 stdin: Array("[{\"description\":\"a\",\"status\":\"pending\"}]".utf8), status: 2,
                 "tasks: cannot import stdin: record 1: unknown member \"description\"; this looks like Taskwarrior's export: use --format taskwarrior; nothing was imported\n"),
        BadInput("import: Taskwarrior status", ["import", "-f", "taskwarrior", "-"],
                 stdin: Array("[{\"description\":\"a\",\"status\":\"pending\"},{\"description\":\"b\",\"status\":\"later\"}]".utf8), status: 2,
                 "tasks: cannot import stdin: record 2: \"status\" is 'later'; Taskwarrior writes pending, completed, deleted, waiting or recurring; nothing was imported\n"),
        BadInput("import: todo.txt due", ["import", "--format", "todo.txt", "-"], stdin: Array("Buy milk\n\nPay rent due:friday\n".utf8), status: 2,
                 "tasks: cannot import stdin: line 3: 'due:friday' is not a due date; write due:YYYY-MM-DD; nothing was imported\n"),
        BadInput("import: todo.txt empty title", ["import", "-f", "todotxt", "-"], stdin: Array("Buy milk\nx 2026-11-29 +Home\n".utf8), status: 2,
                 "tasks: cannot import stdin: line 2: the title is empty; give the task a title; nothing was imported\n"),
        BadInput("import: todo.txt invalid UTF-8", ["import", "-f", "todotxt", "-"], stdin: [0x61, 0x0A, 0x62, 0xC3, 0x0A], status: 2,
                 "tasks: cannot import stdin: line 2 is not valid UTF-8; nothing was imported\n"),
        BadInput("bad colour", ["--color", "sometimes"], status: 2, "tasks: 'sometimes' is not a colour choice; use auto, always or never\n"),
        BadInput("all and done", ["list", "--all", "--done"], status: 2, "tasks: give --all or --done, not both\n"),
        BadInput("move nowhere", ["move", "1"], status: 2,
                 "tasks: 'move' needs where to: --before ID, --after ID, --top, --bottom or --list LIST\n"),
        BadInput("move two ways", ["move", "1", "--top", "--bottom"], status: 2,
                 "tasks: 'move' takes one of --before, --after, --top, --bottom and --list\n"),
        BadInput("move before itself", ["move", "1", "--before", "1"], status: 2, "tasks: task 1 cannot be moved before or after itself\n"),
        BadInput("edit without flags in a pipe", ["edit", "1"], status: 2,
                 "tasks: 'edit' needs a field flag (--title, --list, --notes, --due, --priority, --tag, --every, --after, --wait, --scheduled, --until, --remind, --blocked-by, --blocks, --parent, --set) when not on a terminal\n"),
        BadInput("stdin mixed with ids", ["toggle", "1", "-"], status: 2, "tasks: '-' (ids from stdin) cannot be mixed with ids as arguments\n"),
        BadInput("empty stdin for add", ["add", "-"], status: 2, "tasks: no titles on stdin; give one title per line\n"),
        BadInput("ui in a pipe", ["ui"], status: 2,
                 "tasks: 'tasks ui' needs a terminal: standard input is not a terminal\ntasks: 'tasks list' prints the same tasks\n"),
        BadInput("ui with a bad filter", ["ui", "--sort", "sideways"], status: 2,
                 "tasks: 'sideways' is not an order; use manual, due, priority or created, or keys such as due,priority- (- descending)\n"
                 + "tasks: the keys: id, title, list, done, completed, due, priority, position, created, modified, wait, scheduled, until, start, score\n"),
        BadInput("blank line in a batch", ["add", "-"], stdin: Array("first\n\nthird\n".utf8), status: 2,
                 "tasks: line 2: the title is empty; give the task a title; nothing was added\n"),
        BadInput("invalid UTF-8 on stdin", ["add", "-"], stdin: [0x61, 0x0a, 0x62, 0xff, 0xfe, 0x0a], status: 2,
                 "tasks: line 2: the line is not valid UTF-8; nothing was added\n"),
        BadInput("NUL byte on stdin", ["add", "-"], stdin: [0x61, 0x00, 0x62, 0x0a], status: 2,
                 "tasks: line 1: the line holds a NUL byte; nothing was added\n"),
        BadInput("NUL byte on a later line", ["add", "-"], stdin: [0x61, 0x0a, 0x62, 0x00, 0x0a], status: 2,
                 "tasks: line 2: the line holds a NUL byte; nothing was added\n"),
        BadInput("a bad line with --format", ["add", "-", "--format", "tsv"], stdin: Array("a\nb\n\n".utf8), status: 2,
                 "tasks: line 3: the title is empty; give the task a title; nothing was added\n"),
        BadInput("a blank first line", ["add", "-"], stdin: Array("\nb\n".utf8), status: 2,
                 "tasks: line 1: the title is empty; give the task a title; nothing was added\n"),
        BadInput("NUL byte in ids", ["toggle", "-"], stdin: [0x31, 0x0a, 0x32, 0x00], status: 2,
                 "tasks: stdin line 2 holds a NUL byte; nothing was changed\n"),
        BadInput("bad id on stdin", ["toggle", "-"], stdin: Array("1\n2\nthree\n".utf8), status: 2,
                 "tasks: stdin line 3: 'three' is not a task id; an id is a whole number such as 42 ('tasks list' shows them)\n"),
        BadInput("1 MiB title", ["add", String(repeating: "x", count: 1 << 20)], status: 2,
                 "tasks: the title is 1048576 bytes long; keep it to 4096 bytes or fewer and put the rest in the notes\n"),
        BadInput("escape sequence in an error", ["show", "\u{1B}[2J"], status: 2,
                 "tasks: '\\e[2J' is not a task id; an id is a whole number such as 42 ('tasks list' shows them)\n"),
    ]
}

@Suite("tasks: bad input gets a clear message, a documented status, and an unchanged database")
struct BadInputTests {
    @Test(arguments: BadInput.catalogue)
    func catalogue(_ input: BadInput) {
        let cli = CLI()
        _ = cli.run(["add", "-"], input: "one\ntwo\nthree\n")
        cli.run("done", "2")
        let before = cli.snapshot()
        let result = cli.run(input.arguments, stdin: input.stdin)
        #expect(result.status == input.status)
        #expect(result.stderr == input.message)
        #expect(result.stdout == "")
        #expect(cli.snapshot() == before, "the database is exactly as it was")
        #expect(cli.run("list", "--all", "--format", "tsv").stdout
            == "1\tfalse\tInbox\tone\t\t\t\n2\ttrue\tInbox\ttwo\t\t\t\n3\tfalse\tInbox\tthree\t\t\t\n")
    }

    @Test(arguments: BadInput.catalogue.filter { $0.status == 2 })
    func usageErrorsNeverCreateTheDatabase(_ input: BadInput) {
        let cli = CLI()
        #expect(cli.run(input.arguments, stdin: input.stdin).status != 0)
        #expect(!PrivateFileProbe.exists(cli.db))
    }

    @Test func aTextFileIsRefusedAndLeftAlone() {
        let cli = CLI()
        let text = Array("my shopping list\nmilk\n".utf8)
        writeBytes(cli.db, text)
        for arguments in [["list"], ["add", "x"], ["toggle", "1"]] {
            let result = cli.run(arguments)
            #expect(result.status == 1)
            // Only a command that changes tasks says it left the file untouched (issue 24).
            let untouched = arguments == ["list"] ? "" : "; it was left untouched"
            #expect(result.stderr == "tasks: '\(cli.db)' is not a tasks database (file is not a database)\(untouched)\ntasks: check the path given by --db or TASKS_DB\n")
        }
        #expect(readBytes(cli.db) == text)
    }

    @Test func aCorruptFileIsReportedAndLeftAlone() throws {
        let cli = CLI()
        for index in 0..<200 { cli.run("add", "task \(index) " + String(repeating: "padding ", count: 40)) }
        var bytes = readBytes(cli.db)
        try #require(bytes.count > 16_384)
        // Keep the header page, smash the pages holding the table and its indexes.
        for offset in 4096..<bytes.count { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 7919) }
        writeBytes(cli.db, bytes)
        for arguments in [["list"], ["add", "x"]] {
            let result = cli.run(arguments)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("tasks: '\(cli.db)' "), "\(result)")
            #expect(result.stderr.split(separator: "\n").count <= 2)
        }
        #expect(readBytes(cli.db) == bytes)
    }

    @Test func aFileFromANewerVersionIsRefusedAndLeftAlone() throws {
        let cli = CLI()
        cli.run("add", "x")
        do {
            let db = try Connection(path: cli.db)
            try db.execute("PRAGMA user_version = 99")
        }
        let before = cli.snapshot()
        let result = cli.run("add", "y")
        #expect(result == CLI.Result(status: 1, stdout: "", stderr: """
            tasks: '\(cli.db)' is from a newer version of tasks (schema 99; this one knows up to \(TaskSchema.migrations.count)); it was left untouched
            tasks: use a newer tasks, or another --db

            """))
        #expect(cli.run("list").status == 1)
        #expect(cli.snapshot() == before)
    }

    @Test func aFolderThatCannotBeCreated() {
        let cli = CLI()
        let result = cli.run("--db", "/proc/no-such-folder/tasks.db", "add", "x")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("tasks: cannot create the database at '/proc/no-such-folder/tasks.db': /proc/no-such-folder: "), "\(result)")
        let underFile = cli.folder.file("plain-file")
        writeBytes(underFile, [0x61])
        let nested = cli.run("--db", underFile + "/tasks.db", "add", "x")
        #expect(nested.status == 1 && nested.stderr.contains("Not a directory"), "\(nested)")
    }

    /// Whether a file can be made read-only here: by permissions when not root, else by the
    /// immutable attribute (root ignores permission bits), which some file systems lack.
    static let canMakeReadOnly: Bool = {
        if getuid() != 0 { return true }
        let folder = TemporaryFolder()
        writeBytes(folder.file("probe"), [1])
        guard system("chattr +i '\(folder.file("probe"))' 2>/dev/null") == 0 else { return false }
        _ = system("chattr -i '\(folder.file("probe"))'")
        return true
    }()

    @Test(.enabled(if: canMakeReadOnly, "needs a non-root user, or chattr on /tmp's file system"))
    func aReadOnlyFileCanBeReadButNotChanged() throws {
        let cli = CLI()
        cli.run("add", "x")
        let immutable = getuid() == 0 && system("chattr +i '\(cli.db)'") == 0
        if !immutable { chmod(cli.db, 0o400) }
        defer { if immutable { _ = system("chattr -i '\(cli.db)'") } }
        let before = readBytes(cli.db)
        #expect(cli.run("list").stdout == "1\tfalse\tInbox\tx\t\t\t\n")
        let result = cli.run("add", "y")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("tasks: '\(cli.db)' is read-only; nothing was changed") || result.stderr.hasPrefix("tasks: cannot open"), "\(result)")
        #expect(readBytes(cli.db) == before)
    }
}
