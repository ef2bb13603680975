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
            if !word.hasPrefix("-") || word == "-" { return true }
        }
        return false
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
            } else if !command.subcommands.isEmpty {
                guard let subcommand = command.subcommand(named: word) else {
                    let names = command.subcommands.map(\.name)
                    throw UsageError.unknownCommand(word, suggestion: Suggestion.closest(to: word, among: names + command.subcommands.flatMap(\.aliases)), among: names)
                }
                command = subcommand
                result.path.append(subcommand.name)
            } else {
                result.arguments.append(word)
            }
        }

        if !command.subcommands.isEmpty, let fallback = command.defaultSubcommand, !result.wantsHelp,
           let subcommand = command.subcommand(named: fallback) {
            command = subcommand
            result.path.append(subcommand.name)
        }
        result.declared = Set(options().map(\.long))
        if result.wantsHelp { return result }
        try checkArguments(result.arguments, of: command, name: commandName(), help: helpCommand())
        return result
    }

    private func checkArguments(_ arguments: [String], of command: CommandSpec, name: String, help: String) throws {
        let required = command.arguments.filter { !$0.isOptional }
        if arguments.count < required.count {
            let missing = required[arguments.count]
            throw UsageError.missingArgument(missing.name + (missing.isVariadic ? "..." : ""), command: name)
        }
        let takesAll = command.arguments.last?.isVariadic == true
        if !takesAll && arguments.count > command.arguments.count {
            throw UsageError.unexpectedArgument(arguments[command.arguments.count], command: name, help: help)
        }
    }
}

/// "Did you mean": the closest name by edit distance (transpositions count once), when close.
public enum Suggestion {
    public static func closest(to word: String, among names: [String]) -> String? {
        let scored = names.map { ($0, distance(word, $0)) }.sorted { $0.1 < $1.1 }
        guard let (name, score) = scored.first else { return nil }
        let limit = max(1, min(word.count, name.count) / 3)
        return score <= limit ? name : nil
    }

    /// Optimal string alignment distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased()), y = Array(b.lowercased())
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { table[i][0] = i }
        for j in 0...y.count { table[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[x.count][y.count]
    }
}
