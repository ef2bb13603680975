/// The words an option's value is one of (`--sort due`, `--color never`), as an enum: the one
/// declaration that parsing, the completion of the value and the usage error all go by, so
/// that a new choice is a new case and nothing else (swift-argument-parser's
/// `ExpressibleByArgument` with `allValueStrings`).
public protocol OptionChoice: CaseIterable, Sendable {
    /// The word on the command line.
    var word: String { get }
    /// What a wrong word is not, after "is not": `an order`, `a colour choice`.
    static var noun: String { get }
    /// The choices a user is offered, in the order help and errors name them (every case,
    /// unless a command takes only some).
    static var offered: [Self] { get }
    /// The choice `text` names (by default: one of `offered`'s words, in any case).
    init?(word text: String)
}

extension OptionChoice {
    public static var offered: [Self] { Array(allCases) }

    /// The words, in order.
    public static var words: [String] { offered.map { $0.word } }

    /// `manual, due, priority or created`.
    public static var wordList: String {
        let words = self.words
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The choice `text` names, in any case.
    public init?(word text: String) {
        let folded = text.lowercased()
        guard let choice = Self.offered.first(where: { $0.word == folded }) else { return nil }
        self = choice
    }
}

extension OptionChoice where Self: RawRepresentable, RawValue == String {
    public var word: String { rawValue }
}

extension ValueCompletion {
    /// The words of `choice`, offered as they are declared.
    public static func choices<Choice: OptionChoice>(_ choice: Choice.Type) -> ValueCompletion { .choices(ChoiceWords { choice.words }) }
}

extension TerminalFacts.ColorChoice: OptionChoice {
    public static var noun: String { "a colour choice" }
}
