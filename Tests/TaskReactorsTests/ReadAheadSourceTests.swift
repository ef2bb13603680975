#if canImport(Glibc)
import Glibc
#endif
import QueryLanguage
import Synchronization
import Testing
@testable import TaskReactors
import TaskModel

@Suite("ReadAheadSource: a source read on its own thread")
struct ReadAheadSourceTests {
    /// Records "Task 1" … "Task `count`", then `failure` (if any) where the next would be.
    final class Counted: TaskRecordSource {
        struct Failure: Error, Equatable { var at: Int }
        let unit = "record"
        let count: Int
        let failing: Bool
        /// How many times `next()` has run (read across threads: atomic).
        let reads = Atomic<Int>(0)
        var expectedCount: Int { 1000 + reads.load(ordering: .relaxed) }

        init(count: Int, failing: Bool = false) {
            self.count = count
            self.failing = failing
        }

        func next() throws -> (record: TaskRecord, number: Int)? {
            let number = reads.add(1, ordering: .relaxed).newValue
            if number > count {
                if failing { throw Failure(at: number) }
                return nil
            }
            return (TaskRecord(title: "Task \(number)"), number)
        }
    }

    func drain(_ source: ReadAheadSource) throws -> [(String, Int)] {
        var taken: [(String, Int)] = []
        while let next = try source.next() { taken.append((next.record.fields.title, next.number)) }
        return taken
    }

    @Test func givesTheSourcesRecordsInOrderThenTheEnd() throws {
        let count = ReadAheadSource.batchSize * 3 + 7
        let source = ReadAheadSource(Counted(count: count))
        let taken = try drain(source)
        #expect(taken.map(\.1) == Array(1...count))
        #expect(taken.allSatisfy { $0.0 == "Task \($0.1)" })
        #expect(try source.next() == nil, "the end stays the end")
        #expect(try drain(ReadAheadSource(Counted(count: 0))).isEmpty)
    }

    @Test func aFailureComesWhereTheSourceThrewIt() throws {
        let count = ReadAheadSource.batchSize + 5
        let source = ReadAheadSource(Counted(count: count, failing: true))
        var numbers: [Int] = []
        #expect(throws: Counted.Failure(at: count + 1)) {
            while let next = try source.next() { numbers.append(next.number) }
        }
        #expect(numbers == Array(1...count), "every record before the failure, none after")
    }

    @Test func theCountIsTheSourcesUntilReadingStarts() throws {
        let inner = Counted(count: 600)
        let source = ReadAheadSource(inner)
        #expect(source.expectedCount == 1000)
        _ = try inner.next()
        #expect(source.expectedCount == 1001, "asked before the first record: the source's own")
        _ = try source.next()
        _ = try drain(source)
        #expect(inner.reads.load(ordering: .relaxed) > 600)
        #expect(source.expectedCount == 1001, "after: the count at the start, not read across threads")
        #expect(source.unit == "record")
    }

    /// An import that stops early (a uuid given twice) drops its source: the thread, waiting
    /// for room, stops and lets the source go, having read at most a few batches ahead.
    @Test func aSourceDroppedEarlyStopsItsThread() async throws {
        weak var watched: Counted?
        do {
            let inner = Counted(count: 1_000_000)
            watched = inner
            let source = ReadAheadSource(inner)
            for _ in 0..<10 { _ = try source.next() }
            try await _Concurrency.Task.sleep(for: .milliseconds(50))
            let bound = ReadAheadSource.batchSize * 3 + 1
            #expect(inner.reads.load(ordering: .relaxed) <= bound, "a few batches ahead, not the whole input")
        }
        var waited = 0
        while watched != nil && waited < 500 {
            try await _Concurrency.Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(watched == nil, "the thread let its source go")
    }
}
