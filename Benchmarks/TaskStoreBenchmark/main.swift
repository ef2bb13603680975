// TaskStore benchmark: SQLiteTaskService beside the same SQL through the raw libsqlite3 C API
// (prepared once, no wrapper), in the same process and the same run, on files of 10,000,
// 100,000 and 1,000,000 tasks.
//
//   swift run -c release taskstore-benchmark           # all sizes
//   swift run -c release taskstore-benchmark --quick   # 10,000 and 100,000 only
//
// Prints a Markdown table of medians and ratios.

import BenchmarkSupport
import CSQLite
import QueryLanguage
import ReactorKitCompat
import SQLiteDB
import TaskModel
import TaskReactors
import TaskStore

#if canImport(Glibc)
import Glibc
#endif

let clock = ContinuousClock()

let nanoseconds = BenchmarkSupport.nanoseconds

/// Median of `runs` timings of `body`, in nanoseconds; `setUp` runs untimed before each.
func median(runs: Int, setUp: () throws -> Void = {}, _ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        try setUp()
        samples.append(nanoseconds(try clock.measure(body)))
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// Medians of `runs` timings of `service` and of `raw`, taken alternately so that the machine's
/// drift and noise fall on both alike.
func pair(runs: Int, setUp: () -> Void = {}, service: () throws -> Void, raw: () -> Void) rethrows -> (Double, Double) {
    var a: [Double] = []
    var b: [Double] = []
    for _ in 0..<runs {
        setUp()
        a.append(nanoseconds(try clock.measure(service)))
        setUp()
        b.append(nanoseconds(clock.measure(raw)))
    }
    a.sort()
    b.sort()
    return (a[runs / 2], b[runs / 2])
}

let log = BenchmarkSupport.progress

// MARK: - The raw C API floor

struct RawError: Error {
    let code: Int32
    let sql: String
}

/// One raw connection and its statements, prepared once.
final class Raw {
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    let columns = "id, uuid, title, notes, list, done, completed, due, priority, tags, position, created, modified"
    let db: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else { throw RawError(code: code, sql: "open \(path)") }
        db = handle
        sqlite3_busy_timeout(db, 10_000)
        // The service's own settings (synchronous = FULL since issue 18: a commit syncs the WAL).
        exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    func exec(_ sql: String) { sqlite3_exec(db, sql, nil, nil, nil) }

    /// Moves the WAL into the file, so that each size starts from a plain database.
    func checkpoint() { exec("PRAGMA wal_checkpoint(TRUNCATE)") }

    func statement(_ sql: String) -> OpaquePointer {
        if let cached = statements[sql] {
            sqlite3_reset(cached)
            return cached
        }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            // The floor's SQL is fixed; a failure here is a broken benchmark, reported and ended.
            log("raw: cannot prepare \(sql): \(String(cString: sqlite3_errmsg(db)))")
            exit(1)
        }
        statements[sql] = statement
        return statement
    }

    func text(_ statement: OpaquePointer, _ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
    }

    /// Reads the row into the same `Task` value the service builds: the same work, no wrapper.
    func task(_ s: OpaquePointer) -> Task {
        Task(
            id: sqlite3_column_int64(s, 0), uuid: text(s, 1), title: text(s, 2), notes: text(s, 3), list: text(s, 4),
            isDone: sqlite3_column_int64(s, 5) != 0,
            completed: sqlite3_column_type(s, 6) == SQLITE_NULL ? nil : Timestamp(millisecondsSince1970: sqlite3_column_int64(s, 6)),
            due: sqlite3_column_type(s, 7) == SQLITE_NULL ? nil : CalendarDay(text(s, 7)),
            priority: nil,
            tags: text(s, 9).split(separator: " ").map(String.init),
            position: sqlite3_column_int64(s, 10),
            created: Timestamp(millisecondsSince1970: sqlite3_column_int64(s, 11)),
            modified: Timestamp(millisecondsSince1970: sqlite3_column_int64(s, 12))
        )
    }

    /// The same inserts as the service's batch: the same bulk-load settings (a rollback
    /// journal and a 64 MiB cache for the batch), a hundred rows per INSERT, time-ordered UUIDs.
    func insert(count: Int, list: String) {
        let makeUUID = TimeOrderedUUID.generator(now: SystemClock.now)
        exec("PRAGMA cache_size = -65536; PRAGMA journal_mode = DELETE")
        exec("BEGIN IMMEDIATE")
        var maxPosition: Int64 = 0
        let max = statement("SELECT max(position) FROM task WHERE list = ?")
        list.withCString { _ = sqlite3_bind_text(max, 1, $0, -1, transient) }
        if sqlite3_step(max) == SQLITE_ROW { maxPosition = sqlite3_column_int64(max, 0) }
        sqlite3_reset(max)
        let rowsPerInsert = 100
        func insertSQL(_ rows: Int) -> String {
            "INSERT INTO task (uuid, title, notes, list, due, priority, tags, position, created, modified) VALUES "
                + repeatElement("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
        }
        let full = insertSQL(rowsPerInsert)
        var start = 0
        while start < count {
            let rows = min(rowsPerInsert, count - start)
            let insert = statement(rows == rowsPerInsert ? full : insertSQL(rows))
            for index in start..<(start + rows) {
                let base = Int32((index - start) * 10)
                makeUUID().withCString { _ = sqlite3_bind_text(insert, base + 1, $0, -1, transient) }
                "Benchmark task \(index + 1)".withCString { _ = sqlite3_bind_text(insert, base + 2, $0, -1, transient) }
                sqlite3_bind_text(insert, base + 3, "", 0, transient)
                list.withCString { _ = sqlite3_bind_text(insert, base + 4, $0, -1, transient) }
                sqlite3_bind_null(insert, base + 5)
                sqlite3_bind_null(insert, base + 6)
                sqlite3_bind_text(insert, base + 7, "", 0, transient)
                sqlite3_bind_int64(insert, base + 8, maxPosition + Int64(index + 1) * 65_536)
                sqlite3_bind_int64(insert, base + 9, 1_800_000_000_000)
                sqlite3_bind_int64(insert, base + 10, 1_800_000_000_000)
            }
            sqlite3_step(insert)
            sqlite3_reset(insert)
            start += rows
        }
        exec("COMMIT")
        exec("PRAGMA journal_mode = WAL; PRAGMA cache_size = -2000")
    }

    func fetch(_ sql: String, bind: (OpaquePointer) -> Void = { _ in }) -> [Task] {
        exec("BEGIN")
        let s = statement(sql)
        bind(s)
        var tasks: [Task] = []
        while sqlite3_step(s) == SQLITE_ROW { tasks.append(task(s)) }
        sqlite3_reset(s)
        exec("COMMIT")
        return tasks
    }

    func toggle(id: Int64) {
        exec("BEGIN IMMEDIATE")
        let select = statement("SELECT \(columns) FROM task WHERE id = ?")
        sqlite3_bind_int64(select, 1, id)
        var done: Int64 = 0
        if sqlite3_step(select) == SQLITE_ROW { done = task(select).isDone ? 1 : 0 }
        sqlite3_reset(select)
        let update = statement("UPDATE task SET done = ?, completed = ?, modified = ? WHERE id = ?")
        sqlite3_bind_int64(update, 1, 1 - done)
        if done == 0 { sqlite3_bind_int64(update, 2, 1_800_000_000_000) } else { sqlite3_bind_null(update, 2) }
        sqlite3_bind_int64(update, 3, 1_800_000_000_001)
        sqlite3_bind_int64(update, 4, id)
        sqlite3_step(update)
        sqlite3_reset(update)
        exec("COMMIT")
    }

    func moveToTop(id: Int64, list: String) {
        exec("BEGIN IMMEDIATE")
        let select = statement("SELECT \(columns) FROM task WHERE id = ?")
        sqlite3_bind_int64(select, 1, id)
        _ = sqlite3_step(select)
        sqlite3_reset(select)
        let min = statement("SELECT min(position) FROM task WHERE list = ? AND id != ?")
        list.withCString { _ = sqlite3_bind_text(min, 1, $0, -1, transient) }
        sqlite3_bind_int64(min, 2, id)
        var first: Int64 = 0
        if sqlite3_step(min) == SQLITE_ROW { first = sqlite3_column_int64(min, 0) }
        sqlite3_reset(min)
        let update = statement("UPDATE task SET list = ?, position = ?, modified = ? WHERE id = ?")
        list.withCString { _ = sqlite3_bind_text(update, 1, $0, -1, transient) }
        sqlite3_bind_int64(update, 2, first - 65_536)
        sqlite3_bind_int64(update, 3, 1_800_000_000_001)
        sqlite3_bind_int64(update, 4, id)
        sqlite3_step(update)
        sqlite3_reset(update)
        exec("COMMIT")
    }
}


// MARK: - Files

let folder = "/tmp/taskstore-benchmark-\(getpid())"
mkdir(folder, 0o700)
defer { _ = system("rm -rf '\(folder)'") }

/// A file of `count` tasks in `lists` lists (the service's schema), made once per size.
func makeFile(count: Int, lists: Int, name: String = "tasks") throws -> String {
    let path = "\(folder)/\(name)-\(count).db"
    let service = try SQLiteTaskService(path: path)
    let perList = count / lists
    var drafts: [TaskDraft] = []
    for list in 0..<lists {
        drafts.removeAll(keepingCapacity: true)
        for index in 0..<perList { drafts.append(TaskDraft(title: "Benchmark task \(list * perList + index + 1)", list: "List \(list)")) }
        _ = try service.create(drafts).toBlocking().single()
    }
    try Raw(path: path).checkpoint()
    return path
}

func copyFile(_ from: String, _ to: String) {
    _ = system("cp '\(from)' '\(to)'; rm -f '\(to)-wal' '\(to)-shm'")
}

// MARK: - Running

let quick = CommandLine.arguments.contains("--quick")
let sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
var rows: [(String, String, Double, Double)] = []

@MainActor func report(_ workload: String, _ size: String, service: Double, floor: Double) {
    rows.append((workload, size, service, floor))
    log("\(workload) \(size): service \(format(service)), raw \(format(floor))")
}

func format(_ nanoseconds: Double) -> String {
    if nanoseconds >= 1e6 { return "\((nanoseconds / 1e4).rounded() / 100) ms" }
    return "\((nanoseconds / 10).rounded() / 100) µs"
}


do {
    // Insert 100,000 tasks in one batch into an empty, migrated file: both files are made
    // untimed; the two sides are timed alternately.
    let count = 100_000
    let drafts = (0..<count).map { TaskDraft(title: "Benchmark task \($0 + 1)") }
    let template = "\(folder)/empty.db"
    _ = try SQLiteTaskService(path: template)
    var serviceSamples: [Double] = []
    var rawSamples: [Double] = []
    for run in 0..<7 {
        copyFile(template, "\(folder)/insert-service-\(run).db")
        copyFile(template, "\(folder)/insert-raw-\(run).db")
        let service = try SQLiteTaskService(path: "\(folder)/insert-service-\(run).db")
        let raw = try Raw(path: "\(folder)/insert-raw-\(run).db")
        serviceSamples.append(nanoseconds(try clock.measure { _ = try service.create(drafts).toBlocking().single() }))
        rawSamples.append(nanoseconds(clock.measure { raw.insert(count: count, list: "Inbox") }))
    }
    serviceSamples.sort()
    rawSamples.sort()
    report("insert 100,000 tasks in one batch", "empty file", service: serviceSamples[3], floor: rawSamples[3])
    _ = system("rm -f \(folder)/insert-*")
}

for size in sizes {
    let lists = max(1, size / 10_000)
    let path = try makeFile(count: size, lists: lists)
    let service = try SQLiteTaskService(path: path)
    let raw = try Raw(path: path)
    let label = "\(BenchmarkSupport.grouped(size)) tasks"

    if size == 100_000 {
        let query = TaskQuery(status: .all, grouping: .none)
        let sql = "SELECT \(raw.columns) FROM task ORDER BY list, position, id"
        let (serviceTime, rawTime) = try pair(runs: 7, service: { _ = try service.fetch(query).toBlocking().single() }, raw: { _ = raw.fetch(sql) })
        report("fetch all", label, service: serviceTime, floor: rawTime)
    }

    // One list's pending tasks (10,000 of them).
    let query = TaskQuery(filter: .term(.list("List \(lists / 2)", exact: true)))
    let listSQL = "SELECT \(raw.columns) FROM task WHERE done = 0 AND list = ? ORDER BY list, list, position, id"
    let listName = "List \(lists / 2)"
    let (serviceList, rawList) = try pair(runs: 9, service: { _ = try service.fetch(query).toBlocking().single() }, raw: {
        _ = raw.fetch(listSQL) { s in listName.withCString { _ = sqlite3_bind_text(s, 1, $0, -1, raw.transient) } }
    })
    report("fetch one list's pending tasks (10,000)", label, service: serviceList, floor: rawList)

    // Toggle one task: read it, write it, one transaction. Each side flips its own two tasks.
    let middle = Int64(size / 2)
    var flip: Int64 = 0
    let (serviceToggle, rawToggle) = try pair(runs: 41, setUp: { flip += 1 }, service: {
        _ = try service.toggle(ids: [middle + flip % 2]).toBlocking().single()
    }, raw: { raw.toggle(id: middle + 2 + flip % 2) })
    report("toggle one task", label, service: serviceToggle, floor: rawToggle)

    // Move a task to the top of its 10,000-task list; a different task each time.
    var moveID = Int64(size / 2) + 10
    let (serviceMove, rawMove) = try pair(runs: 41, setUp: { moveID += 1 }, service: {
        _ = try service.move(id: moveID, to: .top).toBlocking().single()
    }, raw: { raw.moveToTop(id: moveID, list: listName) })
    report("move a task to the top of its list", label, service: serviceMove, floor: rawMove)
}

// MARK: - TaskListReactor on the real service

do {
    // The list reactor over a 100,000-task file, all tasks shown (so a toggled task stays):
    // each action is a service call, an event after the commit, and one in-place reduce.
    let path = try makeFile(count: 100_000, lists: 10, name: "reactor")
    let service = try SQLiteTaskService(path: path)
    let reactor = TaskListReactor(service: service)
    let query = TaskQuery(status: .all)
    reactor.action.onNext(.refresh(query))
    var shown = 0
    let subscription = reactor.state.map { $0.sections.count }.distinctUntilChanged().subscribe(onNext: { shown = $0 })
    var flip: Int64 = 0
    let (reactorToggle, serviceToggle) = pair(runs: 41, setUp: { flip += 1 }, service: {
        reactor.action.onNext(.toggleTasksDone([50_000 + flip % 2]))
    }, raw: {
        _ = try? service.toggle(ids: [50_002 + flip % 2]).toBlocking().single()
    })
    report("TaskListReactor: toggle one task (service call, event, reduce)", "100,000 tasks", service: reactorToggle, floor: serviceToggle)
    let (reactorRefresh, serviceRefresh) = pair(runs: 7, service: {
        reactor.action.onNext(.refresh(query))
    }, raw: {
        _ = try? service.fetch(query).toBlocking().single()
    })
    // Since issue 19 the State holds the totals and a window of rows, not every task: the
    // floor is still the fetch of every row (what a refresh cost before).
    report("TaskListReactor: refresh (totals and the first window; floor: fetch every row)", "100,000 tasks", service: reactorRefresh, floor: serviceRefresh)
    subscription.dispose()
    let state = reactor.currentState
    if shown < 1 || state.totals.count != 100_000 || state.totals.sections.count != 10 || state.window.rows.isEmpty {
        log("unexpected reactor state: \(state.totals.count) tasks in \(state.totals.sections.count) sections, a window of \(state.window.rows.count)")
        exit(1)
    }
}

print("| workload | file | measured | floor | ratio |")
print("| --- | --- | ---: | ---: | ---: |")
for (workload, size, service, floor) in rows {
    let ratio = (service / floor * 100).rounded() / 100
    print("| \(workload) | \(size) | \(format(service)) | \(format(floor)) | \(ratio)× |")
}
