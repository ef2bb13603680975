import TaskModel
import Testing
@testable import TaskInterchange

/// The streamed reader of our JSON gives the records and the messages the whole-file reader
/// gives for the same bytes, however the input arrives: a byte at a time, in odd pieces, in
/// pieces larger than its buffer (which it then drops behind it, keeping count of the lines).
@Suite("TaskJSONStream: our JSON a record at a time")
struct TaskJSONStreamTests {
    /// The input handed out `piece` bytes per read.
    func stream(_ bytes: [UInt8], piece: Int) -> TaskJSONStream {
        var offset = 0
        return TaskJSONStream(size: nil) { buffer, count in
            let take = min(piece, count, bytes.count - offset)
            buffer.append(contentsOf: bytes[offset..<(offset + take)])
            offset += take
            return .success(take)
        }
    }

    /// Every record, or the message the stream stopped with.
    func read(_ stream: TaskJSONStream) -> Result<[TaskRecord], TaskImportInputError> {
        var records: [TaskRecord] = []
        do {
            while let (record, number) = try stream.next() {
                #expect(number == records.count + 1)
                records.append(record)
            }
            return .success(records)
        } catch let error as TaskImportInputError {
            return .failure(error)
        } catch {
            return .failure(TaskImportInputError("unexpected \(error)"))
        }
    }

    func whole(_ bytes: [UInt8]) -> Result<[TaskRecord], TaskImportInputError> {
        do {
            return .success(try TaskJSON.read(bytes).batch.records)
        } catch {
            return .failure(TaskImportInputError(String(describing: error)))
        }
    }

    static let inputs: [String] = [
        "", "  \n", "x Buy milk", #"{"title":"a"}"#, "[]", " [ ] \n", "[] x", #"[{"title":"a"},"#, #"[{"title":"a"}] x"#,
        #"[{"title":"a"},{"notes":"b"}]"#, #"[{"title":1}]"#, #"[{"title":"a","title":"b"}]"#, "[1]", "[{\"title\":\"a\u{1}\"}]",
        #"[{"title":"a"} {"title":"b"}]"#, #"[{"title":"a"},]"#, #"[{"title":"a \"}{[\\","notes":"]}"}]"#,
        "\u{FEFF}[{\"title\":\"with a byte order mark\"}]", "[\n  {\"title\": \"한국어 🎉\",\n   \"tags\": [\"x\", \"y\"],\n   \"extras\": {\"a\": [1, {\"b\": null}]}}\n]",
        "[{\"title\":\"a\"},\n{\"title\":\"b\",\n\"due\":\"2026-13-01\"}]", "[{\"title\":\"unclosed", "[{\"title\":\"a\"", "[{\"title\":\"a\"}",
        // Members in our export's order, out of it, and written with escapes; times plain,
        // with escapes, and wrong; another tool's attributes empty, spaced, null and kept.
        #"[{"id":3,"uuid":"01A241AA-5024-71F0-8B6B-831F78F64042","title":"a","created":"2026-11-29T23:44:46.123Z","extras":{}}]"#,
        #"[{"created":"2026-11-29T23:44:46Z","title":"b","extras":{ },"modified":null}]"#,
        #"[{"title":"c","created":"2026-11-29T23:44:46","extras":null}]"#, #"[{"title":"d","modified":"2026-11-29T23:44:46Zjunk"}]"#,
        #"[{"title":"e","extras":{"a":[1,{"b":null}]},"spent":-1}]"#, #"[{"title":"f","id":9223372036854775807}]"#,
        #"[{"title":"g","extras":{}"#, #"[{"title":"h","extras":{"#, #"[{"title":"i","created":"2026-11-29T23:44:46.123Z"#,
    ]

    @Test(arguments: [1, 2, 7, 1 << 16])
    func theSameRecordsAndMessagesAsTheWholeFileReader(piece: Int) {
        for input in Self.inputs {
            let bytes = Array(input.utf8)
            let stream = stream(bytes, piece: piece)
            let streamed: Result<[TaskRecord], TaskImportInputError>
            do {
                try stream.begin()
                streamed = read(stream)
            } catch let error as TaskImportInputError {
                streamed = .failure(error)
            } catch {
                streamed = .failure(TaskImportInputError("unexpected \(error)"))
            }
            #expect(streamed == whole(bytes), "\(input.debugDescription) in pieces of \(piece)")
        }
    }

    /// What the stream reads, field by field: keys and times matched in place or written
    /// with escapes, another tool's attributes empty or kept.
    @Test func recordsHoldWhatTheInputSays() throws {
        let input = #"[{"id":3,"uuid":"01a241aa-5024-71f0-8b6b-831f78f64042","title":"a","created":"2026-11-29T23:44:46.123Z","extras":{},"spent":-0},"#
            + #"{"created":"2026-11-29T23:44:46Z","title":"b","extras":{"a": [1, {"b": null}]},"id":null}]"#
        let stream = stream(Array(input.utf8), piece: 1 << 16)
        guard case .success(let records) = read(stream) else { Issue.record("not read"); return }
        try #require(records.count == 2)
        #expect(records[0].id == 3)
        #expect(records[0].uuid == "01a241aa-5024-71f0-8b6b-831f78f64042")
        #expect(records[0].fields.title == "a")
        #expect(records[0].created == Timestamp(millisecondsSince1970: 1_795_995_886_123))
        #expect(records[0].fields.extras == "")
        #expect(records[0].fields.spent == 0)
        #expect(records[1].fields.title == "b")
        #expect(records[1].created == Timestamp(millisecondsSince1970: 1_795_995_886_000))
        #expect(records[1].fields.extras == #""a":[1,{"b":null}]"#)
        #expect(records[1].id == nil)
        #expect(read(self.stream(Array(#"[{"title":"c","position":-9223372036854775807}]"#.utf8), piece: 7))
                == .failure(TaskImportInputError("record 1: \"position\" is -9223372036854775807; positions are within ±2^62")))
    }

    /// 3,000 records (over 200 kB: the buffer is dropped behind several times), the last one
    /// bad: the message names its line and column in the whole input, as the whole-file
    /// reader does.
    @Test(arguments: [1000, 65_536, 100_000])
    func aBadLastRecordOfALargeInputIsPlacedInTheWholeInput(piece: Int) {
        var text = "[\n"
        for index in 1...3000 { text += "  {\"title\": \"task \(index) — 할 일 \(String(repeating: "x", count: index % 50))\", \"tags\": [\"t\(index % 7)\"]},\n" }
        text += "  {\"title\": \"last\", \"done\": \"no\"}\n]\n"
        let bytes = Array(text.utf8)
        #expect(bytes.count > 200_000)
        #expect(read(stream(bytes, piece: piece)) == whole(bytes))
        // Every record read, where the buffer's end cut none and where it cut one.
        let good = Array(text.replacingOccurrences(of: "\"no\"", with: "false").utf8)
        let records = read(stream(good, piece: piece))
        #expect(records == whole(good))
        if case .success(let all) = records { #expect(all.count == 3001) }
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
