import Glibc
import PhotoFilerSystem

/// Why the daemon may not watch this library.
public enum DaemonLockError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another process holds the lock; `pid` is what it wrote (nil if unreadable).
    case alreadyRunning(pid: Int32?, library: BytePath)
    /// The lock file could not be made or locked.
    case system(SystemError, library: BytePath)

    public var description: String {
        switch self {
        case .alreadyRunning(let pid?, let library):
            return "Another photofiler daemon (pid \(pid)) is already watching the library "
                + "'\(library.display)'; stop it first (kill \(pid), or systemctl --user stop photofiler)."
        case .alreadyRunning(nil, let library):
            return "Another photofiler daemon is already watching the library '\(library.display)'; "
                + "stop it first (systemctl --user stop photofiler, or kill the process that holds "
                + "'\(DaemonLock.lockPath(library: library).display)')."
        case .system(let error, let library):
            return "Cannot lock the library '\(library.display)' (\(error)); "
                + "check that the folder is writable by you."
        }
    }
}

/// One daemon per library: an exclusive `flock` on `.photofiler/daemon.lock`.
///
/// `flock` rather than a pid file alone because the kernel drops the lock when
/// the process dies however it dies, so a crash never leaves a stale lock; the
/// pid written in the file is only for the message to the second daemon. Keep
/// the value alive for the life of the process (releasing it closes the file).
public final class DaemonLock: Sendable {
    public let library: BytePath
    public let path: BytePath
    private let descriptor: FileDescriptor

    /// `<library>/.photofiler/daemon.lock`.
    public static func lockPath(library: BytePath) -> BytePath {
        library.appending(".photofiler").appending("daemon.lock")
    }

    /// Takes the lock, creating the library's private folder when missing, and
    /// writes `pid` in the file; throws `.alreadyRunning` with the holder's pid.
    public init(library: BytePath, pid: Int32 = getpid()) throws(DaemonLockError) {
        let path = Self.lockPath(library: library)
        let fd: FileDescriptor
        do {
            try Sys.makeDirectories(path.parent)
            fd = try Sys.openOrCreate(path, mode: 0o644)
        } catch {
            throw .system(error, library: library)
        }
        let claimed: Bool
        do {
            claimed = try Self.claim(fd, pid: pid, path: path)
        } catch {
            fd.close()
            throw .system(error, library: library)
        }
        guard claimed else {
            let holder = Self.holderPid(fd)
            fd.close()
            throw .alreadyRunning(pid: holder, library: library)
        }
        self.library = library
        self.path = path
        self.descriptor = fd
    }

    /// Locks and writes our pid; false when another open file holds the lock.
    private static func claim(_ fd: FileDescriptor, pid: Int32, path: BytePath) throws(SystemError) -> Bool {
        // A few tries: `photofiler status` holds a shared lock for a moment when it asks.
        var locked = try fd.tryLockExclusive()
        for _ in 0..<5 where !locked {
            usleep(10_000)
            locked = try fd.tryLockExclusive()
        }
        guard locked else { return false }
        try Sys.check("ftruncate", path) { ftruncate(fd.rawValue, 0) }
        let text = Array("\(pid)\n".utf8)
        do {
            _ = try Sys.checkCount("pwrite", path) {
                text.withUnsafeBytes { pwrite(fd.rawValue, $0.baseAddress, $0.count, 0) }
            }
        } catch  where error.errno.isOutOfSpace {
            // The lock is the flock; the pid is only for a second daemon's message. A
            // full disk must not keep the daemon from starting (it retries filing).
        }
        return true
    }

    /// The pid in the lock file. The holder writes it right after locking, so
    /// a short wait covers a daemon that is starting at this very moment.
    private static func holderPid(_ fd: FileDescriptor) -> Int32? {
        for attempt in 0..<5 {
            if attempt > 0 { usleep(20_000) }
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = buffer.withUnsafeMutableBytes { raw in
                (try? fd.read(into: raw, at: 0)) ?? 0
            }
            let digits = buffer[..<count].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            if let pid = Int32(String(decoding: digits, as: UTF8.self)), pid > 0 { return pid }
        }
        return nil
    }

    deinit {
        descriptor.close()
    }
}
