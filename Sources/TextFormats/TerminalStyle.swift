/// A style a terminal draws text in, as Taskwarrior's colour rules write one
/// (`bold red on white`, `color214`, `rgb035 on gray4`, `underline bright blue`): attributes,
/// and a foreground and background from the 16 basic colours or the 256 of xterm's palette.
/// `TerminalText` writes it as marks, so the bytes leave only through `Output`'s guard.
public struct TerminalStyle: Hashable, Sendable {
    /// A colour: one of the 16 basic ones (0–7, and 8–15 their bright forms), or an entry of
    /// the 256-colour palette (`color214`; `rgbRGB` is 16 + 36R + 6G + B; `grayN` is 232 + N).
    public enum Color: Hashable, Sendable {
        case basic(UInt8)
        case palette(UInt8)

        /// The palette's entry for it (a basic colour is the palette's first 16).
        public var index: UInt8 {
            switch self {
            case .basic(let value), .palette(let value): value
            }
        }
    }

    public var bold = false
    public var underline = false
    public var inverse = false
    public var foreground: Color?
    public var background: Color?

    public init(bold: Bool = false, underline: Bool = false, inverse: Bool = false, foreground: Color? = nil, background: Color? = nil) {
        self.bold = bold
        self.underline = underline
        self.inverse = inverse
        self.foreground = foreground
        self.background = background
    }

    /// Whether it changes anything (Taskwarrior's `color.completed=`, empty, changes nothing).
    public var isPlain: Bool { self == TerminalStyle() }

    static let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// Reads Taskwarrior's spelling; the reason, naming the word, when a word is no colour.
    public init(taskwarrior text: String) throws(StyleError) {
        self.init()
        var onBackground = false
        var bright = false
        for word in text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) {
            func set(_ color: Color) throws(StyleError) {
                if onBackground {
                    guard background == nil else { throw StyleError(word: word, reason: "gives a second background") }
                    background = color
                } else {
                    guard foreground == nil else { throw StyleError(word: word, reason: "gives a second colour; a background follows 'on'") }
                    foreground = color
                }
                bright = false
            }
            switch word {
            case "bold": bold = true
            case "underline": underline = true
            case "inverse": inverse = true
            case "bright": bright = true
            case "on":
                guard !onBackground else { throw StyleError(word: word, reason: "is given twice") }
                onBackground = true
                bright = false
            default:
                if let index = Self.names.firstIndex(of: word) {
                    try set(.basic(UInt8(index) + (bright ? 8 : 0)))
                } else if let number = Self.number(word, after: "color", in: 0...255) {
                    try set(.palette(UInt8(number)))
                } else if let number = Self.number(word, after: "gray", in: 0...23) ?? Self.number(word, after: "grey", in: 0...23) {
                    try set(.palette(UInt8(232 + number)))
                } else if word.hasPrefix("rgb"), word.utf8.count == 6 {
                    let digits = word.utf8.dropFirst(3).map { Int($0) - 0x30 }
                    guard digits.allSatisfy({ (0...5).contains($0) }) else {
                        throw StyleError(word: word, reason: "is no colour; rgbRGB takes three digits from 0 to 5, as rgb035")
                    }
                    try set(.palette(UInt8(16 + 36 * digits[0] + 6 * digits[1] + digits[2])))
                } else {
                    throw StyleError(word: word, reason: "is no colour; use black, red, green, yellow, blue, magenta, cyan, white, "
                        + "color0–color255, rgb000–rgb555 or gray0–gray23, with bold, underline, inverse, bright and 'on' before a background")
                }
            }
        }
        if onBackground && background == nil { throw StyleError(word: "on", reason: "needs a colour after it") }
    }

    /// `word` as `prefix` and a number in `range` (`color214`), else nil.
    private static func number(_ word: String, after prefix: String, in range: ClosedRange<Int>) -> Int? {
        guard word.hasPrefix(prefix) else { return nil }
        let digits = word.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.utf8.count <= 3, digits.allSatisfy(\.isASCII), let number = Int(digits), range.contains(number) else { return nil }
        return number
    }

    /// This style with `other` drawn over it, as Taskwarrior blends two rules: the attributes
    /// of both, and `other`'s colours where it has them.
    public func blended(with other: TerminalStyle) -> TerminalStyle {
        TerminalStyle(bold: bold || other.bold, underline: underline || other.underline, inverse: inverse || other.inverse,
                      foreground: other.foreground ?? foreground, background: other.background ?? background)
    }

    /// Its SGR parameters, from a reset: `1;38;5;214;48;5;255`.
    public var parameters: [Int] {
        var codes: [Int] = []
        if bold { codes.append(1) }
        if underline { codes.append(4) }
        if inverse { codes.append(7) }
        func add(_ color: Color?, base: Int, bright: Int, extended: Int) {
            switch color {
            case .basic(let value)?: codes.append(value < 8 ? base + Int(value) : bright + Int(value) - 8)
            case .palette(let value)?: codes += [extended, 5, Int(value)]
            case nil: break
            }
        }
        add(foreground, base: 30, bright: 90, extended: 38)
        add(background, base: 40, bright: 100, extended: 48)
        return codes
    }

    /// The style as marks (`TerminalText.Mark.sgrStart`, its digits and separators, `sgrEnd`),
    /// from a reset: empty when plain. `TerminalText.Mark.reset` ends it.
    public var marks: String {
        guard !isPlain else { return "" }
        var text = TerminalText.Mark.reset.text + TerminalText.Mark.sgrStart.text
        for (position, code) in parameters.enumerated() {
            if position > 0 { text += TerminalText.Mark.sgrSeparator.text }
            for digit in String(code).utf8 {
                text += TerminalText.Mark.digit(Int(digit) - 0x30).text
            }
        }
        return text + TerminalText.Mark.sgrEnd.text
    }
}

/// Why a colour's words were refused: the word, and what is wrong with it.
public struct StyleError: Error, Equatable, Sendable, CustomStringConvertible {
    public let word: String
    public let reason: String

    public var description: String { "'\(word)' \(reason)" }
}
