import CommandLineKit
import TextFormats

/// `tasks hooks`: what would run, in the order it would — the hooks folder's `on-launch`,
/// `on-add`, `on-modify` and `on-exit` executables — and whether hooks are on.
struct HooksCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "hooks", abstract: "List the hooks that run with each command (Taskwarrior's on-launch, on-add, on-modify, on-exit).",
        discussion: """
            Hooks are executables in ~/.config/tasks/hooks ($XDG_CONFIG_HOME/tasks/hooks), or the
            folder hooks.location names (a Taskwarrior user's ~/.task/hooks), named on-launch*,
            on-add*, on-modify* or on-exit*, run in name order as Taskwarrior runs them: its
            arguments, and tasks as lines of its JSON on stdin. on-add and on-modify print the
            task back (changed or not); exiting non-zero refuses the command, nothing written.
            A hook has hooks.timeout seconds (10). --no-hooks or hooks = off runs none; sync,
            import and ui run none. See docs/cli.md, Hooks.
            """
    )
    static let changesTasks = false

    let configuration: Configuration
    let environment: [String: String]

    init(_ line: ParsedLine) throws {
        configuration = try line.configuration()
        environment = line.invocation.environment
    }

    func run(_ context: CommandContext) {
        guard let folder = HookRunner.folder(configuration, environment) else {
            return context.status.fail(.failure("no hooks folder: neither HOME nor XDG_CONFIG_HOME is set", hint: "set hooks.location in the configuration"))
        }
        let found = HookRunner.found(in: folder)
        var text = ""
        if !configuration.hooks { text += "Hooks are off (hooks = off in \(configuration.path)): none of these runs.\n" }
        if found.isEmpty {
            text += "No hooks in \(folder).\n"
        } else {
            text += "Hooks in \(folder), \(configuration.hooksTimeout) s each at most:\n"
            let width = found.map { $0.hook.event.count }.max() ?? 0
            for (hook, runs) in found {
                text += "  " + hook.event + String(repeating: " ", count: width - hook.event.count) + "  " + hook.name
                    + (runs ? "" : "  (not executable: it does not run)") + "\n"
            }
        }
        context.console.stdout.write(context.console.shown(text))
    }
}
