import TextFormats

/// Parses a command line against a `CommandSpec` tree, without side effects.
///
/// - `--name value`, `--name=value`, `-n value`, `-nvalue`, `-n=value`, bundled flags `-ab`;
/// - `--` ends the options (a title may start with `-`); a lone `-` is an argument (stdin);
///   `-5` is an argument too, for the command to judge as an id;
/// - `-h`/`--help` anywhere asks for help; the root's options apply after a subcommand too;
/// - with no subcommand named, the root's default subcommand runs (`tasks --all` is
///   `tasks list --all`).
public struct CommandParser: Sendable {
    public let root: CommandSpec

    public init(root: CommandSpec) { self.root = root }

    public func parse(_ words: [String]) throws -> ParsedCommand {
        do {
            return try parseOnce(words)
        } catch let error as UsageError {
            // No command named and no argument given: the words belong to the default command.
            guard let fallback = root.defaultSubcommand, !namesACommandOrArgument(words) else { throw error }
            return try parseOnce([fallback] + words)
        }
    }

    private func namesACommandOrArgument(_ words: [String]) -> Bool {
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" { return index < words.count }
            if word.hasPrefix("--"), !word.contains("="),
               allOptions.first(where: { "--" + $0.long == word })?.takesValue == true {
                index += 1
                continue
            }
            if word.count == 2, word.hasPrefix("-"), let letter = word.last,
               allOptions.first(where: { $0.short == letter })?.takesValue == true {
                index += 1
                continue
            }
            if !word.hasPrefix("-") || word == "-" { return !looksLikeFilter(word) }
        }
        return false
    }

    /// A word the default command's filter would read, not a mistyped command: `+tag`,
    /// `name:value`, an id or a range of ids, a parenthesis.
    private func looksLikeFilter(_ word: String) -> Bool {
        guard let fallback = root.defaultSubcommand, let command = root.subcommand(named: fallback),
              command.arguments.contains(where: { $0.takesFilterWords }), let first = word.first else { return false }
        return first == "+" || first == "(" || first.isNumber || word.contains(":")
    }

    private var allOptions: [OptionSpec] {
        func collect(_ command: CommandSpec) -> [OptionSpec] { command.options + command.subcommands.flatMap(collect) }
        return collect(root)
    }

    private func parseOnce(_ words: [String]) throws -> ParsedCommand {
        var command = root
        var result = ParsedCommand()
        var onlyArguments = false
        var index = 0

        func options() -> [OptionSpec] { result.path.isEmpty ? command.options : command.options(under: root) }
        func commandName() -> String { result.path.isEmpty ? root.name : result.path.joined(separator: " ") }
        func helpCommand() -> String { ([root.name, "help"] + result.path).joined(separator: " ") }

        func record(_ option: OptionSpec, _ value: String, as written: String) throws {
            if option.takesValue, !option.isRepeatable, result.values[option.long] != nil {
                throw UsageError.repeatedOption(written)
            }
            result.values[option.long, default: []].append(value)
        }

        func nextValue(for written: String) throws -> String {
            guard index < words.count else { throw UsageError.missingValue(option: written) }
            defer { index += 1 }
            return words[index]
        }

        while index < words.count {
            let word = words[index]
            index += 1
            if onlyArguments {
                result.arguments.append(word)
            } else if word == "--" {
                onlyArguments = true
            } else if word == "-h" || word == "--help" {
                result.wantsHelp = true
            } else if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let option = options().first(where: { $0.long == name }) else {
                    throw UsageError.unknownOption("--" + name, suggestion: Suggestion.closest(to: "--" + name, among: options().map { "--" + $0.long }),
                                                   command: commandName(), help: helpCommand())
                }
                if option.takesValue {
                    try record(option, try inline ?? nextValue(for: "--" + name), as: "--" + name)
                } else if inline != nil {
                    throw UsageError.unexpectedValue(option: "--" + name)
                } else {
                    try record(option, "", as: "--" + name)
                }
            } else if word.hasPrefix("-"), takesFilterWords(command, result.path), isFilterWord(word, options()) {
                result.arguments.append(word)
            } else if word.hasPrefix("-"), word.count > 1, !(word.dropFirst().first?.isNumber ?? false) {
                // A dash and a digit (`-3`, `-1d`: a step back in time) is a word, not options.
                var rest = Substring(word.dropFirst())
                while let letter = rest.first {
                    rest = rest.dropFirst()
                    guard let option = options().first(where: { $0.short == letter }) else {
                        throw UsageError.unknownOption("-\(letter)", suggestion: nil, command: commandName(), help: helpCommand())
                    }
                    if option.takesValue {
                        // `-l=Home` is `-l Home`, as `--list=Home` is `--list Home`.
                        if rest.first == "=" { rest = rest.dropFirst() }
                        try record(option, rest.isEmpty && !word.hasSuffix("=") ? try nextValue(for: "-\(letter)") : String(rest), as: "-\(letter)")
                        break
                    }
                    try record(option, "", as: "-\(letter)")
                }
            } else if command.hasSubcommands {
                guard let subcommand = command.subcommand(named: word) else {
                    let names = command.entries.map { $0.name }
                    throw UsageError.unknownCommand(word, suggestion: Suggestion.closest(to: word, among: names + command.entries.flatMap { $0.aliases }), among: names)
                }
                command = subcommand
                result.path.append(subcommand.name)
            } else {
                result.arguments.append(word)
            }
        }

        if command.hasSubcommands, let fallback = command.defaultSubcommand, !result.wantsHelp,
           let subcommand = command.subcommand(named: fallback) {
            command = subcommand
            result.path.append(subcommand.name)
        }
        result.declared = options().map { $0.long }
        if result.wantsHelp { return result }
        try checkArguments(result.arguments, of: command, name: commandName(), help: helpCommand())
        return result
    }

    /// Whether the command words are going to: the one named, or the default one when none is.
    private func takesFilterWords(_ command: CommandSpec, _ path: [String]) -> Bool {
        if command.arguments.contains(where: { $0.takesFilterWords }) { return true }
        guard path.isEmpty, let fallback = command.defaultSubcommand, let subcommand = command.subcommand(named: fallback) else { return false }
        return subcommand.arguments.contains(where: { $0.takesFilterWords })
    }

    /// `-word`: a dash and two or more characters, not `-x=value` of a short option that takes
    /// one; or a dash and one letter that is no short option here (`-b`, where `-a` is `--all`).
    private func isFilterWord(_ word: String, _ options: [OptionSpec]) -> Bool {
        let characters = Array(word)
        if characters.count == 2, characters[0] == "-", characters[1] != "-", !characters[1].isNumber {
            return !options.contains { $0.short == characters[1] }
        }
        guard characters.count >= 3, characters[0] == "-", characters[1] != "-" else { return false }
        if characters[2] == "=", options.contains(where: { $0.short == characters[1] && $0.takesValue }) { return false }
        return true
    }

    /// The command's name and its help command are spelled only for an error: joining words is
    /// generic code the runtime first looks up (a fifth of `tasks --version`'s instructions).
    private func checkArguments(_ arguments: [String], of command: CommandSpec, name: @autoclosure () -> String, help: @autoclosure () -> String) throws {
        let required = command.arguments.filter { !$0.isOptional }
        if arguments.count < required.count {
            let missing = required[arguments.count]
            throw UsageError.missingArgument(missing.name + (missing.isVariadic ? "..." : ""), command: name())
        }
        let takesAll = command.arguments.last?.isVariadic == true
        if !takesAll && arguments.count > command.arguments.count {
            throw UsageError.unexpectedArgument(arguments[command.arguments.count], command: name(), help: help())
        }
    }
}
