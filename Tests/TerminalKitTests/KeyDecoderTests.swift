import Testing
import TerminalKit

@Suite("KeyDecoder")
struct KeyDecoderTests {
    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    @Test func lettersControlsAndTheEditingKeys() {
        #expect(keys("jk x") == [.character("j"), .character("k"), .character(" "), .character("x")])
        #expect(keys("\r\t\u{7F}\u{08}") == [.enter, .tab, .backspace, .backspace])
        #expect(keys("\u{03}\u{12}\u{1A}") == [.control("c"), .control("r"), .control("z")])
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OH\u{1B}OF") == [.up, .home, .end], "application cursor mode (SS3)")
        #expect(keys("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~") == [.home, .end, .home, .end, .home, .end])
        #expect(keys("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[Z") == [.pageUp, .pageDown, .delete, .backTab])
        #expect(keys("\u{1B}[1;5A") == [.up], "a modified arrow is the arrow")
        #expect(keys("\u{1B}[99~x") == [.character("x")], "an unknown sequence is skipped whole")
    }

    @Test func textInAnyScriptAndAlt() {
        #expect(keys("한글😀") == [.character("한"), .character("글"), .character("😀")])
        #expect(keys("\u{1B}x\u{1B}한") == [.alt("x"), .alt("한")])
        #expect(keys("\u{1B}\u{1B}") == [.escape, .escape])
    }

    @Test func aLoneEscapeWaitsForTheFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.isWaiting)
    }

    @Test func sequencesCutByTheEndOfAReadAreFinishedByTheNext() {
        var decoder = KeyDecoder()
        let bytes = Array("a\u{1B}[5~한\u{1B}OB".utf8)
        var got: [Key] = []
        for byte in bytes { got += decoder.feed([byte]) }
        #expect(got == [.character("a"), .pageUp, .character("한"), .down])
        #expect(!decoder.isWaiting)
    }

    @Test func aBracketedPasteIsTextNotCommands() {
        #expect(keys("\u{1B}[200~dq\u{1B}[A\r\u{1B}[201~j") == [.paste("dq\u{1B}[A\r"), .character("j")])
        var decoder = KeyDecoder()
        var got: [Key] = []
        for byte in Array("\u{1B}[200~한 줄\u{1B}[201~".utf8) { got += decoder.feed([byte]) }
        #expect(got == [.paste("한 줄")], "split across reads, one byte at a time")
    }
}
