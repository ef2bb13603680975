import QueryLanguage
import SQLiteDB
import TaskModel

// MARK: - Short uuids

extension SQLiteTaskService {
    /// The shortest start of each of `uuids` that no other task's uuid begins with — at least
    /// eight hex digits, the form every command takes for a task (`tasks show 01a24935`).
    /// Uuids made together share their first digits (they begin with the time), so eight are
    /// often not enough: each is measured against its two neighbours in the uuid index, the
    /// only uuids that can share more of it. Two index lookups a task.
    public func shortUUIDs(_ uuids: [String]) throws -> [String: String] {
        let db = try self.db
        return try db.read {
            let before = try db.prepare("SELECT max(uuid) FROM task WHERE uuid < ?")
            let after = try db.prepare("SELECT min(uuid) FROM task WHERE uuid > ?")
            defer {
                before.reset()
                after.reset()
            }
            var result: [String: String] = [:]
            for uuid in uuids where result[uuid] == nil {
                var shared = 0
                for statement in [before, after] {
                    statement.reset()
                    try statement.bind(text: uuid, at: 1)
                    if try statement.step(), let other = statement.optionalString(0) {
                        shared = max(shared, zip(uuid.utf8, other.utf8).prefix { $0 == $1 }.count)
                    }
                }
                result[uuid] = Self.shortForm(uuid, longerThan: shared)
            }
            return result
        }
    }

    /// The ids of the tasks of `uuids` that are here.
    public func ids(ofUUIDs uuids: [String]) throws -> [String: Int64] {
        let db = try self.db
        return try db.read {
            let lookup = try db.prepare("SELECT id FROM task WHERE uuid = ?")
            defer { lookup.reset() }
            var result: [String: Int64] = [:]
            for uuid in uuids {
                lookup.reset()
                try lookup.bind(text: uuid, at: 1)
                if try lookup.step() { result[uuid] = lookup.int64(0) }
            }
            return result
        }
    }

    /// The ids among `ids` whose tasks `filter` selects on the clock of `today` and `now` (a
    /// colour rule that asks about other tasks, `+BLOCKED`, read for a table's batch).
    public func ids(among ids: [Int64], matching filter: TaskFilter, today: CalendarDay, now: String?) throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        var query = TaskQuery(status: .all, filter: .and([filter, .term(.ids(ids.map { $0...$0 }))]), sort: .id, grouping: .none, waiting: .shown, today: today)
        query.expired = .shown
        query.now = now
        let statement = TaskQuerySQL.select(query, columns: "id")
        let db = try self.db
        return Set(try db.read { try db.query(statement.sql, statement.arguments, expectedCount: min(ids.count, 4096)) { $0.int64(0) } })
    }

    /// The start of `uuid` one character longer than `shared`, with at least eight hex
    /// digits, never ending on a hyphen.
    static func shortForm(_ uuid: String, longerThan shared: Int) -> String {
        var digits = 0
        var length = 0
        for character in uuid.utf8 {
            length += 1
            if character != UInt8(ascii: "-") { digits += 1 }
            if digits >= 8 && length > shared && character != UInt8(ascii: "-") { break }
        }
        return String(decoding: uuid.utf8.prefix(length), as: UTF8.self)
    }
}
