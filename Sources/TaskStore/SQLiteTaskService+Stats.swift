#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QueryLanguage
import ReactorCore
import SQLiteDB
import TaskModel

extension SQLiteTaskService {
    public func stats() -> Observable<TaskStats> {
        call { try $0.statsNow() }
    }

    /// `TaskStats` in a few aggregate queries, no task read whole: one pass over the table
    /// (waiting as `+WAITING` reads it: `wait` after now), one over the tombstones, the lists
    /// by their index, the tasks that wait on others by the index of those alone, the distinct
    /// tag sets. (One pass over the table and the tombstones together took 167 ms at 100,000
    /// tasks; these take under 100: docs/benchmarks.md.)
    func statsNow() throws -> TaskStats {
        var stats = TaskStats()
        let now = self.now()
        let reading = TaskDate.reading(now, in: localTime, today: today())
        let annotations = "CASE WHEN annotations <> '' THEN length(annotations) - length(replace(annotations, char(10), '')) ELSE 0 END"
        _ = try db.query("""
            SELECT sum(done = 0 AND (wait IS NULL OR wait <= ?2)), sum(done = 0 AND wait > ?2), sum(done = 0 AND repeat IS NOT NULL),
                   sum(done = 1), sum(\(annotations)), sum(tags <> ''), min(created), max(created),
                   total(CASE WHEN done = 1 THEN coalesce(completed, modified) - created WHEN wait IS NULL OR wait <= ?2 THEN ?1 - created ELSE 0 END),
                   sum(length(title))
            FROM task
            """, [now.millisecondsSince1970, reading]) { row in
            stats.pending = Int(row.int64(0))
            stats.waiting = Int(row.int64(1))
            stats.repeating = Int(row.int64(2))
            stats.done = Int(row.int64(3))
            stats.annotations = Int(row.int64(4))
            stats.tagged = Int(row.int64(5))
            stats.oldest = row.optionalInt64(6).map(Timestamp.init(millisecondsSince1970:))
            stats.newest = row.optionalInt64(7).map(Timestamp.init(millisecondsSince1970:))
            // total(), not sum(): times from other machines and files may be anything, and an
            // integer sum past Int64 is an error in SQLite.
            stats.pendingMilliseconds = TaskStats.milliseconds(row.double(8))
            stats.titleCharacters = row.int64(9)
        }
        let tombstone = TaskQuerySQL.tombstone("d")
        _ = try db.query("""
            SELECT count(*), sum(\(annotations)), sum(tags <> ''), min(created), max(created), sum(length(title))
            FROM deleted_task AS d WHERE \(tombstone)
            """) { row in
            stats.deleted = Int(row.int64(0))
            stats.annotations += Int(row.int64(1))
            stats.tagged += Int(row.int64(2))
            if let oldest = row.optionalInt64(3).map(Timestamp.init(millisecondsSince1970:)) { stats.oldest = min(stats.oldest ?? oldest, oldest) }
            if let newest = row.optionalInt64(4).map(Timestamp.init(millisecondsSince1970:)) { stats.newest = max(stats.newest ?? newest, newest) }
            stats.titleCharacters += row.int64(5)
        }
        stats.lists = Int(try db.scalar("SELECT count(*) FROM (SELECT list FROM task UNION SELECT list FROM deleted_task AS d WHERE \(tombstone))") ?? 0)
        // The uuids a pending task waits on (its `depends`, ' u1 u2 '), as the filters read them.
        let waitedOn = "json_each('[\"' || replace(trim(t.depends), ' ', '\",\"') || '\"]') AS w JOIN task AS b ON b.uuid = w.value AND b.done = 0"
        stats.blocked = Int(try db.scalar("SELECT count(*) FROM task AS t WHERE t.depends <> '' AND t.done = 0 AND EXISTS (SELECT 1 FROM \(waitedOn))") ?? 0)
        stats.blocking = Int(try db.scalar("SELECT count(DISTINCT b.id) FROM task AS t, \(waitedOn) WHERE t.depends <> '' AND t.done = 0") ?? 0)
        var tags = Set<Substring>()
        _ = try db.query("SELECT tags FROM task WHERE tags <> '' UNION SELECT tags FROM deleted_task AS d WHERE tags <> '' AND \(tombstone)") { row in
            for tag in row.string(0).split(separator: " ") { tags.insert(tag) }
        }
        stats.tags = tags.count
        stats.historyEntries = Int(try db.scalar("SELECT count(*) FROM history") ?? 0)
        for file in [path, path + "-wal"] {
            var info = stat()
            if stat(file, &info) == 0 { stats.fileBytes += Int64(info.st_size) }
        }
        return stats
    }
}
