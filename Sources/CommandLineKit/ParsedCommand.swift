/// The result of parsing: which command, its options' values and its arguments. Parsing
/// touches nothing but the words it is given. Options are read through the `OptionSpec`s that
/// declare them — never by a name typed a second time.
public struct ParsedCommand: Equatable, Sendable {
    /// The command's path below the root, e.g. `["list"]`; empty for the root itself.
    public var path: [String]
    /// Each given option's values by long name, in order; a flag has one empty value per use.
    public var values: [String: [String]]
    /// The positional arguments, in order.
    public var arguments: [String]
    /// `-h`/`--help` was given (anywhere): show the help of `path` instead of running.
    public var wantsHelp: Bool
    /// The long names of the options that apply to this command (its own and the root's), in
    /// their order.
    public var declared: [String]
    /// Where reads are recorded, for the test that checks every option is read and declared.
    public var readLog: OptionReadLog?

    public init(path: [String] = [], values: [String: [String]] = [:], arguments: [String] = [], wantsHelp: Bool = false,
                declared: [String] = []) {
        self.path = path
        self.values = values
        self.arguments = arguments
        self.wantsHelp = wantsHelp
        self.declared = declared
    }

    /// Whether the flag or option was given.
    public func has(_ option: OptionSpec) -> Bool { read(option) != nil }

    /// The last value given for the option.
    public func value(_ option: OptionSpec) -> String? { read(option)?.last }

    /// Every value given for the option, in order.
    public func values(_ option: OptionSpec) -> [String] { read(option) ?? [] }

    private func read(_ option: OptionSpec) -> [String]? {
        readLog?.record(option.long, declared: declared.contains(option.long))
        return values[option.long]
    }

    public static func == (lhs: ParsedCommand, rhs: ParsedCommand) -> Bool {
        (lhs.path, lhs.values, lhs.arguments, lhs.wantsHelp, lhs.declared) == (rhs.path, rhs.values, rhs.arguments, rhs.wantsHelp, rhs.declared)
    }
}

/// The options a reader asked a `ParsedCommand` for, and any it asked for that the command
/// does not declare.
public final class OptionReadLog: @unchecked Sendable {
    public private(set) var read: Set<String> = []
    public private(set) var undeclared: Set<String> = []

    public init() {}

    func record(_ long: String, declared: Bool) {
        read.insert(long)
        if !declared { undeclared.insert(long) }
    }
}

/// What is wrong with a command line, with the fix where one is likely. Exit status 2.
public enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownCommand(String, suggestion: String?, among: [String])
    /// `help` is how to see the command's options (`tasks help list`).
    case unknownOption(String, suggestion: String?, command: String, help: String)
    case missingValue(option: String)
    case unexpectedValue(option: String)
    case missingArgument(String, command: String)
    case unexpectedArgument(String, command: String, help: String)
    case repeatedOption(String)

    public var description: String {
        switch self {
        case .unknownCommand(let word, let suggestion, let among):
            let hint = suggestion.map { "did you mean '\($0)'?" } ?? "commands: \(among.joined(separator: ", "))"
            return "unknown command '\(word)'; \(hint)"
        case .unknownOption(let option, let suggestion, let command, let help):
            let hint = suggestion.map { "did you mean '\($0)'?" } ?? "see '\(help)'"
            return "unknown option '\(option)' for '\(command)'; \(hint)"
        case .missingValue(let option):
            return "option '\(option)' needs a value"
        case .unexpectedValue(let option):
            return "option '\(option)' takes no value"
        case .missingArgument(let name, let command):
            return "'\(command)' needs \(name)"
        case .unexpectedArgument(let word, let command, let help):
            return "'\(command)' takes no further argument '\(word)'; see '\(help)'"
        case .repeatedOption(let option):
            return "option '\(option)' is given more than once"
        }
    }
}
