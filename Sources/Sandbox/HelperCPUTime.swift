import Glibc
import PhotoFilerSystem

/// A helper's CPU time so far (user + system, all its threads): what its deadline is
/// counted in, so that a helper starved by a busy machine is not taken for one that
/// loops on hostile bytes. Read once per answer, so through the process's CPU clock
/// (one `clock_gettime`), not `/proc/PID/stat`.
enum HelperCPUTime {
    /// Seconds of CPU `pid` has used; nil when it cannot be read (the helper is gone).
    static func seconds(of pid: pid_t) -> Double? {
        do {
            return try Sys.cpuSeconds(ofProcess: pid)
        } catch {
            return nil
        }
    }
}
