import TerminalKit
import TextFormats

/// Text being typed, and where the caret is: what a `UITextField` holds for itself. Knows
/// the editing keys of the contract: arrows, `Home`/`End`, `Backspace`, `Delete`, `Ctrl-A`,
/// `Ctrl-E`, `Ctrl-U` (to the start), `Ctrl-K` (to the end), `Ctrl-W` (the word before).
struct TextField: Equatable {
    private(set) var characters: [Character]
    /// The caret: before `characters[caret]`.
    private(set) var caret: Int
    /// Whether Enter makes a new line (the notes) rather than ending the field.
    let isMultiline: Bool

    init(_ text: String = "", multiline: Bool = false) {
        characters = Array(text)
        caret = characters.count
        isMultiline = multiline
    }

    var text: String { String(characters) }

    /// Applies an editing key; false when the key is not one (the screen's, then).
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character): insert(String(character))
        case .paste(let text): insert(isMultiline ? text.unifyingLineBreaks() : text.replacingLineBreaks())
        case .enter where isMultiline: insert("\n")
        case .left: caret = max(0, caret - 1)
        case .right: caret = min(characters.count, caret + 1)
        case .home, .control("a"): caret = isMultiline ? lineStart : 0
        case .end, .control("e"): caret = isMultiline ? lineEnd : characters.count
        case .up where isMultiline: moveLine(by: -1)
        case .down where isMultiline: moveLine(by: 1)
        case .backspace:
            if caret > 0 {
                characters.remove(at: caret - 1)
                caret -= 1
            }
        case .delete:
            if caret < characters.count { characters.remove(at: caret) }
        case .control("u"):
            characters.removeSubrange(0..<caret)
            caret = 0
        case .control("k"):
            characters.removeSubrange(caret...)
        case .control("w"):
            var start = caret
            while start > 0 && characters[start - 1] == " " { start -= 1 }
            while start > 0 && characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<caret)
            caret = start
        default:
            return false
        }
        return true
    }

    /// Inserts `new` at the caret, the text then split into characters (extended grapheme
    /// clusters) again: a terminal sends an emoji sequence one code point at a time (👩, the
    /// joiner, 💻), and a flag's two regional indicators one after the other, so what was
    /// typed joins what it follows into one character — moved over and deleted whole. The
    /// caret goes after what was inserted, or after the character it became part of.
    private mutating func insert(_ new: String) {
        guard !new.isEmpty else { return }
        let before = String(characters[..<caret]) + new
        let after = String(characters[caret...])
        characters = Array(before + after)
        // The caret: after the first characters whose UTF-8 reaches the end of `before`.
        let end = before.utf8.count
        var length = 0
        caret = characters.count
        for (index, character) in characters.enumerated() {
            length += character.utf8.count
            if length >= end {
                caret = index + 1
                break
            }
        }
    }

    private var lineStart: Int {
        var index = caret
        while index > 0 && characters[index - 1] != "\n" { index -= 1 }
        return index
    }

    private var lineEnd: Int {
        var index = caret
        while index < characters.count && characters[index] != "\n" { index += 1 }
        return index
    }

    private mutating func moveLine(by delta: Int) {
        let column = caret - lineStart
        if delta < 0 {
            guard lineStart > 0 else { return }
            caret = lineStart - 1
            caret = min(lineStart + column, lineEnd)
        } else {
            guard lineEnd < characters.count else { return }
            caret = lineEnd + 1
            caret = min(caret + column, lineEnd)
        }
    }

    /// The lines, and the caret's line and cell within it (for drawing).
    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    var caretPosition: (line: Int, cells: Int) {
        let before = characters[..<caret]
        let line = before.filter { $0 == "\n" }.count
        let lastLine = before.split(separator: "\n", omittingEmptySubsequences: false).last.map { String($0) } ?? ""
        return (line, TerminalText.displayWidth(TerminalText.escapingControls(lastLine)))
    }
}

extension String {
    /// Every line break as `\n`: a terminal pastes lines ending in `\r` (or `\r\n`).
    func unifyingLineBreaks() -> String {
        String(map { $0 == "\r" || $0 == "\r\n" ? "\n" : $0 })
    }

    /// Line breaks as spaces: what a one-line field makes of a pasted paragraph.
    func replacingLineBreaks() -> String {
        String(map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}
