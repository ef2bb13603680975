import CommandLineKit
import TerminalKit

/// From a parsed line to a command: the root's own flags (`--help`, `--version`), else the
/// command it names, read and validated. Nothing here touches the database.
struct CommandReader {
    let invocation: Invocation

    func read(_ parsed: ParsedCommand) throws -> any TasksCommand {
        try read(ParsedLine(parsed: parsed, invocation: invocation))
    }

    /// The command of `line` (whose configuration, once read, the command reads again free).
    func read(_ line: ParsedLine) throws -> any TasksCommand {
        let parsed = line.parsed
        if parsed.wantsHelp { return HelpCommand(path: parsed.path) }
        if parsed.has(Option.version) { return VersionCommand(line) }
        let name = parsed.path.first ?? TasksSpec.root.defaultSubcommand ?? "list"
        guard let type = CommandRegistry.command(named: name) else { throw CLIError.usage("unknown command '\(name)'") }
        let command = try type.init(line)
        try command.validate()
        return command
    }

    /// The output settings; a bad `--format` or `--color` is a usage error.
    func outputSettings(_ parsed: ParsedCommand) throws -> OutputSettings {
        try outputSettings(ParsedLine(parsed: parsed, invocation: invocation))
    }

    func outputSettings(_ line: ParsedLine) throws -> OutputSettings {
        let parsed = line.parsed
        var format: OutputFormat = invocation.terminal.stdoutIsTerminal ? .table : .tsv
        // A command with a --format of its own (export, import) reads it itself.
        let ownFormat = parsed.path.first.flatMap(TasksSpec.root.subcommand(named:))?.options.contains { $0.long == Option.format.long } ?? false
        var svg = false
        if !ownFormat, let text = parsed.value(Option.format) {
            if text == "svg" {
                guard let name = parsed.path.first, TasksSpec.drawsSVG.contains(name) else {
                    throw CLIError.usage("--format svg draws the pictures: " + TasksSpec.drawsSVG.sorted().joined(separator: ", "))
                }
                (format, svg) = (.table, true)
            } else {
                format = try ParsedLine.choice(text, OutputFormat.self)
            }
        }
        // --color, else -c color=WHEN, else the configuration's color (read only when neither
        // is given), else auto. A configuration in error is the command's to report (when it
        // reads it), not every command's: `tasks config set` must still run to mend it.
        let overridden = parsed.values(Option.setting).last { $0.hasPrefix("color=") }.map { String($0.dropFirst(6)) }
        // A `-c` the configuration refuses is this command line's error, said here.
        let configured = parsed.value(Option.color) != nil || overridden != nil ? nil
            : parsed.values(Option.setting).isEmpty ? (try? line.configuration())?.color : try line.configuration().color
        let choice = try (parsed.value(Option.color) ?? overridden ?? configured).map { try ParsedLine.choice($0, TerminalFacts.ColorChoice.self) } ?? .auto
        var settings = OutputSettings(
            format: format, isExplicit: !ownFormat && parsed.has(Option.format), header: parsed.has(Option.header), quiet: parsed.has(Option.quiet),
            color: format == .table && invocation.terminal.usesColor(choice, environment: invocation.environment), svg: svg
        )
        // The colour rules, read only when they can show: a table in colour, and a rule set.
        if settings.color, !svg, let configuration = try? line.configuration(), !configuration.colors.isEmpty {
            settings.colorRules = try configuration.colorRules(line.filterSettings(configuration))
        }
        return settings
    }
}
