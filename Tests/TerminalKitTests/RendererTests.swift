import Testing
import TerminalKit
import TextFormats

@Suite("ScreenBuffer and Renderer")
struct RendererTests {
    @Test func wideCharactersTakeTwoCellsAndAreCutWhole() {
        var screen = ScreenBuffer(rows: 2, columns: 10)
        #expect(screen.write("한국어 ok", row: 0, column: 0) == 9)
        #expect(screen.text(row: 0) == "한국어 ok")
        #expect(screen.write("한국어 제목", row: 1, column: 0, width: 7) == 7)
        #expect(screen.text(row: 1) == "한국어…", "cut with … inside seven cells")
        var edge = ScreenBuffer(rows: 1, columns: 5)
        edge.write("abcd한", row: 0, column: 0)
        #expect(edge.text(row: 0) == "abcd…")
        edge.write("x", row: 0, column: 0)
        edge.write("漢", row: 0, column: 3)
        #expect(edge.text(row: 0) == "xbc漢", "a wide character at the edge fits in the last two cells")
    }

    @Test func overwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        var screen = ScreenBuffer(rows: 1, columns: 6)
        screen.write("한글", row: 0, column: 0)
        screen.write("x", row: 0, column: 1)
        #expect(screen.text(row: 0) == " x글")
        screen.write("y", row: 0, column: 2)
        #expect(screen.text(row: 0) == " xy", "글 lost its left half: both cells blank")
    }

    @Test func controlsAreShownEscaped() {
        var screen = ScreenBuffer(rows: 1, columns: 20)
        screen.write("a\u{1B}[2Jb\tc", row: 0, column: 0)
        #expect(screen.text(row: 0) == "a\\e[2Jb\\tc")
    }

    @Test func theFirstFrameIsWholeTheNextOnlyWhatChanged() {
        var renderer = Renderer()
        var screen = ScreenBuffer(rows: 3, columns: 20)
        screen.write("first line", row: 0, column: 0)
        screen.write("second line", row: 1, column: 0)
        let first = String(decoding: renderer.frame(screen), as: UTF8.self)
        #expect(first.hasPrefix("\u{1B}[0m\u{1B}[2J"))
        #expect(first.contains("first line") && first.contains("second line"))
        screen.write("SECOND", row: 1, column: 0)
        let second = String(decoding: renderer.frame(screen), as: UTF8.self)
        #expect(second == "\u{1B}[2;1HSECOND\u{1B}[?25l", "one move and the six changed cells")
        #expect(renderer.frame(screen) == Array("\u{1B}[?25l".utf8), "nothing changed, nothing drawn")
        renderer.invalidate()
        #expect(String(decoding: renderer.frame(screen), as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[2J"))
    }

    @Test func stylesAreSwitchedOnlyWhereTheyChange() {
        var renderer = Renderer()
        var screen = ScreenBuffer(rows: 1, columns: 8)
        _ = renderer.frame(screen)
        screen.write("ab", row: 0, column: 0, style: CellStyle(bold: true))
        screen.write("cd", row: 0, column: 2, style: CellStyle(reverse: true, foreground: .red))
        let bytes = String(decoding: renderer.frame(screen, cursor: (0, 4)), as: UTF8.self)
        #expect(bytes == "\u{1B}[1;1H\u{1B}[0;1mab\u{1B}[0;7;31mcd\u{1B}[0m\u{1B}[1;5H\u{1B}[?25h")
    }

    @Test func aChangedWideCharacterIsRedrawnWhole() {
        var renderer = Renderer()
        var screen = ScreenBuffer(rows: 1, columns: 6)
        screen.write("ab한c", row: 0, column: 0)
        _ = renderer.frame(screen)
        screen.write("글", row: 0, column: 2)
        #expect(String(decoding: renderer.frame(screen), as: UTF8.self) == "\u{1B}[1;3H글\u{1B}[?25l")
    }

    @Test func aBlankTailIsOneEraseToTheEndOfTheLine() {
        var renderer = Renderer()
        var screen = ScreenBuffer(rows: 1, columns: 12)
        screen.write("abc     xyz", row: 0, column: 0)
        _ = renderer.frame(screen)
        screen.write("        ", row: 0, column: 3)
        screen.write("   ", row: 0, column: 9)
        #expect(String(decoding: renderer.frame(screen), as: UTF8.self) == "\u{1B}[1;9H\u{1B}[K\u{1B}[?25l", "xyz blanked: one EL from the first changed cell")
    }

    @Test func anEmojiWithVS16IsFollowedByTheCursorPlacedWhereTheNextCellBegins() {
        var renderer = Renderer()
        var screen = ScreenBuffer(rows: 1, columns: 10)
        _ = renderer.frame(screen)
        screen.write("a🍽️b", row: 0, column: 0)
        #expect(String(decoding: renderer.frame(screen), as: UTF8.self)
            == "\u{1B}[1;1Ha  \u{1B}[1;2H🍽️\u{1B}[1;4Hb\u{1B}[?25l")
    }

    /// The bytes drawn on a terminal that gives VS16 emoji one cell (xterm, tmux 3.3) and on one
    /// that gives them two (kitty, WezTerm): the cells after them land in the same place, and a
    /// frame after them leaves no stray cell, on both.
    @Test(arguments: [1, 2]) func theRowAfterAnAmbiguousEmojiIsInPlaceWhicheverWidthTheTerminalGives(emojiWidth: Int) {
        var renderer = Renderer()
        var terminal = CellTerminal(rows: 2, columns: 24, ambiguousWidth: emojiWidth)
        var screen = ScreenBuffer(rows: 2, columns: 24)
        screen.write("Emoji 🍽️ party 🗑️", row: 0, column: 0)
        screen.write("│x", row: 0, column: 20)
        screen.write("plain", row: 1, column: 0)
        terminal.feed(renderer.frame(screen))
        #expect(terminal.cell(row: 0, column: 20) == "│" && terminal.cell(row: 0, column: 21) == "x", "\(terminal.rows[0])")
        screen.write(String(repeating: " ", count: 20), row: 0, column: 0)
        screen.write("Buy milk", row: 0, column: 0)
        screen.write("│y", row: 0, column: 20)
        terminal.feed(renderer.frame(screen))
        #expect(terminal.text(row: 0) == "Buy milk" + String(repeating: " ", count: 12) + "│y  ", "no stray cell: \(terminal.rows[0])")
    }
}

/// A terminal in miniature: cursor moves (CUP), erase to the end of the line (EL) and of the
/// screen (ED), styles ignored, characters placed by a width that can differ from ours for
/// emoji whose width terminals disagree on.
struct CellTerminal {
    var rows: [[String]]
    let ambiguousWidth: Int
    private var row = 0
    private var column = 0

    init(rows: Int, columns: Int, ambiguousWidth: Int) {
        self.rows = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        self.ambiguousWidth = ambiguousWidth
    }

    func cell(row: Int, column: Int) -> String { rows[row][column] }
    func text(row: Int) -> String { rows[row].joined() }

    mutating func feed(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\u{1B}" {
                var end = text.index(after: index)
                guard end < text.endIndex, text[end] == "[" else { index = end; continue }
                end = text.index(after: end)
                var parameters = ""
                while end < text.endIndex, let ascii = text[end].asciiValue, !(0x40...0x7E).contains(ascii) {
                    parameters.append(text[end])
                    end = text.index(after: end)
                }
                guard end < text.endIndex else { return }
                control(text[end], parameters)
                index = text.index(after: end)
                continue
            }
            let width = TerminalText.isWidthAmbiguous(character) ? ambiguousWidth : TerminalText.width(of: character)
            if column < rows[row].count { rows[row][column] = String(character) }
            for extra in 1..<max(1, width) where column + extra < rows[row].count { rows[row][column + extra] = "" }
            column += width
            index = text.index(after: index)
        }
    }

    private mutating func control(_ final: Character, _ parameters: String) {
        let numbers = parameters.split(separator: ";").compactMap { Int($0) }
        switch final {
        case "H":
            row = (numbers.first ?? 1) - 1
            column = (numbers.count > 1 ? numbers[1] : 1) - 1
        case "K":
            for index in column..<rows[row].count { rows[row][index] = " " }
        case "J":
            for index in rows.indices { rows[index] = Array(repeating: " ", count: rows[index].count) }
        default:
            break
        }
    }
}
