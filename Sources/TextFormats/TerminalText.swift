/// Text as a terminal shows it: how many cells it takes, and control characters made visible.
public enum TerminalText {
    /// The number of terminal cells `text` occupies: 2 for East Asian wide and fullwidth
    /// characters and emoji, 0 for combining marks and other zero-width characters, 1 otherwise.
    /// Counted per grapheme cluster, so `e` + U+0301 and a ZWJ family are one unit each.
    public static func displayWidth(_ text: some StringProtocol) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + width(of: $1) }
    }

    /// The cells `text` occupies (the common case: a plain ASCII string, one byte per cell).
    public static func displayWidth(_ text: String) -> Int {
        if isPlainASCII(text) { return text.utf8.count }
        return text.reduce(0) { $0 + width(of: $1) }
    }

    /// Printable ASCII only (space to `~`): one cell per byte, nothing to escape.
    public static func isPlainASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
    }

    /// The cells one character takes.
    public static func width(of character: Character) -> Int {
        var sawVisible = false
        for scalar in character.unicodeScalars {
            if isWide(scalar) { return 2 }
            if !isZeroWidth(scalar) { sawVisible = true }
        }
        return sawVisible ? 1 : 0
    }

    /// Whether terminals disagree on how many cells `character` takes: an emoji made wide by
    /// VS16 (U+FE0F) or a ZWJ sequence, a skin tone, a flag, or a symbol this table counts as
    /// wide without its default emoji presentation (🍽 U+1F37D). xterm, tmux 3.3 and VTE before
    /// 0.76 give these one cell where kitty, WezTerm, iTerm2 and recent VTE give two; the
    /// renderer places the cursor after each one, so the rest of the row is right either way.
    public static func isWidthAmbiguous(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, first.value >= 0x80 else { return false }
        if scalars.count > 1 {
            return scalars.contains { $0.value == 0xFE0F || $0.value == 0x200D || (0x1F3FB...0x1F3FF).contains($0.value)
                || (0x1F1E6...0x1F1FF).contains($0.value) }
        }
        return first.value >= 0x1F000 && !first.properties.isEmojiPresentation && isWide(first)
    }

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return scalar.value == 0x200B || (0x1160...0x11FF).contains(scalar.value)
        }
    }

    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if scalar.properties.isEmojiPresentation { return true }
        // East Asian Wide (W) and Fullwidth (F) blocks.
        let ranges: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        return ranges.contains { $0.contains(value) }
    }

    /// `text` with every control character shown as an escape (`\e`, `\n`, `\t`, `\x07`, …), so
    /// that nothing in a title reaches the terminal as a control sequence.
    /// Zero-width and invisible format characters are shown too (`\x200b`) — but a zero-width
    /// joiner between two emoji, which makes them one (`👩‍💻`), is kept.
    public static func escapingControls(_ text: String) -> String {
        escaping(text, forTerminal: false) ?? text
    }

    /// `text` as written to a terminal: the last step of every byte `tasks` sends to one
    /// (`Output`'s terminal guard). Lines and tabs stay; the program's own styles, written as
    /// `Mark`s, become their sequences; every other control, override and invisible character
    /// is shown as `escapingControls` shows it — so a field some path forgot to escape still
    /// cannot reach the terminal as a sequence. `nil` when there is nothing to change.
    public static func guarded(_ text: String) -> String? {
        escaping(text, forTerminal: true)
    }

    /// `text` with the program's `Mark`s made their sequences and nothing else changed (colour
    /// asked for in a pipe); `nil` when it holds none.
    public static func expandingMarks(_ text: String) -> String? {
        guard text.unicodeScalars.contains(where: { Mark(rawValue: $0.value) != nil }) else { return nil }
        let scalars = Array(text.unicodeScalars)
        var result = ""
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if let run = Mark.styleRun(scalars, at: index) {
                result += run.sequence
                index = run.next
                continue
            }
            if let mark = Mark(rawValue: scalar.value), !mark.isStylePart {
                result += mark.sequence
            } else if Mark(rawValue: scalar.value) != nil {
                result += "\\x" + hex(scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
            index += 1
        }
        return result
    }

    /// The program's own terminal styles, written into text as Unicode noncharacters (which
    /// Unicode keeps for a program's internal use and `escapingControls` shows visibly when a
    /// field holds one) and made escape sequences only as the bytes leave for the terminal.
    /// So the styles are added after the escaping. A field that holds one is shown visibly
    /// wherever fields are escaped; where some path forgot to, the most it can do is style
    /// text — no mark moves the cursor or erases (`Output.writeSequence` is for those).
    public enum Mark: UInt32, Sendable {
        case reset = 0xFDD0, bold, dim, red, defaultColor
        /// Backgrounds, for the charts' blocks (Taskwarrior's `on red`, `on green`, `on yellow`).
        case onRed, onGreen, onYellow, defaultBackground, onBlue, onBrightRed
        /// A style of the configuration's colour rules (`TerminalStyle.marks`): `sgrStart`, its
        /// parameters as digit marks parted by `sgrSeparator`, then `sgrEnd`. Only that whole
        /// shape becomes a sequence, and only a select-graphic-rendition one (`ESC [ … m`);
        /// any of these marks alone is shown as an escape.
        case sgrStart, sgrSeparator, sgrEnd
        case digit0, digit1, digit2, digit3, digit4, digit5, digit6, digit7, digit8, digit9

        /// The mark of the decimal digit `value` (0–9; anything else is 0).
        public static func digit(_ value: Int) -> Mark {
            Mark(rawValue: Mark.digit0.rawValue + UInt32(clamping: (0...9).contains(value) ? value : 0)) ?? .digit0
        }

        /// The digit a digit mark stands for, else nil.
        var digitValue: UInt32? {
            (Mark.digit0.rawValue...Mark.digit9.rawValue).contains(rawValue) ? rawValue - Mark.digit0.rawValue : nil
        }

        /// Whether it is part of a rule's style, meaningful only in the whole shape.
        var isStylePart: Bool { rawValue >= Mark.sgrStart.rawValue }

        /// The mark, as text to put around what it styles.
        public var text: String { Unicode.Scalar(rawValue).map { String($0) } ?? "" }

        /// What the terminal receives for it.
        public var sequence: String {
            switch self {
            case .reset: "\u{1B}[0m"
            case .bold: "\u{1B}[1m"
            case .dim: "\u{1B}[2m"
            case .red: "\u{1B}[31m"
            case .defaultColor: "\u{1B}[39m"
            case .onRed: "\u{1B}[41m"
            case .onGreen: "\u{1B}[42m"
            case .onYellow: "\u{1B}[43m"
            case .defaultBackground: "\u{1B}[49m"
            case .onBlue: "\u{1B}[44m"
            case .onBrightRed: "\u{1B}[101m"
            case .sgrStart, .sgrSeparator, .sgrEnd, .digit0, .digit1, .digit2, .digit3, .digit4, .digit5, .digit6, .digit7, .digit8, .digit9: ""
            }
        }

        /// The sequence of the style marks that start at `index` (`sgrStart`, digits and
        /// separators, `sgrEnd`: at most 64 in all), and the index after them; nil when the
        /// marks there are not that whole shape.
        static func styleRun(_ scalars: [Unicode.Scalar], at index: Int) -> (sequence: String, next: Int)? {
            guard scalars[index].value == Mark.sgrStart.rawValue else { return nil }
            var sequence = "\u{1B}["
            var position = index + 1
            var lastWasDigit = false
            while position < scalars.count, position - index < 64, let mark = Mark(rawValue: scalars[position].value) {
                if mark == .sgrEnd {
                    return lastWasDigit ? (sequence + "m", position + 1) : nil
                } else if mark == .sgrSeparator, lastWasDigit {
                    sequence += ";"
                    lastWasDigit = false
                } else if let digit = mark.digitValue {
                    sequence += String(digit)
                    lastWasDigit = true
                } else {
                    return nil
                }
                position += 1
            }
            return nil
        }
    }

    /// `text` with each control or stray joiner escaped — for a terminal, lines and tabs kept
    /// and marks made their sequences; `nil` when nothing changed.
    private static func escaping(_ text: String, forTerminal: Bool) -> String? {
        if isPlainASCII(text) { return nil }
        func kept(_ scalar: Unicode.Scalar) -> Bool { forTerminal && (scalar.value == 0x0A || scalar.value == 0x09) }
        func changes(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
            (isControl(scalars[index]) && !kept(scalars[index])) || isStrayJoiner(scalars, at: index)
        }
        // Most text has nothing to show: found without copying its scalars.
        guard text.unicodeScalars.contains(where: { (isControl($0) && !kept($0)) || $0.value == 0x200D }) else { return nil }
        let scalars = Array(text.unicodeScalars)
        guard scalars.indices.contains(where: { changes(scalars, $0) }) else { return nil }
        var result = ""
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            defer { index += 1 }
            guard changes(scalars, index) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            if forTerminal, let run = Mark.styleRun(scalars, at: index) {
                result += run.sequence
                index = run.next - 1
                continue
            }
            if forTerminal, let mark = Mark(rawValue: scalar.value), !mark.isStylePart {
                result += mark.sequence
                continue
            }
            switch scalar.value {
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x1B: result += "\\e"
            default: result += "\\x" + hex(scalar.value)
            }
        }
        return result
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || scalar.value == 0x2028 || scalar.value == 0x2029  // line and paragraph separators
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)  // bidi overrides
            || isInvisible(scalar)
            || (0xFDD0...0xFDEF).contains(scalar.value)  // noncharacters: the program's own style marks
    }

    /// The characters that take no cell and change nothing a reader should miss: zero-width
    /// space, left-to-right and right-to-left marks, the Arabic letter mark, word joiner and
    /// invisible operators, the byte-order mark, the Mongolian vowel separator. (The
    /// non-joiner, U+200C, is kept: Persian and Indic text need it.)
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B, 0x200E, 0x200F, 0x061C, 0x2060...0x2064, 0xFEFF, 0x180E: true
        default: false
        }
    }

    /// Whether the scalar at `index` is a zero-width joiner that joins no two emoji (one
    /// joining 👩 and 💻 makes one picture; one anywhere else hides a seam).
    static func isStrayJoiner(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard scalars[index].value == 0x200D else { return false }
        func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.properties.isEmoji && scalar.value > 0x7F) || scalar.properties.isEmojiModifier || scalar.value == 0xFE0F
        }
        guard index > 0, index + 1 < scalars.count else { return true }
        return !(isEmoji(scalars[index - 1]) && isEmoji(scalars[index + 1]))
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return digits.count % 2 == 1 ? "0" + digits : digits
    }

    /// `text` cut to at most `width` cells, ending in `…` when cut.
    public static func truncated(_ text: String, toWidth width: Int) -> String {
        if displayWidth(text) <= width { return text }
        guard width >= 1 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let cells = self.width(of: character)
            if used + cells > width - 1 { break }
            result.append(character)
            used += cells
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` cells.
    public static func padded(_ text: String, toWidth width: Int) -> String {
        let missing = width - displayWidth(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }

    /// The cells `bytes` (UTF-8) take once shown on a terminal, controls escaped.
    public static func shownWidth(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return bytes.count }
        return displayWidth(escapingControls(String(decoding: bytes, as: UTF8.self)))
    }

    /// `text` with spaces before it to fill `width` cells (numbers in a column).
    public static func leftPadded(_ text: String, toWidth width: Int) -> String {
        let missing = width - displayWidth(text)
        return missing > 0 ? String(repeating: " ", count: missing) + text : text
    }
}
