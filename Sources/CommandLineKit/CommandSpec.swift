/// A command described as data: its name, what it does, its options, arguments and
/// subcommands. Parsing, help, usage lines and "did you mean" are all generated from it, so
/// they cannot drift apart (swift-argument-parser's `CommandConfiguration`, as a value).
public struct CommandSpec: Sendable {
    public var name: String
    public var aliases: [String]
    /// One line: what the command does.
    public var abstract: String
    /// More text for its help, if any.
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    public var subcommands: [CommandSpec]
    /// The subcommand that runs when none is named (`tasks` alone is `tasks list`).
    public var defaultSubcommand: String?

    public init(
        name: String, aliases: [String] = [], abstract: String, discussion: String = "",
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], subcommands: [CommandSpec] = [],
        defaultSubcommand: String? = nil
    ) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
    }

    /// The subcommand called `name` or with `name` as an alias.
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name || $0.aliases.contains(name) }
    }
}

/// An option: a flag (`--all`) or an option with a value (`--list Work`, `--list=Work`, `-l Work`).
public struct OptionSpec: Sendable, Equatable {
    /// The long name, without dashes.
    public var long: String
    /// The one-letter short name, if any.
    public var short: Character?
    /// The value's placeholder in help (`LIST`); `nil` for a flag.
    public var valueName: String?
    public var help: String
    /// Whether it may be given more than once (`--tag a --tag b`).
    public var isRepeatable: Bool

    /// A flag: present or not.
    public static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, help: help, isRepeatable: false)
    }

    /// An option that takes a value.
    public static func value(_ long: String, short: Character? = nil, name: String, help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: name, help: help, isRepeatable: repeatable)
    }

    /// Whether it takes a value.
    public var takesValue: Bool { valueName != nil }
}

/// A positional argument.
public struct ArgumentSpec: Sendable, Equatable {
    /// The placeholder in usage and help (`ID`, `TITLE`).
    public var name: String
    public var help: String
    /// Whether it takes every remaining argument (`TITLE...`).
    public var isVariadic: Bool
    /// Whether it may be left out.
    public var isOptional: Bool

    public init(_ name: String, help: String, variadic: Bool = false, optional: Bool = false) {
        self.name = name
        self.help = help
        self.isVariadic = variadic
        self.isOptional = optional
    }
}
