import Glibc

extension Sys {
    /// The CPU time another process of this user has used (user + system, all its
    /// threads), in seconds: `clock_getcpuclockid(3)` and `clock_gettime(2)` on that
    /// clock, with no file to open or parse.
    public static func cpuSeconds(ofProcess pid: pid_t) throws(SystemError) -> Double {
        var clock = clockid_t()
        let found = clock_getcpuclockid(pid, &clock)
        guard found == 0 else {
            throw SystemError(Errno(rawValue: found), call: "clock_getcpuclockid", path: nil)
        }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else {
            throw SystemError(Errno(rawValue: errno), call: "clock_gettime", path: nil)
        }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
