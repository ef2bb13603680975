import Testing
import TerminalKit

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
}
