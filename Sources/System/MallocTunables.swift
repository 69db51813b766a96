import CSystemShims
import Glibc

/// glibc's cache of freed chunks for each thread keeps 7 of a size by default. The
/// daemon and its helpers each allocate hundreds of times a file (the helpers mostly
/// exiv2's small objects), and what the cache cannot keep goes through malloc's bins
/// and their consolidation. glibc reads this size from `GLIBC_TUNABLES` as a process
/// starts, and only then: the helpers are started with it in their environment
/// (`HelperProcess`), the daemon starts itself again with it (`watch`). Issue 15,
/// paired 10,000-file bursts: the helpers' CPU 10% lower with it; the daemon's 3.6%
/// lower and the burst 6.5% faster once the daemon had it too.
public enum MallocTunables {
    /// The tunable photofiler sets.
    public static let setting = "glibc.malloc.tcache_count=256"

    /// `GLIBC_TUNABLES` with photofiler's setting first, then `inherited` (so a
    /// user's setting of the same tunable, read later, wins).
    public static func value(before inherited: String?) -> String {
        inherited.map { "\(setting):\($0)" } ?? setting
    }

    /// Whether `watch` should start itself again to have photofiler's setting: not when
    /// this process started with a cache size set (photofiler's, or a user's, which wins),
    /// and not in secure-execution mode (a set-user-ID or file-capability binary), where
    /// glibc ignores or erases `GLIBC_TUNABLES`: each start would then ask again, forever.
    public static var shouldStartAgain: Bool {
        shouldStartAgain(tunables: inherited, secureExecution: photofiler_secure_execution() != 0)
    }

    /// `shouldStartAgain` for a process started with `tunables` (`GLIBC_TUNABLES`).
    package static func shouldStartAgain(tunables: String?, secureExecution: Bool) -> Bool {
        !secureExecution && !(tunables?.contains("glibc.malloc.tcache_count=") ?? false)
    }

    /// This process's `GLIBC_TUNABLES`, if set.
    public static var inherited: String? { getenv("GLIBC_TUNABLES").map { String(cString: $0) } }
}
