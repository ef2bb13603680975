import Testing
@testable import TaskCLI
import TaskModel

/// `add -` reads stdin a chunk at a time: lines must come out whole wherever the chunks end.
@Suite("LineReader")
struct LineReaderTests {
    /// Input that hands out at most `step` bytes per read, as a slow pipe does.
    private func trickle(_ bytes: [UInt8], step: Int) -> Input {
        var offset = 0
        return Input(isTerminal: false) { buffer in
            let count = min(step, buffer.count, bytes.count - offset)
            for index in 0..<count { buffer[index] = bytes[offset + index] }
            offset += count
            return count
        }
    }

    private func lines(_ reader: LineReader) throws -> [String] {
        var lines: [String] = []
        while let line = try reader.next() { lines.append(line) }
        return lines
    }

    @Test(arguments: [1, 2, 3, 7, 1 << 16])
    func linesComeOutWholeWhereverTheReadsEnd(step: Int) throws {
        let text = "first\r\nsecond\n\nfourth — 넷째\r\n" + String(repeating: "x", count: 70_000) + "\nlast without newline"
        let reader = LineReader(input: trickle(Array(text.utf8), step: step))
        #expect(try reader.peek() == "first")
        #expect(try reader.peek() == "first", "peeking twice takes nothing")
        #expect(try lines(reader) == ["first", "second", "", "fourth — 넷째", String(repeating: "x", count: 70_000), "last without newline"])
        #expect(try reader.next() == nil)
    }

    @Test func aFinalNewlineMakesNoEmptyLastLine() throws {
        #expect(try lines(LineReader(input: .bytes(Array("a\nb\n".utf8)))) == ["a", "b"])
        #expect(try lines(LineReader(input: .bytes([]))) == [])
        #expect(try lines(LineReader(input: .bytes(Array("\r\n".utf8)))) == [""])
    }

    @Test func aLineThatIsNotTextIsRefusedWhereItIs() throws {
        let reader = LineReader(input: trickle([0x61, 0x0A, 0x62, 0xFF, 0x0A, 0x63], step: 2))
        #expect(try reader.next() == "a")
        #expect(throws: TaskFieldError.unreadableLine("is not valid UTF-8")) { try reader.next() }
        let nul = LineReader(input: .bytes([0x61, 0x00, 0x0A]))
        #expect(throws: TaskFieldError.unreadableLine("holds a NUL byte")) { try nul.next() }
    }
}
