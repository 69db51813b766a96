import Glibc
import PhotoFilerSystem

/// Whether a daemon watches a library right now, asked without disturbing it: a
/// shared `flock` on its lock file is refused exactly while a daemon holds it.
public enum DaemonProbe: Equatable, Sendable {
    case notRunning
    /// The pid the daemon wrote in its lock file (nil when unreadable).
    case running(pid: Int32?)

    public static func probe(library: BytePath) -> DaemonProbe {
        let path = DaemonLock.lockPath(library: library)
        guard let fd = try? Sys.open(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW) else {
            return .notRunning
        }
        defer { fd.close() }
        do {
            if try fd.tryLockShared() {
                // Given back at once; a daemon starting at this moment retries its lock.
                fd.unlock()
                return .notRunning
            }
        } catch {
            return .notRunning
        }
        let text = String(decoding: (try? fd.readToEnd(limit: 32)) ?? [], as: UTF8.self)
        return .running(pid: Int32(text.prefix { $0.isNumber }))
    }
}
