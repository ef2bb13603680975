import _TestSupport
import Testing
@testable import SQLiteDB

struct Boom: Error {}

@Suite("SQLiteDB: connection, statements, transactions")
struct ConnectionTests {
    @Test func everyTypeRoundTrips() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB, n TEXT)")
        let text = "한국어 🎉 e\u{301} \t tab \u{1} control"
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", Int64.min, 2.5, text, [UInt8](arrayLiteral: 0, 1, 255), nil)
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", Int64.max, -0.0, "", [UInt8](), "x")
        let rows = try db.query("SELECT i, d, s, b, n, typeof(s), typeof(b) FROM t ORDER BY rowid") { row in
            (row.int64(0), row.double(1), row.string(2), row.blob(3), row.optionalString(4), row.string(5), row.string(6))
        }
        #expect(rows.count == 2)
        #expect(rows[0].0 == Int64.min)
        #expect(rows[0].1 == 2.5)
        #expect(rows[0].2 == text)
        #expect(rows[0].3 == [0, 1, 255])
        #expect(rows[0].4 == nil)
        #expect(rows[1].0 == Int64.max)
        #expect(rows[1].2 == "")
        #expect(rows[1].5 == "text", "an empty string is text, not NULL")
        #expect(rows[1].6 == "blob", "an empty blob is a blob, not NULL")
        #expect(rows[1].4 == "x")
    }

    @Test func statementsAreCachedBySQL() throws {
        let db = try Connection(path: ":memory:")
        let first = try db.prepare("SELECT 1")
        let second = try db.prepare("SELECT 1")
        #expect(first === second)
        #expect(try db.prepare("SELECT 2") !== first)
        #expect(try db.prepare("SELECT 1") === first, "the dictionary's, after another")
        #expect(try db.prepare(String("SELECT 1".reversed().reversed())) === first, "equal text, not the same string")
    }

    @Test func aStatementAskedForAgainComesResetWithoutItsBindings() throws {
        let db = try Connection(path: ":memory:")
        let statement = try db.prepare("SELECT ?1")
        try statement.bind(integer: 5, at: 1)
        #expect(try statement.step())
        #expect(statement.int64(0) == 5)
        let again = try db.prepare("SELECT ?1")  // the last one prepared, asked for again
        #expect(again === statement)
        #expect(try again.step())
        #expect(again.isNull(0), "no binding kept from before")
    }

    @Test func writeCommitsOrRollsBackWhole() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (v INTEGER)")
        try db.write { try db.run("INSERT INTO t VALUES (1)") }
        #expect(throws: Boom.self) {
            try db.write {
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == 1)
        #expect(!db.isInTransaction)
    }

    @Test func aNestedWriteIsASavepoint() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (v INTEGER)")
        try db.write {
            try db.run("INSERT INTO t VALUES (1)")
            try? db.write {
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            }
            try db.run("INSERT INTO t VALUES (3)")
        }
        #expect(try db.query("SELECT v FROM t ORDER BY v") { $0.int64(0) } == [1, 3])
    }

    @Test func errorsKeepTheCodeTheMessageAndTheSQL() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (v INTEGER UNIQUE)")
        try db.run("INSERT INTO t VALUES (1)")
        do {
            try db.run("INSERT INTO t VALUES (?)", 1)
            Issue.record("expected a constraint error")
        } catch let error as SQLiteError {
            #expect(error.code == .constraint)
            #expect(error.extendedCode == 2067, "SQLITE_CONSTRAINT_UNIQUE")
            #expect(error.message.contains("UNIQUE"))
            #expect(error.sql == "INSERT INTO t VALUES (?)")
        }
        #expect(throws: SQLiteError.self) { try db.prepare("SELEKT nonsense") }
    }

    @Test func sqlLookingTextIsStoredLiterally() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (s TEXT)")
        let nasty = "'); DROP TABLE t; --"
        try db.run("INSERT INTO t VALUES (?)", nasty)
        #expect(try db.scalarString("SELECT s FROM t") == nasty)
    }
}

@Suite("SQLiteDB: files")
struct FileTests {
    @Test func aTextFileIsNotADatabase() throws {
        let folder = TemporaryFolder()
        let path = folder.file("notes.txt")
        writeBytes(path, Array("just some text, not a database\n".utf8))
        let db = try Connection(path: path)
        do {
            _ = try Migrator.version(of: db)
            Issue.record("expected notADatabase")
        } catch let error as SQLiteError {
            #expect(error.code == .notADatabase)
        }
        #expect(readBytes(path) == Array("just some text, not a database\n".utf8), "the file is untouched")
    }

    @Test func aCorruptFileGivesATypedError() throws {
        let folder = TemporaryFolder()
        let path = folder.file("corrupt.db")
        do {
            let db = try Connection(path: path)
            try db.execute("CREATE TABLE t (v TEXT); CREATE INDEX t_v ON t (v)")
            try db.write {
                for index in 0..<2_000 { try db.run("INSERT INTO t VALUES (?)", "row \(index) " + String(repeating: "x", count: 100)) }
            }
        }
        var bytes = readBytes(path)
        #expect(bytes.count > 16_384)
        for index in 4_096..<min(bytes.count, 40_000) { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        writeBytes(path, bytes)
        let db = try Connection(path: path)
        do {
            _ = try db.query("SELECT v FROM t ORDER BY v") { $0.string(0) }
            let check = try db.scalarString("PRAGMA integrity_check")
            #expect(check != "ok", "the damage should be found")
        } catch let error as SQLiteError {
            #expect([.corrupt, .notADatabase].contains(error.code))
        }
    }

    @Test func aReadOnlyConnectionRefusesWrites() throws {
        let folder = TemporaryFolder()
        let path = folder.file("ro.db")
        do {
            let db = try Connection(path: path)
            try db.execute("CREATE TABLE t (v INTEGER)")
        }
        let db = try Connection(path: path, options: .readOnly)
        do {
            try db.run("INSERT INTO t VALUES (1)")
            Issue.record("expected readOnly")
        } catch let error as SQLiteError {
            #expect(error.code == .readOnly)
        }
    }

    @Test func aMissingFileWithoutCreateCannotOpen() {
        let folder = TemporaryFolder()
        #expect {
            try Connection(path: folder.file("missing/none.db"), options: [])
        } throws: { error in
            (error as? SQLiteError)?.code == .cantOpen
        }
    }

    @Test func privateFilesAndFolders() throws {
        let folder = TemporaryFolder()
        let path = folder.file("a/b/tasks.db")
        #expect(try PrivateFile.createIfMissing(path))
        #expect(fileMode(path) == 0o600)
        #expect(fileMode(folder.file("a")) == 0o700)
        #expect(fileMode(folder.file("a/b")) == 0o700)
        #expect(try PrivateFile.createIfMissing(path) == false)
    }
}

@Suite("SQLiteDB: migrations")
struct MigratorTests {
    static let v1 = Migration("one") { db in try db.execute("CREATE TABLE a (v INTEGER)") }
    static let v2 = Migration("two") { db in try db.execute("ALTER TABLE a ADD COLUMN w TEXT NOT NULL DEFAULT 'new'") }
    static let failing = Migration("fails") { db in
        try db.execute("CREATE TABLE b (v INTEGER)")
        throw Boom()
    }

    @Test func migrationsRunInOrderOnceAndAreRecorded() throws {
        let folder = TemporaryFolder()
        let path = folder.file("m.db")
        do {
            let db = try Connection(path: path)
            #expect(try Migrator([Self.v1]).migrate(db) == ["one"])
            try db.run("INSERT INTO a (v) VALUES (7)")
        }
        let db = try Connection(path: path)
        #expect(try Migrator([Self.v1, Self.v2]).migrate(db) == ["two"], "an older file is upgraded in place")
        #expect(try Migrator([Self.v1, Self.v2]).migrate(db) == [])
        #expect(try Migrator.version(of: db) == 2)
        #expect(try db.scalarString("SELECT w FROM a WHERE v = 7") == "new")
        #expect(try db.query("SELECT name FROM schema_migrations ORDER BY name") { $0.string(0) } == ["one", "two"])
    }

    /// The pending migrations run in one transaction: a failure in any leaves the file at the
    /// version it had, not between (the power-cut sweep in TaskStoreTests relies on it).
    @Test func aFailingMigrationLeavesTheFileAtTheVersionBefore() throws {
        let db = try Connection(path: ":memory:")
        #expect(throws: Boom.self) { try Migrator([Self.v1, Self.failing]).migrate(db) }
        #expect(try Migrator.version(of: db) == 0)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name IN ('a', 'b', 'schema_migrations')") == 0)
        #expect(try Migrator([Self.v1]).migrate(db) == ["one"])
        #expect(throws: Boom.self) { try Migrator([Self.v1, Self.failing]).migrate(db) }
        #expect(try Migrator.version(of: db) == 1)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'b'") == 0)
    }

    @Test func aNewerFileIsRefusedAndLeftUntouched() throws {
        let folder = TemporaryFolder()
        let path = folder.file("newer.db")
        do {
            let db = try Connection(path: path)
            try Migrator([Self.v1, Self.v2]).migrate(db)
        }
        let before = readBytes(path)
        let db = try Connection(path: path)
        #expect(throws: NewerSchemaError(found: 2, supported: 1)) { try Migrator([Self.v1]).migrate(db) }
        #expect(readBytes(path) == before)
    }
}

@Suite("SQLiteDB: locking")
struct LockingTests {
    @Test func aWriterWaitsOutTheBusyTimeoutThenFailsWithBusyAndWritesNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.file("locked.db")
        let holder = try Connection(path: path)
        try holder.execute("PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER)")
        let waiter = try Connection(path: path, busyTimeoutMilliseconds: 200)
        try holder.execute("BEGIN IMMEDIATE")
        let started = ContinuousClock.now
        do {
            try waiter.write { try waiter.run("INSERT INTO t VALUES (1)") }
            Issue.record("expected busy")
        } catch let error as SQLiteError {
            #expect(error.code == .busy)
        }
        #expect(ContinuousClock.now - started >= .milliseconds(150), "it waited for the timeout first")
        try holder.execute("ROLLBACK")
        #expect(try waiter.scalar("SELECT count(*) FROM t") == 0)
        try waiter.write { try waiter.run("INSERT INTO t VALUES (2)") }
        #expect(try holder.scalar("SELECT count(*) FROM t") == 1, "the next write works")
    }
}

@Suite("SQLiteDB: error texts")
struct ErrorTextTests {
    @Test func aNewerSchemaSaysWhatHappenedAndWhatToDo() {
        let text = NewerSchemaError(found: 9, supported: 1).description
        #expect(text.contains("schema 9") && text.contains("up to 1") && text.contains("untouched") && text.contains("newer program"))
    }
}
