import CSQLite
import Glibc

/// Waits out a catalog that another process holds, where SQLite's own busy
/// handler does not: SQLite returns SQLITE_BUSY at once, without waiting, when
/// waiting could deadlock (two connections of a brand-new, not yet WAL file both
/// upgrading their locks while one switches the journal mode). Both sides then
/// simply start the step again; the one that got its lock goes on.
enum BusyWait {
    /// How long in all before the busy error is the answer (as long as the busy timeout).
    static let limitMilliseconds = 5000

    static func retrying<R>(_ body: () throws(CatalogError) -> R) throws(CatalogError) -> R {
        var waited = 0
        var pause = 2
        while true {
            do {
                return try body()
            } catch  where error.isBusy && waited < limitMilliseconds {
                // A pause that grows, so that two waiters do not retry in step.
                usleep(useconds_t(pause * 1000))
                waited += pause
                pause = min(pause * 2, 100)
            }
        }
    }
}

extension CatalogError {
    /// SQLITE_BUSY or SQLITE_LOCKED, in any of their extended forms: another
    /// connection holds a lock this one needs.
    var isBusy: Bool {
        guard case .sqlite(let code, _, _) = self else { return false }
        return code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED
    }
}
