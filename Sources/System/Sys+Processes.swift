import Glibc

extension Sys {
    /// Whether a process `pid` exists (`kill(pid, 0)`, which sends nothing): EPERM
    /// says it does, as another user's. For a temporary file's maker, named in its name.
    public static func processExists(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Sends `signal` to `pid`.
    public static func sendSignal(_ signal: CInt, to pid: pid_t) throws(SystemError) {
        guard kill(pid, signal) == 0 else {
            throw SystemError(Errno(rawValue: errno), call: "kill", path: nil)
        }
    }
}
