import CSQLite

/// `photofiler_casefold(text)`: the text in lower case by Unicode's rules, for the
/// gallery's search by name. SQLite's own `lower()` folds ASCII only, so `ÉTÉ`
/// missed `été` while the page, which lowercases in JavaScript, matched it live.
enum CaseFolding {
    static let functionName = "photofiler_casefold"

    /// Registers the function on `db` (deterministic: the same text, the same fold).
    static func register(on db: OpaquePointer) {
        sqlite3_create_function_v2(
            db, functionName, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let argument = arguments?[0], let text = sqlite3_value_text(argument) else {
                    sqlite3_result_null(context)
                    return
                }
                let count = Int(sqlite3_value_bytes(argument))
                // A name that is not UTF-8 (names are bytes) folds with U+FFFD in place of its bad bytes.
                let folded = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
                    .lowercased()
                folded.withCString {
                    sqlite3_result_text(context, $0, Int32(folded.utf8.count), SQLiteResult.transient)
                }
            }, nil, nil, nil)
    }
}
