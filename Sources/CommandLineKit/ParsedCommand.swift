/// The result of parsing: which command, its options' values and its arguments. Parsing
/// touches nothing but the words it is given.
public struct ParsedCommand: Equatable, Sendable {
    /// The command's path below the root, e.g. `["list"]`; empty for the root itself.
    public var path: [String]
    /// Each given option's values by long name, in order; a flag has one empty value per use.
    public var options: [String: [String]]
    /// The positional arguments, in order.
    public var arguments: [String]
    /// `-h`/`--help` was given (anywhere): show the help of `path` instead of running.
    public var wantsHelp: Bool

    public init(path: [String] = [], options: [String: [String]] = [:], arguments: [String] = [], wantsHelp: Bool = false) {
        self.path = path
        self.options = options
        self.arguments = arguments
        self.wantsHelp = wantsHelp
    }

    /// Whether the flag or option `long` was given.
    public func has(_ long: String) -> Bool { options[long] != nil }

    /// The last value given for `long`.
    public func value(_ long: String) -> String? { options[long]?.last }

    /// Every value given for `long`, in order.
    public func values(_ long: String) -> [String] { options[long] ?? [] }
}

/// What is wrong with a command line, with the fix where one is likely. Exit status 2.
public enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownCommand(String, suggestion: String?, among: [String])
    case unknownOption(String, suggestion: String?, command: String)
    case missingValue(option: String)
    case unexpectedValue(option: String)
    case missingArgument(String, command: String)
    case unexpectedArgument(String, command: String)
    case repeatedOption(String)

    public var description: String {
        switch self {
        case .unknownCommand(let word, let suggestion, let among):
            let hint = suggestion.map { "did you mean '\($0)'?" } ?? "commands: \(among.joined(separator: ", "))"
            return "unknown command '\(word)'; \(hint)"
        case .unknownOption(let option, let suggestion, let command):
            let hint = suggestion.map { "did you mean '\($0)'?" } ?? "see 'tasks help \(command)'"
            return "unknown option '\(option)' for '\(command)'; \(hint)"
        case .missingValue(let option):
            return "option '\(option)' needs a value"
        case .unexpectedValue(let option):
            return "option '\(option)' takes no value"
        case .missingArgument(let name, let command):
            return "'\(command)' needs \(name)"
        case .unexpectedArgument(let word, let command):
            return "'\(command)' takes no further argument '\(word)'; see 'tasks help \(command)'"
        case .repeatedOption(let option):
            return "option '\(option)' is given more than once"
        }
    }
}
