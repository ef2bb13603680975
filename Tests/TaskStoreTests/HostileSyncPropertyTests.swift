import ReactorCore
import SQLiteDB
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// A peer that sends anything (issue 50): random rows with any values a JSON object can carry —
/// extreme integers, empty, long, multi-line and control-character text, unknown keys,
/// unreadable fields, no task, clocks at the ends of the integers. Whatever arrives, a sync
/// never traps or stops (a trap ends this test process), every task the file then holds is one
/// `add` could have written, and a change made here afterwards still syncs.
@Suite("sync: a peer that sends anything")
struct HostileSyncPropertyTests {
    static let texts: [String] = ["", " ", "H", "M", "ZZZ", "Buy milk", "2026-12-24", "2026-12-24T10:00:00+01:00", "every 2w", "after 3d",
                                  "\n", "two\nlines", "\u{1B}[2J\u{1B}]0;evil\u{07}", "a\u{0}b", " tag other ", " bad\ttag ", "한국어 🍽️",
                                  String(repeating: "x", count: 5000), "not a uuid", "01a24935-0000-7000-8000-000000000001",
                                  " 01a24935-0000-7000-8000-000000000001 ", "1\t" + "note"]
    static let integers: [Int64] = [0, 1, 2, 3, -1, 5, 65_536, .max, .min, .max - 1, .min + 1, 1_796_000_000_000, 253_402_300_800_000]

    func randomValue(_ random: inout SplitMix) -> SyncValue {
        switch random.below(3) {
        case 0: return .null
        case 1: return .integer(random.below(4) == 0 ? Int64(bitPattern: random.next()) : Self.integers[random.below(Self.integers.count)])
        default:
            if random.below(6) == 0 {
                let bytes = (0..<random.below(40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return .text(String(decoding: bytes, as: UTF8.self))
            }
            return .text(Self.texts[random.below(Self.texts.count)])
        }
    }

    func randomChange(_ random: inout SplitMix, tasks: [String], number: Int) -> SyncChange {
        let task: String
        switch random.below(5) {
        case 0: task = UUIDText.derived(from: "new \(number % 7)")
        case 1: task = Self.texts[random.below(Self.texts.count)]
        default: task = tasks[random.below(tasks.count)]
        }
        var fields: [String: SyncValue] = [:]
        let names = SyncField.all + [SyncField.deleted, "unknown", "title"]
        for _ in 0..<random.below(8) { fields[names[random.below(names.count)]] = randomValue(&random) }
        if random.below(4) == 0 { fields["title"] = .text("peer \(number)") }
        let clocks: [Int64] = [.max, .min, 0, 1, Int64(bitPattern: random.next()), 1_796_000_000_000 << 16]
        return SyncChange(id: "peer-\(number)", node: "peer", origin: "mallory", clock: clocks[random.below(clocks.count)], task: task,
                          fields: fields, rejection: random.below(20) == 0 ? "its fields are unreadable (a number with a fraction)" : nil)
    }

    /// Every task in the file holds values `add` could have written.
    func expectValid(_ machine: Machine, seed: UInt64) throws {
        for (uuid, fields) in try machine.tasks() {
            #expect(ReceivedFieldRules.refusal(task: uuid) == nil, "seed \(seed): task \(uuid)")
            for (name, value) in fields {
                #expect(ReceivedFieldRules.refusal(name, value) == nil, "seed \(seed): \(uuid) \(name) = \(value)")
            }
        }
        #expect(try machine.service.db.scalarString("PRAGMA integrity_check") == "ok")
    }

    @Test(arguments: [false, true])
    func randomPeerRowsNeverTrapNeverStopTheSyncAndLeaveOnlyValidTasks(streamed: Bool) throws {
        for seed in UInt64(1)...25 {
            var random = SplitMix(seed: seed &* 7919 &+ (streamed ? 1 : 0))
            let folder = TemporaryFolder()
            let server = MemoryServer()
            let here = try Machine(folder, "here", server: server, clockStart: 1_796_000_000_000)
            _ = try run(here.service.create([TaskDraft(title: "one"), TaskDraft(title: "two", list: "Work")]))
            try here.sync()
            let tasks = try here.tasks().keys.sorted()
            for number in 0..<60 {
                var change = randomChange(&random, tasks: tasks, number: number)
                change.seq = server.nextSeq
                server.nextSeq += 1
                server.changes.append(change)
            }
            // What a new machine's first sync applies as it reads, and what a machine that has
            // tasks merges.
            let fresh = try Machine(folder, "fresh", server: server, clockStart: 1_796_000_000_000)
            fresh.remote.streams = streamed
            let received = try fresh.sync()
            let merged = try here.sync()
            #expect(received.rejected.count + received.pulled >= 60 && merged.rejected.count + merged.pulled == 60, "seed \(seed)")
            #expect(!merged.rejected.isEmpty, "seed \(seed): a random peer breaks some rule")
            try expectValid(fresh, seed: seed)
            try expectValid(here, seed: seed)
            // A change made here after all that syncs, and reaches the other machine.
            let id = try here.id(of: "one") == 0 ? try run(here.service.create([TaskDraft(title: "late")]))[0].id : try here.id(of: "one")
            _ = try run(here.service.update(id: id, TaskChanges(title: "after the peer")))
            let after = try here.sync()
            #expect(after.pushed >= 1, "seed \(seed)")
            #expect(try here.sync().rejected.isEmpty, "seed \(seed): what was kept aside is not reported again")
            try fresh.sync()
            #expect(try fresh.titles().contains("after the peer"), "seed \(seed)")
        }
    }
}
