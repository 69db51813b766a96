import CSeccomp
import Glibc
import PhotoFilerMediaTypes
import PhotoFilerSandbox
import PhotoFilerSystem

/// Locks a helper down before it reads a byte of a stranger's file (photofiler(1) "Untrusted
/// bytes"): resource limits so a bomb ends, no new privileges, and the seccomp
/// filter (`SyscallFilter`) under which no path can be opened, no socket made, no
/// program run. What the libraries load lazily (plugins, the magic database, the
/// time zone) must be loaded before this: `HelperServer.warmUp`.
enum Lockdown {
    static func apply(socket: FileDescriptor) throws(LockdownError) {
        try closeEverythingBut(socket)
        try limit(RLIMIT_AS, HelperLimits.addressSpace, "RLIMIT_AS")
        // SIGXCPU at the soft limit, SIGKILL at the hard one.
        try limit(RLIMIT_CPU, HelperLimits.cpuSeconds, "RLIMIT_CPU", hard: HelperLimits.cpuSeconds + 5)
        // No core file of strangers' bytes; the only file written is a thumbnail's
        // output, which is bounded.
        try limit(RLIMIT_CORE, 0, "RLIMIT_CORE")
        try limit(RLIMIT_FSIZE, HelperLimits.thumbnailOutput, "RLIMIT_FSIZE")
        guard photofiler_set_no_new_privileges() == 0 else {
            throw LockdownError(step: "PR_SET_NO_NEW_PRIVS", code: errno)
        }
        try SyscallFilter.load(socket: socket.rawValue)
        // After the filter, so that this thread runs under it too.
        try DaemonWatch.start(socket: socket)
    }

    /// Every descriptor but stderr and the socket, stdin and stdout too: the helper
    /// holds nothing of the daemon's (a library may have opened one without
    /// close-on-exec), and reads and writes no terminal.
    private static func closeEverythingBut(_ socket: FileDescriptor) throws(LockdownError) {
        let entries: [Sys.DirectoryEntry]
        do {
            entries = try Sys.listDirectory("/proc/self/fd")
        } catch {
            throw LockdownError(step: "listing /proc/self/fd", code: error.errno.rawValue)
        }
        for entry in entries {
            guard let fd = CInt(entry.name.display), fd != 2, fd != socket.rawValue else { continue }
            FileDescriptor(rawValue: fd).close()
        }
    }

    private static func limit(
        _ resource: __rlimit_resource, _ soft: Int, _ name: String, hard: Int? = nil
    ) throws(LockdownError) {
        var value = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard ?? soft))
        guard setrlimit(__rlimit_resource_t(resource.rawValue), &value) == 0 else {
            throw LockdownError(step: "setrlimit \(name)", code: errno)
        }
    }
}
