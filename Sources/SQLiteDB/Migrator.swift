/// A named, ordered change to the schema.
public struct Migration: Sendable {
    /// A stable name, recorded in the file when the migration has run.
    public let name: String
    /// The change; runs inside the migration's own transaction.
    public let migrate: @Sendable (Connection) throws -> Void

    /// A migration called `name`.
    public init(_ name: String, migrate: @escaping @Sendable (Connection) throws -> Void) {
        self.name = name
        self.migrate = migrate
    }
}

/// The schema is newer than this program knows: it refuses the file and writes nothing.
public struct NewerSchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The schema version in the file.
    public let found: Int
    /// The newest version this program knows.
    public let supported: Int

    public var description: String {
        "the database file is from a newer version (schema \(found); this program knows up to \(supported)); it was left untouched — use a newer program"
    }

    /// The error for a file at version `found` when this program knows up to `supported`.
    public init(found: Int, supported: Int) {
        self.found = found
        self.supported = supported
    }
}

/// Brings a file's schema up to date: each pending migration in its own transaction, its
/// name recorded in `schema_migrations` and the count in `PRAGMA user_version`.
public struct Migrator: Sendable {
    /// Every migration, oldest first.
    public let migrations: [Migration]

    /// A migrator for `migrations`, oldest first.
    public init(_ migrations: [Migration]) { self.migrations = migrations }

    /// The schema version of `db` (0 for a new file). Reads the header only.
    public static func version(of db: Connection) throws -> Int {
        Int(try db.scalar("PRAGMA user_version") ?? 0)
    }

    /// Throws `NewerSchemaError` when `db` is newer than these migrations know.
    public func checkNotNewer(_ db: Connection) throws {
        let version = try Migrator.version(of: db)
        if version > migrations.count { throw NewerSchemaError(found: version, supported: migrations.count) }
    }

    /// Runs the pending migrations; returns the names of those it ran.
    @discardableResult
    public func migrate(_ db: Connection) throws -> [String] {
        var ran: [String] = []
        let version = try Migrator.version(of: db)
        if version > migrations.count { throw NewerSchemaError(found: version, supported: migrations.count) }
        // Up to date: take no write lock, so that a read-only file can still be read.
        if version == migrations.count { return ran }
        // Every pending migration in one transaction: a file is at its old version or the
        // newest, never between (a failure or a power cut halfway leaves it as it was).
        // The version is read inside the write lock: another process may have migrated first.
        try db.write {
            var version = try Migrator.version(of: db)
            if version > migrations.count { throw NewerSchemaError(found: version, supported: migrations.count) }
            while version < migrations.count {
                let migration = migrations[version]
                if version == 0 {
                    try db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)")
                }
                try migration.migrate(db)
                try db.run("INSERT INTO schema_migrations (name, applied_at) VALUES (?, unixepoch())", migration.name)
                try db.execute("PRAGMA user_version = \(version + 1)")
                ran.append(migration.name)
                version += 1
            }
        }
        return ran
    }
}
