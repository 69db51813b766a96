import CSQLite
import Glibc
import PhotoFilerSystem

/// One sqlite3 handle, opened in multi-thread mode (`SQLITE_OPEN_NOMUTEX`).
///
/// Not Sendable: SQLite's per-connection mutex is off, so the owner must use
/// it from one serial queue at a time. Statements are cached by SQL text
/// because the catalog runs a small fixed set of them many times (filing
/// 100k assets re-prepares nothing).
package final class SQLiteConnection {
    package let path: BytePath
    private let db: OpaquePointer
    private var cache: [StatementKey: Statement] = [:]

    package init(path: BytePath) throws(CatalogError) {
        _ = Self.processSettings
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = path.withCString { sqlite3_open_v2($0, &handle, flags, nil) }
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteResult.error(code: code, db: handle, path: path, sql: "open")
            // A failed open still allocates a handle (to carry the message): free it.
            sqlite3_close_v2(handle)
            throw error
        }
        self.path = path
        self.db = handle
        sqlite3_extended_result_codes(handle, 1)
        CaseFolding.register(on: handle)
    }

    /// SQLite's process-wide settings, made once before it initialises (the first
    /// open). Each is only a speed-up: in a process where SQLite started before the
    /// first catalog (the benchmark's C floor), `sqlite3_config` answers
    /// SQLITE_MISUSE and the default stays.
    ///
    /// - Statement journals held in memory up to 1 MiB (SQLite's default: 64 KiB).
    ///   Each insert of an asset or a membership fires triggers, so it has a
    ///   statement journal, which copies every page it changes that the transaction
    ///   had changed before: one file of a filing group touches about 17 pages (the
    ///   row, its indexes, `asset_changes`). Beyond 64 KiB the journal went to a
    ///   temporary file: 7.7 page writes a file in a burst (`strace -f`: 15,444 4 KiB
    ///   writes to it for 2,000 files, besides the WAL's), and a 5,000-row benchmark
    ///   over the catalog's schema spent 1.1 s instead of 0.3 s. Memory stays
    ///   bounded: a statement that changes more spills as before.
    /// - No count of SQLite's memory: it is kept under a global mutex that every
    ///   allocation and free takes (the daemon took 169 mutex locks a file in a
    ///   10,000-file burst, 17 without), and nothing reads it (no soft heap limit;
    ///   `sqlite3_memory_used` only in `countsMemory`).
    private static let processSettings: Void = {
        _ = photofiler_sqlite_statement_journal_spill(1 << 20)
        _ = photofiler_sqlite_stop_counting_memory()
    }()

    /// Whether SQLite counts the memory it allocates (false once `processSettings`
    /// took effect: `sqlite3_memory_used` then stays 0).
    package static var countsMemory: Bool { sqlite3_memory_used() > 0 }

    deinit {
        cache.removeAll()  // finalizes every statement before the handle goes
        sqlite3_close_v2(db)
    }

    /// Sets how long a statement waits for another process's lock (the CLI and
    /// the daemon share the file) before failing with SQLITE_BUSY.
    package func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(db, milliseconds)
    }

    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(db) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes64(db)) }

    /// False while a transaction is open on this connection.
    package var isAutocommit: Bool { sqlite3_get_autocommit(db) != 0 }

    /// Runs `body` with the cached statement for `sql`, bound to `values`, and
    /// resets it afterwards whatever happens.
    package func withStatement<R>(
        _ sql: String, _ values: [SQLiteValue], _ body: (Statement) throws(CatalogError) -> R
    ) throws(CatalogError) -> R {
        let statement: Statement
        let key = StatementKey(sql: sql)
        if let cached = cache[key] {
            // In use: a nested use of the same SQL gets a private copy.
            statement = cached.inUse ? try Statement(sql: sql, db: db, path: path) : cached
        } else {
            statement = try Statement(sql: sql, db: db, path: path)
            cache[key] = statement
        }
        statement.inUse = true
        defer {
            statement.reset()
            statement.inUse = false
        }
        try statement.bind(values)
        return try body(statement)
    }

    /// Runs one statement to completion, ignoring any rows (PRAGMAs answer some).
    package func execute(_ sql: String, _ values: [SQLiteValue] = []) throws(CatalogError) {
        try withStatement(sql, values) { statement throws(CatalogError) in
            while try statement.step() {}
        }
    }

    /// Runs a statement and decodes every row.
    package func query<T>(
        _ sql: String, _ values: [SQLiteValue] = [], row: (Statement) throws(CatalogError) -> T
    ) throws(CatalogError) -> [T] {
        try withStatement(sql, values) { statement throws(CatalogError) in
            var rows: [T] = []
            while try statement.step() { rows.append(try row(statement)) }
            return rows
        }
    }

    /// Runs a statement and decodes its first row, if any.
    package func queryFirst<T>(
        _ sql: String, _ values: [SQLiteValue] = [], row: (Statement) throws(CatalogError) -> T
    ) throws(CatalogError) -> T? {
        try withStatement(sql, values) { statement throws(CatalogError) in
            try statement.step() ? try row(statement) : nil
        }
    }

    /// Runs a script of several statements once each, uncached (migrations).
    package func executeScript(_ script: String) throws(CatalogError) {
        var utf8 = Array(script.utf8CString)
        let count = utf8.count
        try utf8.withUnsafeMutableBufferPointer { buffer throws(CatalogError) in
            guard var cursor = UnsafePointer(buffer.baseAddress) else { return }
            let end = cursor + count - 1
            while cursor < end {
                var handle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(db, cursor, Int32(end - cursor), &handle, &tail)
                guard code == SQLITE_OK else {
                    throw SQLiteResult.error(code: code, db: db, path: path, sql: String(cString: cursor))
                }
                defer { sqlite3_finalize(handle) }
                if let handle {  // nil for trailing whitespace or comments
                    var step = sqlite3_step(handle)
                    while step == SQLITE_ROW { step = sqlite3_step(handle) }
                    guard step == SQLITE_DONE else {
                        let sql = String(cString: sqlite3_sql(handle))
                        throw SQLiteResult.error(code: step, db: db, path: path, sql: sql)
                    }
                }
                guard let tail, tail > cursor else { break }
                cursor = tail
            }
        }
    }
}

/// The statement cache's key: the SQL's bytes, as SQLite reads them. Its hash is
/// the length and the first and last 32 bytes, not all of them as `String`'s:
/// the catalog's statements are long (a SELECT of every asset column is 600
/// bytes), are looked up several times for each file filed, and differ in their
/// ends (the condition, the values). Keys alike there only share a bucket.
private struct StatementKey: Hashable {
    let sql: String

    static func == (lhs: StatementKey, rhs: StatementKey) -> Bool {
        var lhs = lhs.sql
        var rhs = rhs.sql
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                left.count == right.count
                    && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var sql = sql
        sql.withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(32))))
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(32))))
        }
    }
}
