import Testing
import TextFormats

/// Taskwarrior's colour words read into a style, and a style's marks: only their whole shape
/// becomes a sequence, and only a select-graphic-rendition one.
@Suite("TerminalStyle")
struct TerminalStyleTests {
    @Test(arguments: [
        ("bold red on white", [1, 31, 47]),
        ("color214", [38, 5, 214]),
        ("rgb035", [38, 5, 39]),
        ("gray12", [38, 5, 244]),
        ("grey0 on gray23", [38, 5, 232, 48, 5, 255]),
        ("bright red", [91]),
        ("on bright blue", [104]),
        ("underline inverse", [4, 7]),
        ("black on rgb555", [30, 48, 5, 231]),
        ("  Bold   Color0  ", [1, 38, 5, 0]),
        ("", []),
    ])
    func readsTaskwarriorsWords(_ text: String, _ parameters: [Int]) throws {
        #expect(try TerminalStyle(taskwarrior: text).parameters == parameters)
    }

    @Test(arguments: [
        ("bold purple", "purple"), ("color256", "color256"), ("rgb036", "rgb036"), ("gray24", "gray24"),
        ("red blue", "blue"), ("on", "on"), ("on red on blue", "on"), ("red on", "on"), ("color-1", "color-1"), ("rgb", "rgb"),
    ])
    func refusesWhatIsNoColour(_ text: String, _ word: String) {
        #expect(throws: StyleError.self) { try TerminalStyle(taskwarrior: text) }
        do {
            _ = try TerminalStyle(taskwarrior: text)
        } catch {
            #expect(error.word == word, "\(text): \(error)")
        }
    }

    @Test func blendingAddsAttributesAndTheStrongerColourWins() throws {
        let weak = try TerminalStyle(taskwarrior: "underline red on blue")
        let strong = try TerminalStyle(taskwarrior: "bold color214")
        #expect(weak.blended(with: strong).parameters == [1, 4, 38, 5, 214, 44])
        #expect(strong.blended(with: weak).parameters == [1, 4, 31, 44])
        #expect(weak.blended(with: TerminalStyle()) == weak)
    }

    @Test func marksBecomeTheirSequenceOnlyOnTheWayOut() throws {
        let style = try TerminalStyle(taskwarrior: "bold rgb035 on gray4")
        let text = style.marks + "Pay rent" + TerminalText.Mark.reset.text
        #expect(TerminalText.guarded(text) == "\u{1B}[0m\u{1B}[1;38;5;39;48;5;236mPay rent\u{1B}[0m")
        #expect(TerminalText.expandingMarks(text) == "\u{1B}[0m\u{1B}[1;38;5;39;48;5;236mPay rent\u{1B}[0m")
        // Escaped as a field is: nothing of it reaches a terminal.
        #expect(!TerminalText.escapingControls(text).contains("\u{1B}"))
        #expect(TerminalStyle().marks.isEmpty)
    }

    /// A field holding these marks where some path forgot to escape it can style text at most:
    /// a start, digits and a letter after (`ESC [ 2 J` would clear the screen) stay visible.
    @Test func brokenStyleMarksAreShownNotSent() {
        let start = TerminalText.Mark.sgrStart.text, end = TerminalText.Mark.sgrEnd.text
        let two = TerminalText.Mark.digit(2).text, separator = TerminalText.Mark.sgrSeparator.text
        for hostile in [start + two + "J", start + end, two + end, start + two + separator + end, separator, start + two,
                        start + String(repeating: two, count: 80) + end, start + two + TerminalText.Mark.bold.text + end] {
            for shown in [TerminalText.guarded(hostile) ?? hostile, TerminalText.expandingMarks(hostile) ?? hostile] {
                #expect(!shown.contains("\u{1B}[2J") && !shown.contains("\u{1B}[m") && !shown.contains("\u{1B}[2m"), "\(Array(hostile.unicodeScalars)) → \(shown.debugDescription)")
                #expect(!shown.unicodeScalars.contains { (0xFDDB...0xFDEF).contains($0.value) }, "no mark left raw: \(shown.debugDescription)")
            }
        }
        // The whole shape, and nothing else, is a sequence.
        #expect(TerminalText.guarded(start + two + end + "x") == "\u{1B}[2mx")
    }
}
