import CommandLineKit
import TaskModel
import TaskReactors
import TaskRemote

/// `tasks sync`: this file's changes exchanged with a PostgreSQL remote, in one transaction.
struct SyncCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "sync", abstract: "Exchange changes with a PostgreSQL database or a CalDAV server (phones, Thunderbird, Nextcloud).",
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
            An http(s) address is a CalDAV server: each list a calendar of tasks, each
            task an item, written property by property so that what other clients
            wrote stays. Its password comes from ~/.netrc or the remote's
            password-command in the configuration ([remote.NAME] url, user,
            password-command, ca, timeout, insecure); 'tasks sync NAME' syncs a
            configured remote, and with remotes configured 'tasks sync' syncs each in
            turn. What a server sends is checked, not obeyed: an item missing from one
            answer is not deleted here, no redirect is followed for a write or to
            another host, and a sync ends by its timeout (300 s). Plain http:// to
            another machine is refused unless the remote says insecure = true.
            """,
        arguments: [ArgumentSpec("NAME", help: "A remote configured as [remote.NAME] in the configuration file.", optional: true)],
        options: [Option.remote, Option.watch, Option.rejected]
    )
    static let changesTasks = true

    /// `--remote`, else `TASKS_REMOTE`, else (`nil`) the remote remembered.
    let url: String?
    /// Whether `--remote` was given: it is remembered for the next sync.
    let remember: Bool

    /// The settings of the remote as configured by name, if it is one.
    let settings: RemoteSettings

    init(_ line: ParsedLine) throws {
        let given = line.value(Option.remote)
        if let given, given.allSatisfy({ $0 == " " }) {
            throw CLIError.usage("--remote needs an address, such as postgresql://me@db.example.com/tasks or https://dav.example.com/")
        }
        let fromEnvironment = line.invocation.environment["TASKS_REMOTE"].flatMap { $0.isEmpty ? nil : $0 }
        watch = line.has(Option.watch)
        listsRejected = line.has(Option.rejected)
        if listsRejected && (watch || given != nil || !line.parsed.arguments.isEmpty) {
            throw CLIError.usage("--rejected lists what was kept aside; it syncs nothing, so it takes no remote and no --watch")
        }
        let configured = try line.configuration().remotes
        if let name = line.parsed.arguments.first {
            guard given == nil else { throw CLIError.usage("give a remote's NAME or --remote URL, not both") }
            guard let remote = configured[name] else {
                let known = configured.keys.sorted()
                throw CLIError.usage("no remote named '\(name)' is configured",
                                     hint: known.isEmpty ? "add one to the configuration: [remote.\(name)] url = \"https://…\""
                                                         : "the remotes: " + known.joined(separator: ", "))
            }
            guard !remote.url.isEmpty else { throw CLIError.usage("the remote '\(name)' has no url in the configuration") }
            url = remote.url
            settings = remote.settings
            remember = false
            try Self.refuseWatching(remote.url, watch: watch)
            return
        }
        var address = given ?? fromEnvironment
        if address == nil, !configured.isEmpty {
            // The configured remotes, each in turn (each has its own base: what one brought is
            // sent to the next); --watch follows one.
            let all = configured.keys.sorted().compactMap { configured[$0] }
            guard let first = all.first, let firstURL = all.first?.url, !firstURL.isEmpty else {
                throw CLIError.usage("the remote '\(all.first?.name ?? "")' has no url in the configuration")
            }
            if all.count > 1 {
                guard !watch else {
                    throw CLIError.usage("several remotes are configured; --watch follows one", hint: "tasks sync NAME --watch")
                }
                url = nil
                remember = false
                settings = RemoteSettings()
                others = Array(all)
                return
            }
            address = first.url
        }
        url = address
        remember = given != nil
        if let address { try Self.refuseWatching(address, watch: watch) }
        // An address that is a configured remote's takes its settings.
        settings = configured.values.first { $0.url == address }?.settings ?? RemoteSettings()
    }

    /// With several remotes configured and none named: each of them, in turn.
    private(set) var others: [RemoteDefinition] = []

    /// `--watch` of a CalDAV server: refused, it cannot be listened to.
    static func refuseWatching(_ address: String, watch: Bool) throws {
        guard watch, CalDAVAddress.isCalDAV(address) else { return }
        throw CLIError.usage("--watch listens to PostgreSQL only; a CalDAV server cannot be listened to",
                             hint: "run tasks sync from a timer (cron, a systemd timer) instead")
    }

    /// `--watch`: sync until stopped.
    let watch: Bool
    /// `--rejected`: list the changes kept aside instead of syncing.
    let listsRejected: Bool

    func run(_ context: CommandContext) {
        if listsRejected {
            let reactor = TaskSyncReactor(service: context.service, remotes: context.invocation.remotes)
            let view = RejectedView(context: context.view)
            view.reactor = reactor
            reactor.action.onNext(.readRejected)
            return
        }
        if watch { return SyncWatch(context: context, url: url, remember: remember).run() }
        guard !others.isEmpty else { return sync(url: url, settings: settings, label: nil, context) }
        // Each in turn; one that fails is said and the others still sync (status 1 at the end).
        for remote in others where !remote.url.isEmpty { sync(url: remote.url, settings: remote.settings, label: remote.name, context) }
    }

    private func sync(url: String?, settings: RemoteSettings, label: String?, _ context: CommandContext) {
        if settings.insecure, let url, let host = CalDAVAddress.inTheClear(url) {
            context.console.warn("\(label ?? CalDAVAddress.withoutPassword(url)) is plain http:// (insecure = true): the password goes to \(host) unencrypted")
        }
        let reactor = TaskSyncReactor(service: context.service, remotes: context.invocation.remotes.configured(settings))
        let view = SyncView(context: context.view, label: label)
        view.reactor = reactor
        reactor.action.onNext(.sync(url: url, remember: label == nil && remember))
    }
}
