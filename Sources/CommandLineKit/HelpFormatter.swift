/// Usage lines and help text, generated from the same `CommandSpec` the parser reads.
public struct HelpFormatter: Sendable {
    public let root: CommandSpec

    public init(root: CommandSpec) { self.root = root }

    /// The command at `path` (empty for the root), if there is one.
    public func command(at path: [String]) -> CommandSpec? {
        var command = root
        for name in path {
            guard let next = command.subcommand(named: name) else { return nil }
            command = next
        }
        return command
    }

    /// `usage: tasks add [OPTIONS] TITLE...`
    public func usage(for path: [String]) -> String {
        guard let command = command(at: path) else { return "usage: \(root.name)" }
        var parts = ["usage:", ([root.name] + path).joined(separator: " ")]
        if command.hasSubcommands { parts.append(command.defaultSubcommand == nil ? "COMMAND" : "[COMMAND]") }
        if !command.options.isEmpty || !path.isEmpty { parts.append("[OPTIONS]") }
        for argument in command.arguments {
            let name = argument.name + (argument.isVariadic ? "..." : "")
            parts.append(argument.isOptional ? "[\(name)]" : name)
        }
        return parts.joined(separator: " ")
    }

    /// The whole help of the command at `path`.
    public func help(for path: [String]) -> String {
        guard let command = command(at: path) else { return usage(for: []) }
        var lines = [usage(for: path), "", command.abstract]
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        if !command.arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += table(command.arguments.map { ($0.name + ($0.isVariadic ? "..." : ""), $0.help) })
        }
        var options = path.isEmpty ? command.options : command.options(under: root)
        options.append(.flag("help", short: "h", help: "Show this help."))
        lines += ["", "OPTIONS:"]
        lines += table(options.map { option in
            var name = option.short.map { "-\($0), " } ?? "    "
            name += "--" + option.long
            if let value = option.valueName { name += " " + value }
            return (name, option.help)
        })
        if command.hasSubcommands {
            lines += ["", "COMMANDS:"]
            lines += table(command.subcommands.map { sub in
                let name = ([sub.name] + sub.aliases).joined(separator: ", ")
                return (name, sub.abstract + (sub.name == command.defaultSubcommand ? " (default)" : ""))
            })
            lines += ["", "See '\(root.name) help COMMAND' for the help of a command."]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func table(_ rows: [(String, String)]) -> [String] {
        let width = min(28, (rows.map(\.0.count).max() ?? 0) + 2)
        return rows.map { name, text in
            let padded = name.count < width ? name + String(repeating: " ", count: width - name.count) : name + "  "
            return "  " + padded + text
        }
    }
}
