import CSQLite
import PhotoFilerSystem

/// The one place where SQLite result codes become `CatalogError`s, so every
/// caller sees the same cases (a damaged file is `.corrupt` wherever SQLite
/// first notices it, which is usually the first read, not the open).
package enum SQLiteResult {
    /// Maps a failing (extended) result code; `db` supplies the message when there is one.
    package static func error(code: Int32, db: OpaquePointer?, path: BytePath, sql: String) -> CatalogError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        switch code & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return .corrupt(path: path, reason: message)
        case SQLITE_CANTOPEN:
            return .cannotOpen(path: path, reason: message)
        default:
            return .sqlite(code: code, message: message, sql: sql)
        }
    }

    /// `SQLITE_TRANSIENT` is a C macro Swift cannot import: it tells SQLite to copy
    /// the bound bytes, which our buffers (alive only during the call) need.
    package static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension CatalogError {
    /// True for a UNIQUE or PRIMARY KEY conflict, so a caller racing another
    /// process (the CLI and the daemon) can look the winner up instead of failing.
    public var isUniqueConstraintViolation: Bool {
        guard case .sqlite(let code, _, _) = self else { return false }
        return code == Self.constraintUnique || code == Self.constraintPrimaryKey
    }

    /// True when the disk under the catalog is full (SQLITE_FULL, any extended code).
    public var isDiskFull: Bool {
        guard case .sqlite(let code, _, _) = self else { return false }
        return code & 0xFF == SQLITE_FULL
    }

    // Extended result codes are C macro expressions that Swift does not import.
    private static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
    private static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
}
