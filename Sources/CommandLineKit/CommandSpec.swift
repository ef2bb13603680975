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
    /// The subcommands by name, each spec built when it is asked for.
    public var entries: [Subcommand]
    /// The subcommand that runs when none is named (`tasks` alone is `tasks list`).
    public var defaultSubcommand: String?

    /// A subcommand's names, and how to build its spec: a command line builds only the spec
    /// of the command it names (building all 40 of `tasks` was an eighth of a `tasks add`'s
    /// instructions, and their code's pages faulted in), help and completion scripts all.
    public struct Subcommand: Sendable {
        public let name: String
        public let aliases: [String]
        public let spec: @Sendable () -> CommandSpec

        public init(name: String, aliases: [String] = [], spec: @escaping @Sendable () -> CommandSpec) {
            self.name = name
            self.aliases = aliases
            self.spec = spec
        }

        /// A subcommand whose spec is built already.
        public init(_ spec: CommandSpec) {
            self.init(name: spec.name, aliases: spec.aliases) { spec }
        }
    }

    public init(
        name: String, aliases: [String] = [], abstract: String, discussion: String = "",
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], subcommands: [CommandSpec] = [],
        defaultSubcommand: String? = nil
    ) {
        self.init(name: name, aliases: aliases, abstract: abstract, discussion: discussion, arguments: arguments, options: options,
                  entries: subcommands.map(Subcommand.init), defaultSubcommand: defaultSubcommand)
    }

    public init(
        name: String, aliases: [String] = [], abstract: String, discussion: String = "",
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], entries: [Subcommand],
        defaultSubcommand: String? = nil
    ) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.entries = entries
        self.defaultSubcommand = defaultSubcommand
    }

    /// Every subcommand's spec, built (help, completion scripts, the manual page).
    public var subcommands: [CommandSpec] { entries.map { $0.spec() } }

    /// Whether it has subcommands, without building them.
    public var hasSubcommands: Bool { !entries.isEmpty }

    /// The options that apply after this command, under `root`: its own, then the root's that
    /// it does not shadow (a command's own `--format` replaces the root's, by name or letter).
    /// Parsing, help and completion scripts all go by this.
    public func options(under root: CommandSpec) -> [OptionSpec] {
        options + root.options.filter { option in
            !options.contains { $0.long == option.long || ($0.short != nil && $0.short == option.short) }
        }
    }

    /// The subcommand called `name` or with `name` as an alias.
    public func subcommand(named name: String) -> CommandSpec? {
        entries.first { $0.name == name || $0.aliases.contains(name) }?.spec()
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
    /// What a shell offers for its value.
    public var completion: ValueCompletion

    /// A flag: present or not.
    public static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, help: help, isRepeatable: false, completion: .none)
    }

    /// An option that takes a value.
    public static func value(_ long: String, short: Character? = nil, name: String, help: String, repeatable: Bool = false,
                             completion: ValueCompletion = .none) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: name, help: help, isRepeatable: repeatable, completion: completion)
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
    /// What a shell offers for it.
    public var completion: ValueCompletion
    /// Whether it takes filter words: then `-word` (a dash and two or more characters) is an
    /// argument — a tag left out — not a bundle of short options; `-l=Home` and `-l Home`
    /// stay options.
    public var takesFilterWords: Bool

    public init(_ name: String, help: String, variadic: Bool = false, optional: Bool = false, completion: ValueCompletion = .none,
                filter: Bool = false) {
        self.name = name
        self.help = help
        self.isVariadic = variadic
        self.isOptional = optional
        self.completion = completion
        self.takesFilterWords = filter
    }
}

/// What a shell completes a value or argument with.
public enum ValueCompletion: Sendable, Equatable {
    /// Free text: nothing to offer.
    case none
    /// One of these words (made when a completion script or the manual asks).
    case choices(ChoiceWords)
    /// A file name.
    case files
    /// The words a shell command prints at completion time, one per line, each optionally
    /// followed by a tab and a description (`tasks list --format tsv | cut -f1,4`).
    case command(String)
    /// The names of the root's subcommands.
    case subcommands
}

/// The words a value is one of, made only when asked for. A command line parses against the
/// specs of the commands it names, and most of them offer choices; making every list of words
/// at start-up (an enum's cases mapped to strings and joined, generic code the runtime looks up
/// the first time) was a sixth of `tasks --version`'s instructions.
public struct ChoiceWords: Sendable, Equatable, ExpressibleByArrayLiteral {
    private let make: @Sendable () -> [String]

    public init(_ make: @escaping @Sendable () -> [String]) { self.make = make }

    public init(arrayLiteral words: String...) { self.make = { words } }

    /// The words, in the order offered.
    public var words: [String] { make() }

    public static func == (lhs: ChoiceWords, rhs: ChoiceWords) -> Bool { lhs.words == rhs.words }
}
