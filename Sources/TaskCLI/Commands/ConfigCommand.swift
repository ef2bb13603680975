import CommandLineKit
import TaskModel
import TextFormats

/// `tasks config [get KEY | set KEY VALUE | unset KEY]`: the configuration file read or
/// edited in place — comments, order and every other line kept; a change that would make the
/// file unreadable is refused (status 2) and the file left as it was.
struct ConfigCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "config", abstract: "Show or change the configuration file (get, set, unset), keeping its comments.",
        discussion: """
            tasks config                      every setting, KEY = VALUE, and the file's path
            tasks config get week.start       one value (status 1 when it is not set)
            tasks config set week.start sunday
            tasks config unset week.start
            The keys: \(Configuration.keyForms).
            -c KEY=VALUE overrides a setting for one command without changing the file.
            """,
        arguments: [ArgumentSpec("ACTION", help: "get, set or unset (nothing: show every setting).", optional: true,
                                 completion: .choices(["get", "set", "unset"])),
                    ArgumentSpec("KEY", help: "A dotted key (week.start, context.work.filter).", optional: true),
                    ArgumentSpec("VALUE", help: "The new value (set).", optional: true)]
    )
    static let changesTasks = false

    enum Action { case show, get(String), set(String, String), unset(String) }

    let action: Action
    let environment: [String: String]

    init(_ line: ParsedLine) throws {
        environment = line.invocation.environment
        let words = line.arguments
        switch (words.first, words.count) {
        case (nil, _): action = .show
        case ("get", 2): action = .get(words[1])
        case ("set", 3): action = .set(words[1], words[2])
        case ("unset", 2): action = .unset(words[1])
        case ("get", _), ("unset", _): throw CLIError.usage("'config \(words[0])' takes one KEY")
        case ("set", _): throw CLIError.usage("'config set' takes KEY and VALUE (quote a value with spaces)")
        default: throw CLIError.usage("'\(words[0])' is not a config action; use get, set or unset")
        }
        if case .get(let key) = action, !ConfigText.isKey(key) { throw CLIError.usage("'\(key)' is not a key (dotted words)") }
    }

    func run(_ context: CommandContext) {
        context.reporting {
            switch action {
            case .show:
                let text = try ConfigFile.text(environment)
                let config = try ConfigFile.parse(text.text, path: text.path)
                var out = "# \(text.path)\n"
                for entry in config.entries { out += entry.key + " = " + (entry.isArray ? "[" + entry.values.map(ConfigText.quoted).joined(separator: ", ") + "]" : ConfigText.quoted(entry.value)) + "\n" }
                context.console.stdout.write(context.console.shown(out))
            case .get(let key):
                let text = try ConfigFile.text(environment)
                guard let entry = try ConfigFile.parse(text.text, path: text.path)[key] else {
                    return context.status.fail(.failure("\(key) is not set in \(text.path)"))
                }
                context.console.stdout.write(context.console.shown(entry.isArray ? entry.values.joined(separator: ", ") : entry.value) + "\n")
            case .set(let key, let value):
                if ConfigFile.takesList(key) {
                    let values: [String]
                    do throws(ConfigText.Failure) {
                        values = try ConfigText.list(value)
                    } catch {
                        throw CLIError.usage("\(key): \(error.reason)")
                    }
                    try ConfigFile.change(environment, key, toList: values)
                    let shown = "[" + values.map(ConfigText.quoted).joined(separator: ", ") + "]"
                    if context.speaks { context.console.stdout.write(context.console.shown("Set \(key) = \(shown)") + "\n") }
                } else {
                    try ConfigFile.change(environment, key, to: value)
                    if context.speaks { context.console.stdout.write(context.console.shown("Set \(key) = \(ConfigText.quoted(value))") + "\n") }
                }
            case .unset(let key):
                try ConfigFile.change(environment, key, to: nil)
                if context.speaks { context.console.stdout.write(context.console.shown("Unset \(key)") + "\n") }
            }
        }
    }
}

/// The configuration file as text: read, and changed one key at a time through `ConfigText`,
/// checked as a whole by `Configuration.read` before it is written (by a rename).
enum ConfigFile {
    static func text(_ environment: [String: String]) throws -> (text: String, path: String) {
        guard let path = Configuration.path(environment) else { throw CLIError.failure("no configuration file: neither XDG_CONFIG_HOME nor HOME is set") }
        let bytes = StateFile.read(path) ?? []
        return (String(decoding: bytes, as: UTF8.self), path)
    }

    static func parse(_ text: String, path: String) throws -> ConfigText {
        do throws(ConfigText.Failure) {
            return try ConfigText(text)
        } catch {
            throw CLIError.usage("\(path):\(error.line): \(error.reason)")
        }
    }

    /// Whether `key` takes several values, written as an array: a custom field's values, a
    /// report's columns and sort keys.
    static func takesList(_ key: String) -> Bool {
        let words = key.split(separator: ".")
        guard words.count == 3 else { return false }
        return (words[0] == "uda" && words[2] == "values") || (words[0] == "report" && (words[2] == "columns" || words[2] == "sort"))
    }

    /// `key` set to the array `values` in the file, as `change(_:_:to:)`.
    static func change(_ environment: [String: String], _ key: String, toList values: [String]) throws {
        try change(environment, key) { text throws(ConfigText.Failure) in try ConfigText.setting(key, toList: values, in: text) }
    }

    /// `key` set to `value` (nil: removed) in the file, which must stay a valid configuration.
    static func change(_ environment: [String: String], _ key: String, to value: String?) throws {
        try change(environment, key, removing: value == nil) { text throws(ConfigText.Failure) in try ConfigText.setting(key, to: value, in: text) }
    }

    private static func change(_ environment: [String: String], _ key: String, removing: Bool = false,
                               _ set: (String) throws(ConfigText.Failure) -> String) throws {
        guard ConfigText.isKey(key) else { throw CLIError.usage("'\(key)' is not a key (dotted words of letters, digits, - and _)") }
        let (text, path) = try self.text(environment)
        if removing, try parse(text, path: path)[key] == nil { throw CLIError.failure("\(key) is not set in \(path)") }
        let changed: String
        do throws(ConfigText.Failure) {
            changed = try set(text)
        } catch {
            throw CLIError.usage("\(path):\(error.line): \(error.reason)")
        }
        // The file as it would be, read as every command reads it: a bad key or value is
        // refused here, not by the next command.
        _ = try Configuration.read(changed, path: path)
        if changed == text { return }
        if let failure = StateFile.write(changed, to: path) { throw CLIError.failure(failure + "; the configuration is as it was") }
    }
}
