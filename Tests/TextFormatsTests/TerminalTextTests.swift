import Testing
@testable import TextFormats

@Suite("Terminal text")
struct TerminalTextTests {
    @Test(arguments: [
        ("abc", 3), ("장보기", 6), ("中文", 4), ("日本語", 6), ("🎉", 2), ("e\u{301}", 1),
        ("👨‍👩‍👧", 2), ("🇰🇷", 2), ("ｆｕｌｌ", 8), ("", 0), ("a\u{200B}b", 2), ("한글 and 🎉!", 12),
    ])
    func displayWidthCountsCells(text: String, cells: Int) {
        #expect(TerminalText.displayWidth(text) == cells)
    }

    @Test func controlsAreEscaped() {
        #expect(TerminalText.escapingControls("plain 장") == "plain 장")
        #expect(TerminalText.escapingControls("\u{1B}[31mred\u{7}") == "\\e[31mred\\x07")
        #expect(TerminalText.escapingControls("a\tb\nc\r") == "a\\tb\\nc\\r")
        #expect(TerminalText.escapingControls("\u{9B}2J\u{7F}") == "\\x9b2J\\x7f")
        #expect(TerminalText.escapingControls("\u{202E}evil") == "\\x202eevil")
        let escaped = TerminalText.escapingControls("\u{1B}]0;pwned\u{7}\u{1B}[2J")
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }

    @Test func truncationCountsCellsAndEndsInAnEllipsis() {
        #expect(TerminalText.truncated("short", toWidth: 10) == "short")
        #expect(TerminalText.truncated("abcdefghij", toWidth: 5) == "abcd…")
        #expect(TerminalText.truncated("장보기장보기", toWidth: 5) == "장보…")
        #expect(TerminalText.displayWidth(TerminalText.truncated("장보기장보기", toWidth: 6)) <= 6)
        #expect(TerminalText.truncated("🎉🎉🎉", toWidth: 4) == "🎉…")
    }

    @Test func paddedColumnsLineUpWhateverTheScript() {
        let titles = ["Buy milk", "장보기", "買い物", "🎉 party", "e\u{301}te\u{301}"]
        let width = titles.map(TerminalText.displayWidth).max() ?? 0
        let lines = titles.map { TerminalText.padded($0, toWidth: width) + "|" }
        #expect(Set(lines.map(TerminalText.displayWidth)).count == 1)
    }
}

@Suite("Record writers")
struct RecordWriterTests {
    @Test func tsvEscapesTabsNewlinesAndBackslashes() {
        #expect(TSV.line(["1", "a\tb", "c\nd", "e\\f", "g\r\nh"]) == "1\ta\\tb\tc\\nd\te\\\\f\tg\\r\\nh\n")
        #expect(TSV.line(["plain", ""]) == "plain\t\n")
    }

    @Test func tsvFieldsReadBackWhatALineWrote() {
        let fields = ["1", "a\tb", "c\nd", "e\\f", "g\r\nh", "", "우유 ✍️"]
        #expect(TSV.record(fields) + "\n" == TSV.line(fields))
        #expect(TSV.fields(TSV.record(fields)) == fields)
        #expect(TSV.fields("") == [""])
        #expect(TSV.fields("a\\qb\tc\\") == ["a\\qb", "c\\"], "a backslash before anything else, or last, stands for itself")
        #expect(TSV.fields("a\\\tb\tc") == ["a\\\tb", "c"], "a backslash before a tab keeps the tab in its field")
    }

    @Test func csvFollowsRFC4180() {
        #expect(CSV.line(["1", "plain", "a,b", "say \"hi\"", "two\nlines"]) == "1,plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n")
        #expect(CSV.line([""]) == "\r\n")
    }

    @Test func jsonEscapesAndKeepsKeyOrder() {
        let value = JSONValue.object([
            ("id", .number(3)), ("title", .string("say \"hi\"\n\u{1}\\ 장 🎉")), ("done", .bool(false)),
            ("due", .null), ("tags", .array([.string("a"), .string("b")])),
        ])
        #expect(value.serialized() == #"{"id":3,"title":"say \"hi\"\n\u0001\\ 장 🎉","done":false,"due":null,"tags":["a","b"]}"#)
    }

    @Test func theTerminalGuardKeepsLinesMakesMarksSequencesAndShowsTheRest() {
        let bold = TerminalText.Mark.bold.text, reset = TerminalText.Mark.reset.text
        #expect(TerminalText.guarded("plain\ttext\n") == nil, "nothing to change")
        #expect(TerminalText.guarded("장 🎉 👩\u{200D}💻\n") == nil, "scripts and joined emoji pass")
        #expect(TerminalText.guarded(bold + "ID" + reset + "\n") == "\u{1B}[1mID\u{1B}[0m\n")
        #expect(TerminalText.guarded("a\u{1B}]0;t\u{07}b\rc\u{202E}d\n") == "a\\e]0;t\\x07b\\rc\\x202ed\n")
        // A field's mark, escaped where fields are, is shown and never made a sequence.
        #expect(TerminalText.escapingControls("x" + bold + "y") == "x\\xfdd1y")
        #expect(TerminalText.guarded(TerminalText.escapingControls("x" + bold + "y")) == nil)
    }

    @Test func colourInAPipeMakesOnlyTheMarksSequences() {
        let red = TerminalText.Mark.red.text, back = TerminalText.Mark.defaultColor.text
        #expect(TerminalText.expandingMarks("no marks \u{1B}") == nil)
        #expect(TerminalText.expandingMarks(red + "late" + back + "\t\u{1B}") == "\u{1B}[31mlate\u{1B}[39m\t\u{1B}")
    }

    @Test func jsonEscapesWhatATerminalWouldActOnOrHide() {
        var bytes: [UInt8] = []
        JSONValue.appendString("a\u{200B}b\u{FEFF}c" + TerminalText.Mark.bold.text + "d\u{061C}e\u{180E}f 장 👩\u{200D}💻 \u{00E9}", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #""a\u200bb\ufeffc\ufdd1d\u061ce\u180ef 장 👩\#u{200D}💻 é""#)
    }
}
