import CommandLineKit
import QueryLanguage
import TaskModel
import TextFormats

/// `tasks context`: the contexts defined, the active one marked; `tasks context NAME` makes
/// one active (kept in the state file, not the configuration), `none` none; `define` and
/// `delete` change the configuration.
struct ContextCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "context", abstract: "Choose the context tasks work in, or define one (a filter, and defaults for new tasks).",
        discussion: """
            tasks context define work 'list:Work or +work' --defaults 'list:Work'
            tasks context work        work from now on (TASKS_CONTEXT=work: this terminal;
                                      --context work: one command)
            tasks context none        no context
            tasks context             the contexts, the active one marked with *
            tasks context delete work
            The active context ANDs its filter into list, next, ui, count and the changes
            chosen by a filter (ids are never filtered), and gives new tasks its defaults.
            export ignores it unless --context is given.
            """,
        arguments: [ArgumentSpec("NAME|define|delete|none", help: "A context to use, or what to do.", optional: true, completion: Completion.contextNames),
                    ArgumentSpec("ARGS", help: "define: NAME FILTER; delete: NAME.", variadic: true, optional: true)],
        options: [Option.contextDefaults, Option.context]
    )
    static let changesTasks = false

    enum Action { case show, use(String?), define(String, String, String?), delete(String) }

    let action: Action
    let line: ParsedLine
    /// The context this run is in (`--context`, `TASKS_CONTEXT`, the saved one): what `show` marks.
    let active: ContextChoice

    init(_ line: ParsedLine) throws {
        self.line = line
        active = ContextChoice.of(line)
        let words = line.arguments
        switch words.first {
        case nil: action = .show
        case "define":
            guard words.count >= 3 else { throw CLIError.usage("'context define' takes NAME and a FILTER: tasks context define work 'list:Work or +work'") }
            guard ContextDefinition.isName(words[1]), !["define", "delete"].contains(words[1]) else {
                throw CLIError.usage("'\(words[1])' cannot name a context: letters, digits, - and _ (and not none, define or delete)")
            }
            // One argument is the filter's text (as quoted for the shell); several are its words.
            let rest = Array(words.dropFirst(2))
            let filter = rest.count == 1 ? rest[0] : rest.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")
            action = .define(words[1], filter, line.value(Option.contextDefaults))
        case "delete":
            guard words.count == 2 else { throw CLIError.usage("'context delete' takes one NAME") }
            action = .delete(words[1])
        case "none":
            guard words.count == 1 else { throw CLIError.usage("'context none' takes nothing after it") }
            action = .use(nil)
        case let name?:
            guard words.count == 1 else { throw CLIError.usage("'context \(name)' takes nothing after it; to define it: tasks context define \(name) FILTER") }
            action = .use(name)
        }
        if line.has(Option.contextDefaults), case .define = action {} else if line.has(Option.contextDefaults) {
            throw CLIError.usage("--defaults goes with 'context define'")
        }
    }

    func run(_ context: CommandContext) {
        context.reporting { try perform(context, environment: context.invocation.environment, console: context.console, speaks: context.speaks) }
    }

    private func perform(_ context: CommandContext, environment: [String: String], console: Console, speaks: Bool) throws {
        switch action {
        case .show:
            let configuration = try line.configuration()
            let names = configuration.contexts.keys.sorted()
            if console.settings.format == .table {
                if names.isEmpty { return console.stdout.write("No contexts. Define one: tasks context define NAME FILTER\n") }
                var out = ""
                for name in names {
                    guard let definition = configuration.contexts[name] else { continue }
                    out += (name == active.name ? "* " : "  ") + name + "  " + definition.filter
                        + (definition.defaults.isEmpty ? "" : "  (new tasks: \(definition.defaults))") + "\n"
                }
                if let name = active.name, configuration.contexts[name] == nil { out += "* \(name) (chosen by \(active.source), not defined)\n" }
                console.stdout.write(console.shown(out))
            } else {
                var out = ""
                for name in names {
                    guard let definition = configuration.contexts[name] else { continue }
                    out += TSV.line([name, definition.filter, definition.defaults, name == active.name ? "active" : ""].map(console.shown))
                }
                console.stdout.write(out)
            }
        case .use(let name):
            guard let path = ContextChoice.statePath(environment) else { throw CLIError.failure("neither XDG_STATE_HOME nor HOME is set: nowhere to keep the context") }
            if let name {
                let configuration = try line.configuration()
                guard configuration.contexts[name] != nil else {
                    _ = try ContextChoice(name: name, source: "tasks context").definition(in: configuration)
                    return
                }
            }
            if let failure = StateFile.write(name.map { $0 + "\n" }, to: path) { throw CLIError.failure(failure) }
            if speaks {
                var text = name.map { "Context: \($0)\n" } ?? "No context.\n"
                if let variable = environment["TASKS_CONTEXT"] { text += "(TASKS_CONTEXT=\(variable) still chooses for this terminal)\n" }
                console.stdout.write(console.shown(text))
            }
        case .define(let name, let filter, let defaults):
            let configuration = try line.configuration()
            let settings = try line.filterSettings(configuration)
            _ = try FilterInput.parse(text: filter, settings, source: "the filter of \(name): ")
            if let defaults {
                var fields = FieldFlags()
                let words: [String]
                do throws(FilterError) { words = try FilterParser.words(of: defaults) } catch { throw CLIError.usage("--defaults: \(error.reason)") }
                if try AddWords.read(words, into: &fields, vocabulary: configuration.vocabulary, dates: settings.dates, source: "--defaults: ") != nil {
                    throw CLIError.usage("--defaults '\(defaults)' holds more than modifiers (list:NAME, +tag, priority:H, due:DATE)")
                }
            }
            try ConfigFile.change(environment, "context.\(name).filter", to: filter)
            if let defaults { try ConfigFile.change(environment, "context.\(name).defaults", to: defaults) }
            if speaks {
                // What a new task gets here: the declared defaults, or the filter's own fields.
                let derived = ContextDefinition(name: name, filter: filter, defaults: defaults ?? "").writeWords(configuration.vocabulary)
                let gets = derived.isEmpty ? "new tasks get no fields from it (--defaults gives some)" : "new tasks get " + derived.joined(separator: " ")
                console.stdout.write(console.shown("Defined context \(name): \(filter); \(gets)") + "\n")
            }
        case .delete(let name):
            let configuration = try line.configuration()
            guard let definition = configuration.contexts[name] else { throw CLIError.failure("no context '\(name)'; nothing was changed") }
            try ConfigFile.change(environment, "context.\(name).filter", to: nil)
            if !definition.defaults.isEmpty { try ConfigFile.change(environment, "context.\(name).defaults", to: nil) }
            if ContextChoice.saved(environment) == name, let path = ContextChoice.statePath(environment) { _ = StateFile.write(nil, to: path) }
            if speaks { console.stdout.write("Deleted context \(name)\n") }
        }
    }
}
