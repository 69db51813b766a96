import PhotoFilerSystem

/// Why a folder could not be watched, with the path and the system call's errno.
public enum WatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `inotify_add_watch` failed with ENOSPC: the per-user watch limit is used up.
    /// The watches already made stay in place.
    case watchLimitReached(path: BytePath)
    /// Adding a watch or listing a folder failed (`SystemError` names call and path).
    case cannotWatch(SystemError)
    /// libinotifytools could not be set up (inotify_init, finding or flagging its fd).
    case setupFailed(SystemError)
    /// libinotifytools was set up, but its fd could not be told apart among the
    /// process's `anon_inode:inotify` descriptors (`found` new ones instead of one).
    case descriptorNotFound(found: Int)
    /// libinotifytools' fd is 1024 or above: its `select()` cannot take it.
    case descriptorTooHigh(CInt)
    /// Another watcher owns libinotifytools' global state (one per process).
    case alreadyRunning
    /// The watcher was stopped; make a new one.
    case stopped

    public var description: String {
        switch self {
        case .watchLimitReached(let path):
            let limit = Self.currentWatchLimit.map { " (now \($0))" } ?? ""
            return "Cannot watch '\(path.display)': the inotify watch limit fs.inotify.max_user_watches"
                + "\(limit) is reached. Raise it with 'sudo sysctl fs.inotify.max_user_watches=524288' and keep"
                + " it across reboots with a file /etc/sysctl.d/90-photofiler.conf containing"
                + " 'fs.inotify.max_user_watches=524288'; folders watched so far stay watched."
        case .cannotWatch(let error):
            let folder = error.path.map { "'\($0.display)'" } ?? "a folder"
            switch error.errno {
            case .notDirectory:
                return
                    "Cannot watch \(folder): it is not a folder (it or a folder above it is a file); point the inbox at a folder."
            case .permissionDenied:
                return
                    "Cannot watch \(folder): permission denied; give this user read and search access to it."
            default:
                return "Cannot watch a folder: \(error)."
            }
        case .setupFailed(let error):
            return "Cannot set up inotify: \(error)."
        case .descriptorNotFound(let found):
            return "Cannot find libinotifytools' inotify descriptor in /proc/self/fd (\(found) new ones"
                + " appeared instead of one); start photofiler before other threads open inotify descriptors."
        case .descriptorTooHigh(let fd):
            return "libinotifytools got file descriptor \(fd), too high for its select(); call"
                + " InotifyWatcher.initializeEarly() first thing at start-up."
        case .alreadyRunning:
            return "Another file watcher is already running in this process (libinotifytools allows one)."
        case .stopped:
            return "The file watcher was stopped."
        }
    }

    /// The limit as the kernel reports it, for the message; nil when unreadable.
    package static var currentWatchLimit: Int? {
        guard let fd = try? Sys.openForReading("/proc/sys/fs/inotify/max_user_watches") else { return nil }
        defer { fd.close() }
        var buffer = [UInt8](repeating: 0, count: 32)
        guard let count = try? buffer.withUnsafeMutableBytes({ try fd.read(into: $0) }) else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        return Int(text.filter(\.isNumber))
    }
}
