import TaskModel
import TextFormats
import Testing
@testable import TaskInterchange

@Suite struct JSONReaderTests {
    private func reader(_ text: String) -> JSONReader { JSONReader(Array(text.utf8)) }

    @Test func stringsDecodeEveryEscapeAndSurrogatePairs() throws {
        var json = reader(#""a\"b\\c\/d\b\f\n\r\t \u00e9 \ud83d\ude00 한""#)
        #expect(try json.string() == "a\"b\\c/d\u{8}\u{c}\n\r\t é 😀 한")
        let atEnd = json.isAtEnd()
        #expect(atEnd)
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        var json = reader("[\n  {\"a\": tru}\n]")
        try? json.beginArray()
        var isFirst = true
        _ = try? json.nextElement(isFirst: &isFirst)
        try? json.beginObject()
        var isFirstKey = true
        _ = try? json.nextKey(isFirst: &isFirstKey)
        #expect(throws: JSONReader.Failure.syntax(line: 2, column: 9, message: "expected a value, found 't'")) { try json.bool() }
    }

    @Test func rejectsWhatRFC8259Rejects() {
        let bad: [(String, String)] = [
            ("\"a\u{1}b\"", "a control character (byte 0x1) inside a string; write it as \\u0001"),
            (#""\ud800x""#, "a lone UTF-16 surrogate \\ud800 in a string"),
            (#""\x""#, "'\\x' is not a JSON escape; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX"),
            ("\"abc", "the input ends inside a string"),
        ]
        for (text, message) in bad {
            var json = reader(text)
            #expect {
                _ = try json.string()
            } throws: { error in
                guard case .syntax(_, _, let found) = error as? JSONReader.Failure else { return false }
                return found == message
            }
        }
        var invalidUTF8 = JSONReader([0x22, 0xFF, 0x22])
        #expect(throws: JSONReader.Failure.syntax(line: 1, column: 2, message: "a string that is not valid UTF-8")) { try invalidUTF8.string() }
    }

    /// Taskwarrior 2.6 stores an escaped surrogate pair as CESU-8 (each half three bytes) and
    /// exports it so: the pair is the character it encodes. A half alone is still refused.
    @Test func aSurrogatePairWrittenAsCESU8IsItsCharacter() throws {
        // "a🎉b": 🎉 is U+1F389, D83C DF89, written ED A0 BC ED BE 89.
        var pair = JSONReader([0x22, 0x61, 0xED, 0xA0, 0xBC, 0xED, 0xBE, 0x89, 0x62, 0x22])
        #expect(try pair.string() == "a🎉b")
        for bytes: [UInt8] in [[0x22, 0xED, 0xA0, 0xBC, 0x22], [0x22, 0xED, 0xBE, 0x89, 0xED, 0xA0, 0xBC, 0x22], [0x22, 0xED, 0xA0, 0xBC, 0xED, 0xBE, 0x22]] {
            var half = JSONReader(bytes)
            #expect(throws: JSONReader.Failure.syntax(line: 1, column: 2, message: "a string that is not valid UTF-8")) { try half.string() }
        }
    }

    @Test func skipsAnyValueButNotTooDeep() throws {
        var json = reader(#"{"a": [1, -2.5e3, true, null, {"b": "c"}], "d": 0} 7"#)
        try json.skipValue()
        #expect(try json.integer() == 7)
        var deep = reader(String(repeating: "[", count: 10_000))
        #expect {
            try deep.skipValue()
        } throws: { error in
            guard case .syntax(_, _, let message) = error as? JSONReader.Failure else { return false }
            return message == "arrays and objects nested more than 256 deep"
        }
        for number in ["01", "1.", "-", "1e"] {
            var bad = reader(number)
            #expect(throws: JSONReader.Failure.self) { try bad.skipValue() }
        }
    }

    @Test func integersAreWholeAndFit() throws {
        var json = reader("9223372036854775807")
        #expect(try json.integer() == Int64.max)
        for (text, value) in [("-9223372036854775808", Int64.min), ("-0", 0), ("0", 0), ("-17", -17), ("65536", 65_536)] {
            var good = reader(text)
            #expect(try good.integer() == value, "\(text)")
        }
        for text in ["9223372036854775808", "-9223372036854775809", "99999999999999999999", "1.5", "2e3", "-1E2", "\"1\""] {
            var bad = reader(text)
            #expect(throws: JSONReader.Failure.type(expected: "a whole number")) { try bad.integer() }
        }
    }

    /// A key is matched in place only when its bytes are the expected name and nothing more;
    /// any other key — one written with escapes included — is decoded.
    @Test func keysAreMatchedInPlaceOrDecoded() throws {
        var json = reader(#"{"title": 1, "ti\u0074le": 2, "titles": 3, "tit": 4, "notes": 5}"#)
        try json.beginObject()
        var isFirst = true
        let title = Array("title".utf8)
        var found: [JSONReader.Key?] = []
        for _ in 0..<5 {
            found.append(try json.nextKey(isFirst: &isFirst, expecting: title))
            _ = try json.integer()
        }
        #expect(found == [.expected, .other("title"), .other("titles"), .other("tit"), .other("notes")])
        #expect(try json.nextKey(isFirst: &isFirst, expecting: title) == nil)
        var empty = reader(#"{"": 1}"#)
        try empty.beginObject()
        var isFirstOfEmpty = true
        #expect(try empty.nextKey(isFirst: &isFirstOfEmpty, expecting: nil) == .other(""))
    }

    /// A plain string's bytes are handed out in place; anything else is left where it was,
    /// for `string()` to read (or refuse).
    @Test func plainStringsAreReadInPlaceAndOthersLeft() throws {
        var json = reader(#" "2026-11-29T23:44:46.123Z" "a\"b" "a"#)
        let time = json.plainString().map { Array($0) }
        #expect(time == Array("2026-11-29T23:44:46.123Z".utf8))
        let escaped = json.plainString()
        #expect(escaped == nil)
        #expect(try json.string() == "a\"b")
        let unclosed = json.plainString()
        #expect(unclosed == nil)
        #expect(throws: JSONReader.Failure.self) { try json.string() }
        var number = reader("12")
        let notAString = number.plainString()
        #expect(notAString == nil)
        #expect(try number.integer() == 12)
        var tab = reader("\"a\tb\"")  // a control byte, which only `string()` may refuse
        let control = tab.plainString()
        #expect(control == nil)
        #expect(throws: JSONReader.Failure.self) { try tab.string() }
    }

    @Test func tokensAreSkippedOnlyWhenTheyComeNext() {
        var json = reader(" {} { } {")
        let first = json.skip("{}"), second = json.skip("{}")
        #expect(first && !second)
        let next = json.peek()
        #expect(next == UInt8(ascii: "{"))
        var short = reader("{")
        let cut = short.skip("{}")
        #expect(!cut)
    }

    @Test func trailingCommasAreErrors() {
        var array = reader("[1,]")
        #expect(throws: JSONReader.Failure.syntax(line: 1, column: 4, message: "expected a value after ',', found ']'")) {
            try array.beginArray()
            var isFirst = true
            while try array.nextElement(isFirst: &isFirst) { try array.skipValue() }
        }
    }
}

@Suite struct TimestampTextTests {
    @Test func readsWhatItWritesAndTaskwarriorsForm() {
        let time = Timestamp(millisecondsSince1970: 1_796_000_000_123)
        #expect(TimestampText.parse(TimestampText.iso8601(time)) == time)
        #expect(TimestampText.parse(TimestampText.taskwarrior(time)) == Timestamp(millisecondsSince1970: 1_796_000_000_000))
        #expect(TimestampText.taskwarrior(time) == "20261130T005320Z")
        #expect(TimestampText.parse("2026-11-30T01:53:20+01:00") == Timestamp(millisecondsSince1970: 1_796_000_000_000))
        #expect(TimestampText.parse("2026-11-30T00:53:20.5Z") == Timestamp(millisecondsSince1970: 1_796_000_000_500))
        for bad in ["2026-11-29", "2026-11-29T05:33:20", "2026-02-30T00:00:00Z", "20261129T0533Z", "2026-11-29T05:33:20Zjunk", ""] {
            #expect(TimestampText.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func localTimeRoundTripsDays() {
        let newYork = LocalTime.fixed(offsetSeconds: -5 * 3600)
        let day = CalendarDay(year: 2026, month: 12, day: 3)!
        #expect(TimestampText.taskwarrior(newYork.midnight(day)) == "20261203T050000Z")
        #expect(newYork.day(newYork.midnight(day)) == day)
        #expect(newYork.day(Timestamp(millisecondsSince1970: newYork.midnight(day).millisecondsSince1970 - 1)) == day.adding(days: -1))
    }
}

/// `JSONTree` (a whole message, as `tasks mcp` reads one) at the ends of what a sender can
/// write: numbers past `Int64` stay as written, nesting past the bound and anything after the
/// value are refused, never a trap.
@Suite struct JSONTreeTests {
    private func tree(_ text: String) throws -> JSONValue { try JSONTree.parse(Array(text.utf8)) }

    @Test func numbersAtAndPastTheEndsOfInt64() throws {
        #expect(try tree("9223372036854775807") == .number(Int64.max))
        #expect(try tree("-9223372036854775808") == .number(Int64.min))
        #expect(try tree("9223372036854775808") == .decimal("9223372036854775808"))
        #expect(try tree("-9223372036854775809") == .decimal("-9223372036854775809"))
        #expect(try tree("1e999999999999999999999") == .decimal("1e999999999999999999999"))
        #expect(try tree("-0.5E-400") == .decimal("-0.5E-400"))
        let digits = String(repeating: "9", count: 100_000)
        #expect(try tree(digits) == .decimal(digits))
        #expect(try tree("[\(digits),1]").elements?.last == .number(1))
        // A decimal is written back as it came.
        #expect(JSONValue.array([.decimal("1.5e3"), .number(-1)]).serialized() == "[1.5e3,-1]")
    }

    @Test func nestingIsBoundedAndTheValueMustEnd() throws {
        let deepest = JSONReader.maximumDepth
        #expect(throws: Never.self) { try tree(String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest)) }
        #expect(throws: InterchangeError.self) { try tree(String(repeating: "[", count: deepest + 1) + String(repeating: "]", count: deepest + 1)) }
        #expect(throws: InterchangeError.self) { try tree(String(repeating: "{\"a\":", count: 100_000)) }
        for bad in ["", "{", "[1,]", "{\"a\":1}x", "01", "1.", "-", "\"\\ud800\"", "\"a\u{1}\"", "tru", "{\"a\" 1}", "[1 2]"] {
            #expect(throws: InterchangeError.self, "\(bad.debugDescription)") { try tree(bad) }
        }
    }

    @Test func aKeyWrittenTwiceReadsAsTheLast() throws {
        let value = try tree(#"{"id":1,"id":"two","nested":{"x":[true,null]}}"#)
        #expect(value["id"] == .string("two"))
        #expect(value["nested"]?["x"]?.elements == [.bool(true), .null])
        #expect(value["missing"] == nil && JSONValue.number(3)["id"] == nil)
    }
}
