import Testing
@testable import TaskReactors
import TaskModel

@Suite("CheckedLines: add -'s lines read and checked ahead")
struct CheckedLinesTests {
    /// "Line 1" … "Line `count`" (line `blank`, if any, only spaces), then the end; counts the
    /// lines asked for in `asked`.
    final class Input {
        let count: Int
        let blank: Int?
        var asked = 0
        init(_ count: Int, blankAt blank: Int? = nil) {
            self.count = count
            self.blank = blank
        }
        var lines: TaskTitleSource {
            { [self] () throws(TaskFieldError) -> String? in
                asked += 1
                guard asked <= count else { return nil }
                return asked == blank ? "   " : "  Line \(asked) "
            }
        }
    }

    static func drain(_ lines: inout CheckedLines) throws(TaskFieldError) -> [String] {
        var titles: [String] = []
        while let title = try lines.next() { titles.append(title) }
        return titles
    }

    @Test func anInputThatEndsWithinTheLimitIsReadWholeAndChecked() throws {
        let input = Input(1_000)
        var lines = try CheckedLines(reading: input.lines)
        #expect(lines.ended && lines.count == 1_000)
        #expect(input.asked == 1_001, "read to its end before anything is handed out")
        #expect(try Self.drain(&lines) == (1...1_000).map { "Line \($0)" }, "in order, trimmed")
        #expect(input.asked == 1_001, "not asked again after its end")
    }

    @Test func aLongerInputHandsOutWhatWasReadThenReadsTheRestAsItGoes() throws {
        let input = Input(12)
        var lines = try CheckedLines(reading: input.lines, limit: (lines: 5, bytes: 1 << 20))
        #expect(!lines.ended && lines.count == 5 && input.asked == 5)
        #expect(try lines.next() == "Line 1")
        #expect(input.asked == 5, "the titles read ahead come first")
        #expect(try Self.drain(&lines) == (2...12).map { "Line \($0)" })
    }

    @Test func theByteLimitStopsTheReadAheadToo() throws {
        let input = Input(100)
        let lines = try CheckedLines(reading: input.lines, limit: (lines: 1_000, bytes: 20))
        // "Line 1" … "Line 3" are 18 bytes, the fourth takes them past 20.
        #expect(!lines.ended && lines.count == 4)
    }

    @Test func aBadLineAheadStopsEverythingBeforeAnyTitleIsHandedOut() {
        let input = Input(1_000, blankAt: 778)
        #expect(throws: TaskFieldError.inItem(778, .emptyTitle)) { _ = try CheckedLines(reading: input.lines) }
        #expect(input.asked == 778, "nothing read past it")
    }

    @Test func aBadLinePastTheReadAheadIsNamedByItsOwnNumber() throws {
        let input = Input(12, blankAt: 9)
        var lines = try CheckedLines(reading: input.lines, limit: (lines: 5, bytes: 1 << 20))
        var handedOut: [String] = []
        #expect(throws: TaskFieldError.inItem(9, .emptyTitle)) {
            while let title = try lines.next() { handedOut.append(title) }
        }
        #expect(handedOut == (1...8).map { "Line \($0)" })
    }

    @Test func anEmptyInputEndsAtOnce() throws {
        var lines = try CheckedLines(reading: Input(0).lines)
        #expect(lines.ended && lines.count == 0)
        #expect(try lines.next() == nil)
    }
}
