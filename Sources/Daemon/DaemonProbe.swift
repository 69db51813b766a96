import Glibc
import PhotoFilerSystem

/// Whether a daemon watches a library right now, asked without disturbing it: a
/// shared `flock` on its lock file is refused exactly while a daemon holds it.
public enum DaemonProbe: Equatable, Sendable {
    case notRunning
    /// The pid the daemon wrote in its lock file (nil when unreadable).
    case running(pid: Int32?)

    /// Throws when the lock file is there but cannot be opened or locked (its
    /// permissions, an I/O error): that is "could not look", never "not running".
    public static func probe(library: BytePath) throws(SystemError) -> DaemonProbe {
        let path = DaemonLock.lockPath(library: library)
        let fd: FileDescriptor
        do {
            fd = try Sys.open(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        } catch  where error.errno == .noSuchFile {
            return .notRunning  // no daemon ever ran here
        }
        defer { fd.close() }
        if try fd.tryLockShared() {
            // Given back at once; a daemon starting at this moment retries its lock.
            fd.unlock()
            return .notRunning
        }
        // The pid is a detail of the answer: unreadable, it is shown as unknown.
        let text = String(decoding: (try? fd.readToEnd(limit: 32)) ?? [], as: UTF8.self)
        return .running(pid: Int32(text.prefix { $0.isNumber }))
    }
}
