import PhotoFilerSystem

/// The SQLite index of the library (`.photofiler/catalog.sqlite`, WAL).
///
/// The files on disk are the truth; this is an index that can be rebuilt from
/// them.
///
/// Threading: deliberately not `Sendable`. The connection is opened with
/// `SQLITE_OPEN_NOMUTEX` and its statements are cached and reused, so the owner
/// must confine the instance to one serial queue; other processes (the CLI next
/// to the daemon) are kept apart by SQLite's file locks and `busy_timeout`.
///
/// Every write runs in a transaction whose COMMIT passes through
/// `FaultInjection`, so the crash tests can stop the process at each commit,
/// whether the caller wrapped it in `transaction` or not.
public final class Catalog {
    /// The schema this build writes; older ones are migrated on open, newer ones refused.
    public static let schemaVersion = 11

    package let connection: SQLiteConnection
    /// Open `transaction` calls; only the outermost one begins and commits.
    private var depth = 0
    /// Whether the outermost open transaction is a `write` (a `read` may not hold one).
    private var outerWrites = true

    /// Opens (creating when missing) the catalog and migrates it to `schemaVersion`.
    ///
    /// The folder holding `path` must exist: creating the library layout is the
    /// library's job, not the index's.
    public init(path: BytePath) throws(CatalogError) {
        connection = try SQLiteConnection(path: path)
        // Another process may hold the write lock for a moment (the CLI while the daemon files).
        connection.setBusyTimeout(milliseconds: 5000)
        // Several processes may open a new library at the same instant (a daemon, a
        // `list`): each step is idempotent, and a busy catalog is waited for.
        try BusyWait.retrying { () throws(CatalogError) in try prepare(path: path) }
    }

    /// Sets the journal and migrates: every step may be run again after SQLITE_BUSY.
    private func prepare(path: BytePath) throws(CatalogError) {
        // Read the version before anything writes: a newer file must be left as it is.
        // This is also where a file that is no database shows up (SQLITE_NOTADB).
        let found = try Schema.userVersion(connection)
        if found > Self.schemaVersion {
            throw .newerSchema(path: path, found: found, supported: Self.schemaVersion)
        }
        try connection.execute("PRAGMA journal_mode = WAL")
        // FULL, not NORMAL: the inbox copy is deleted once the commit returns, so
        // the commit must already be on disk.
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA foreign_keys = ON")
        try Schema.migrate(connection)
    }

    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` transaction (rolled back on a throw).
    ///
    /// IMMEDIATE takes the write lock up front, so a read-then-write body cannot
    /// fail half-way with SQLITE_BUSY when another process writes. A nested call
    /// just runs its body inside the outer transaction; the outer one decides.
    public func transaction<R>(_ body: () throws -> R) throws -> R {
        try runTransaction(body, wrap: { $0 })
    }

    /// `transaction` for the catalog's own writes, keeping the typed error.
    package func write<R>(_ body: () throws(CatalogError) -> R) throws(CatalogError) -> R {
        try runTransaction(body, wrap: { $0 })
    }

    /// Runs the look-ups of `body` in one read transaction (`BEGIN DEFERRED`): one
    /// snapshot and one set of locks for all of them, where each statement on its
    /// own takes and gives back both. `body` must not write: a write would have to
    /// upgrade the snapshot, which fails if another process wrote meanwhile. Inside
    /// a `write`, `body` just runs.
    package func read<R>(_ body: () throws(CatalogError) -> R) throws(CatalogError) -> R {
        try runTransaction(body, writes: false, wrap: { $0 })
    }

    private func runTransaction<R, E: Error>(
        _ body: () throws(E) -> R, writes: Bool = true, wrap: (CatalogError) -> E
    ) throws(E) -> R {
        if depth > 0 {
            precondition(!writes || outerWrites, "a catalog write inside a read transaction")
            depth += 1
            defer { depth -= 1 }
            return try body()
        }
        do {
            try connection.execute(writes ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        } catch {
            throw wrap(error)
        }
        depth = 1
        outerWrites = writes
        defer { depth = 0 }
        let result: R
        do {
            result = try body()
        } catch {
            rollback()
            throw error
        }
        do {
            if writes {
                try FaultInjection.mutating("sqlite-commit") { () throws(CatalogError) in
                    try connection.execute("COMMIT")
                }
            } else {
                try connection.execute("COMMIT")
            }
        } catch {
            rollback()
            throw wrap(error)
        }
        return result
    }

    /// Undoes the open transaction, if SQLite has not already ended it (it
    /// rolls back by itself after some errors, e.g. SQLITE_FULL).
    private func rollback() {
        guard !connection.isAutocommit else { return }
        try? connection.execute("ROLLBACK")
    }
}
