import PhotoFilerSystem

/// A catalog failure, with the file and the fix.
public enum CatalogError: Error, Sendable, Equatable {
    /// The database file could not be opened or created.
    case cannotOpen(path: BytePath, reason: String)
    /// Written by a newer photofiler: refuse rather than damage it.
    case newerSchema(path: BytePath, found: Int, supported: Int)
    /// Not a database, or damaged.
    case corrupt(path: BytePath, reason: String)
    /// Any other SQLite error: its result code, message and the statement.
    case sqlite(code: Int32, message: String, sql: String)
}

extension CatalogError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return
                "The catalog '\(path.display)' cannot be opened (\(reason)); check that the library folder is writable."
        case .newerSchema(let path, let found, let supported):
            return
                "The catalog '\(path.display)' was written by a newer photofiler (schema \(found), this one knows \(supported)); upgrade photofiler."
        case .corrupt(let path, let reason):
            return
                "The catalog '\(path.display)' is damaged (\(reason)); run 'photofiler check --repair' to rebuild it from the library."
        case .sqlite(let code, let message, let sql):
            return "The catalog failed (SQLite \(code): \(message)) running \(sql); run 'photofiler check'."
        }
    }
}
