import QueryLanguage
import TaskModel
import _TestSupport
import Testing
@testable import TaskStore

/// A report's order (`--sort due,priority-`) is the same in SQL and in `TaskQuery.orders`, and
/// a window sought from any row (the ui's paging) continues that order both ways.
@Suite("Sort keys: SQL and Swift agree")
struct SortKeySQLTests {
    /// Every key the vocabulary sorts by, the custom fields of the random tasks included: a
    /// new entry is in the comparison without a word here.
    static func randomKeys(_ random: inout SplitMix) -> [SortKey] {
        let fields = FieldVocabulary.builtIn.adding(FilterSQLTests.custom).fields(.sort)
        var keys: [SortKey] = []
        for _ in 0..<(1 + Int(random.next() % 3)) {
            let field = fields[Int(random.next() % UInt64(fields.count))]
            if keys.contains(where: { $0.field == field }) { continue }
            keys.append(SortKey(field, descending: random.next() % 2 == 0))
        }
        return keys
    }

    @Test func randomOrdersAreTheSameInSQLAndInSwiftAndSeekingContinuesThem() throws {
        let folder = TemporaryFolder()
        var random = SplitMix(seed: 1205)
        let (service, all) = try FilterSQLTests.store(FilterSQLTests.tasks(120, &random), folder)
        var seeks = 0
        for round in 0..<150 {
            var query = FilterSQLTests.query(nil)
            let keys = Self.randomKeys(&random)
            query.sort = .keys(keys)
            query.grouping = [.none, .byList, .byStatus][Int(random.next() % 3)]
            let sql = try service.fetchNow(query).map(\.id)
            let swift = all.sorted { a, b in
                switch query.grouping {
                case .byList where a.list != b.list: return Array(a.list.utf8).lexicographicallyPrecedes(b.list.utf8)
                case .byStatus where a.isDone != b.isDone: return !a.isDone
                default: return query.orders(a, before: b)
                }
            }.map(\.id)
            let label = "round \(round): \(keys.map(\.description).joined(separator: ",")) \(query.grouping)"
            #expect(sql == swift, "\(label)")
            // From a row in the middle, the next rows and the ones before.
            let middle = Int(random.next() % UInt64(all.count))
            guard let anchor = all.first(where: { $0.id == sql[middle] }) else { continue }
            let after = try service.rowsNow(query, .after(anchor, count: 7)).map(\.id)
            let before = try service.rowsNow(query, .before(anchor, count: 7)).map(\.id)
            #expect(after == Array(sql[(middle + 1)...].prefix(7)), "\(label): after")
            #expect(before == Array(sql[..<middle].suffix(7)), "\(label): before")
            seeks += 1
        }
        #expect(seeks == 150)
    }

    @Test func missingValuesGoLastWhicheverWayAndPriorityRunsLowToHigh() throws {
        let folder = TemporaryFolder()
        let service = try makeService(folder)
        let made = try service.createNow(["none", "high", "low", "medium"].map { TaskDraft(fields: Task(unsaved: $0)) })
        for (task, priority) in zip(made, [nil, Priority.high, .low, .medium]) {
            var changed = task
            changed.priority = priority
            try service.overwrite(changed)
        }
        func titles(_ text: String) throws -> [String] {
            var query = TaskQuery(grouping: .none)
            query.sort = .keys(try SortKey.parse(text))
            return try service.fetchNow(query).map(\.title)
        }
        #expect(try titles("priority-") == ["high", "medium", "low", "none"])
        #expect(try titles("priority") == ["low", "medium", "high", "none"])
        #expect(try titles("priority+,id") == ["low", "medium", "high", "none"])
        // An abbreviation is read as filters read it (`prio` is priority everywhere).
        #expect((try? SortKey.parse("prio-"))?.first == SortKey.named("priority", descending: true))
        #expect(throws: SortKeyError.self) { try SortKey.parse("xyz-") }
        #expect((try? SortKey.parse("urgency-"))?.first == SortKey.named("score", descending: true))
        do {
            _ = try SortKey.parse("prioirty")
        } catch {
            #expect(error.message.hasPrefix("'prioirty' is not an order (did you mean 'priority'?)"))
        }
    }
}
