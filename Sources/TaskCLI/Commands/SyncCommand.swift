import CommandLineKit
import TaskReactors

/// `tasks sync`: this file's changes exchanged with a PostgreSQL remote, in one transaction.
struct SyncCommand: TasksCommand {
    static let spec = CommandSpec(
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
            --watch keeps syncing until SIGTERM or Ctrl-C: at once when this file
            changes (any command, any process) and when another machine's sync
            commits (the remote's LISTEN/NOTIFY), each sync a line (a JSON line with
            --format json); an unreachable remote is said once and asked again after
            1, 2, 4 … 60 s. tasks ui does the same by itself when a remote is set.
            """,
        options: [Option.remote, Option.watch]
    )
    static let changesTasks = true

    /// `--remote`, else `TASKS_REMOTE`, else (`nil`) the remote remembered.
    let url: String?
    /// Whether `--remote` was given: it is remembered for the next sync.
    let remember: Bool

    init(_ line: ParsedLine) throws {
        let given = line.value(Option.remote)
        if let given, given.allSatisfy({ $0 == " " }) {
            throw CLIError.usage("--remote needs a PostgreSQL address, such as postgresql://me@db.example.com/tasks")
        }
        let fromEnvironment = line.invocation.environment["TASKS_REMOTE"].flatMap { $0.isEmpty ? nil : $0 }
        url = given ?? fromEnvironment
        remember = given != nil
        watch = line.has(Option.watch)
    }

    /// `--watch`: sync until stopped.
    let watch: Bool

    func run(_ context: CommandContext) {
        if watch { return SyncWatch(context: context, url: url, remember: remember).run() }
        let reactor = TaskSyncReactor(service: context.service, remotes: context.invocation.remotes)
        let view = SyncView(context: context.view)
        view.reactor = reactor
        reactor.action.onNext(.sync(url: url, remember: remember))
    }
}
