import CSQLite
import PhotoFilerSystem

/// One prepared statement, prepared once and reused through the connection's cache.
///
/// A class so the handle is finalized exactly once, in `deinit`. Callers go
/// through `SQLiteConnection.withStatement`, which resets it after use: a
/// statement left mid-step would hold a read snapshot open and stop WAL
/// checkpoints.
package final class Statement {
    package let sql: String
    private let handle: OpaquePointer
    private let db: OpaquePointer
    private let path: BytePath
    /// Set while a caller holds it, so a nested use of the same SQL gets its own copy.
    package var inUse = false

    package init(sql: String, db: OpaquePointer, path: BytePath) throws(CatalogError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteResult.error(code: code, db: db, path: path, sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.db = db
        self.path = path
    }

    deinit { sqlite3_finalize(handle) }

    package func reset() {
        // The code returned repeats the last step's error, already reported there.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    package func bind(_ values: [SQLiteValue]) throws(CatalogError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: SQLiteValue, at index: Int32) throws(CatalogError) {
        let code: Int32
        switch value {
        case .integer(let number):
            code = sqlite3_bind_int64(handle, index, number)
        case .real(let number):
            code = sqlite3_bind_double(handle, index, number)
        case .text(let text):
            var text = text
            code = text.withUTF8 { buffer in
                // An empty buffer may have no base address, which SQLite reads as NULL.
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_text(handle, index, "", 0, SQLiteResult.transient)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(buffer.count), SQLiteResult.transient)
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                // Same as text: an empty blob must stay a blob, not become NULL.
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return sqlite3_bind_blob(handle, index, base, Int32(buffer.count), SQLiteResult.transient)
            }
        case .null:
            code = sqlite3_bind_null(handle, index)
        }
        guard code == SQLITE_OK else { throw SQLiteResult.error(code: code, db: db, path: path, sql: sql) }
    }

    /// Advances; true while there is a row to read.
    package func step() throws(CatalogError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteResult.error(code: code, db: db, path: path, sql: sql)
        }
    }

    // MARK: Columns (0-based, in the order of the SELECT list)

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    package func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    package func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    package func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    package func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    package func blob(_ column: Int32) -> [UInt8] {
        // Ask for the pointer before the size, as SQLite's docs require.
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    package func path(_ column: Int32) -> BytePath { BytePath(bytes: blob(column)) }

    package func optionalPath(_ column: Int32) -> BytePath? { isNull(column) ? nil : path(column) }
}
