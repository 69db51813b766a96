import Glibc

extension Sys {
    /// `execv(2)` of this process's own executable (`/proc/self/exe`) with the
    /// arguments it was started with: the same process (pid, descriptors, parent)
    /// starts again, for what the C library reads only as a process starts
    /// (`MallocTunables`). Returns only by throwing, when the exec failed.
    public static func startAgain() throws(SystemError) -> Never {
        _ = execv("/proc/self/exe", CommandLine.unsafeArgv)
        throw SystemError(Errno.current, call: "execv", path: "/proc/self/exe")
    }
}
