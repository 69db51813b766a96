import Glibc

extension Sys {
    /// `sysconf(_SC_NPROCESSORS_ONLN)`: the processors online, at least 1 (for sizing
    /// pools of worker threads).
    public static func processorsOnline() -> Int {
        max(1, Int(sysconf(CInt(_SC_NPROCESSORS_ONLN))))
    }
}
