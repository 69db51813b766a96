import CSystemShims
import Glibc

/// An open file descriptor. Not closed automatically: the owner calls `close()`
/// (usually in a `defer`), as with swift-system's type of the same name.
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: CInt
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// `AT_FDCWD`: paths relative to it resolve against the working directory.
    public static let currentWorkingDirectory = FileDescriptor(rawValue: AT_FDCWD)

    public func close() {
        // close(2) must not be retried on EINTR on Linux: the fd is gone either way.
        _ = Glibc.close(rawValue)
    }

    public func status() throws(SystemError) -> FileStatus {
        var raw = stat()
        try Sys.check("fstat", nil) { fstat(rawValue, &raw) }
        return FileStatus(raw)
    }

    /// The id of the mount the file is on (`statx`'s `stx_mnt_id`), which a bind mount
    /// has of its own: hard links cannot cross mounts, even within one file system.
    public func mountID() throws(SystemError) -> UInt64 {
        var mount: UInt64 = 0
        try Sys.check("statx", nil) { photofiler_mount_id(rawValue, &mount) }
        return mount
    }

    /// Reads up to `buffer.count` bytes; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try Sys.checkCount("read", nil) { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `buffer.count` bytes at `offset`, without moving the file position.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) -> Int
    {
        try Sys.checkCount("pread", nil) { pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Writes the whole buffer, looping over short writes.
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        var done = 0
        while done < buffer.count {
            let written = try FaultInjection.mutating("write") { () throws(SystemError) -> Int in
                try Sys.checkCount("write", nil) {
                    Glibc.write(rawValue, buffer.baseAddress! + done, buffer.count - done)
                }
            }
            done += written
        }
    }

    /// Whether a read would find something now (`poll` for `POLLIN`, not waiting).
    /// A descriptor that cannot be polled answers true: "could not look" is not "nothing".
    public var hasInput: Bool {
        var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        do {
            let ready = try Sys.checkCount("poll", nil) { Int(poll(&entry, 1, 0)) }
            return ready > 0
        } catch {
            return true
        }
    }

    /// Blocks until `poll` reports `POLLPRI` (or an error condition) on the descriptor:
    /// how `/proc/self/mountinfo` tells that the mount table changed. Retries EINTR.
    public func waitForPriorityEvent() throws(SystemError) {
        var entry = pollfd(fd: rawValue, events: Int16(POLLPRI), revents: 0)
        _ = try Sys.checkCount("poll", nil) { Int(poll(&entry, 1, -1)) }
    }

    /// `ftruncate`: the file cut (or grown with a hole) to `size` bytes.
    public func truncate(to size: Int64) throws(SystemError) {
        try FaultInjection.mutating("ftruncate") { () throws(SystemError) in
            try Sys.check("ftruncate", nil) { ftruncate(rawValue, off_t(size)) }
        }
    }

    public func sync() throws(SystemError) {
        try FaultInjection.mutating("fsync") { () throws(SystemError) in
            try Sys.check("fsync", nil) { fsync(rawValue) }
        }
    }

    /// Makes the file's bytes and size durable (`fdatasync`), not its times.
    ///
    /// What must be on disk before a file is linked into the Roll is what it
    /// holds; its new names are made durable by their folders' `fsync`. A file
    /// renamed into an inbox has a new ctime, and an `fsync` would commit the
    /// journal for it even when its bytes were on disk already. Skipping that
    /// commit took about 0.2 ms off a single drop's durable latency (the disk's
    /// cache flush stays).
    public func syncData() throws(SystemError) {
        try FaultInjection.mutating("fdatasync") { () throws(SystemError) in
            try Sys.check("fdatasync", nil) { fdatasync(rawValue) }
        }
    }

    /// Sets FD_CLOEXEC, for descriptors a C library opened without it.
    public func setCloseOnExec() throws(SystemError) {
        let flags = try Sys.checkCount("fcntl", nil) { Int(fcntl(rawValue, F_GETFD)) }
        try Sys.check("fcntl", nil) { fcntl(rawValue, F_SETFD, CInt(flags) | FD_CLOEXEC) }
    }

    /// Takes an exclusive `flock` without waiting; false when another process holds it.
    public func tryLockExclusive() throws(SystemError) -> Bool {
        while true {
            if flock(rawValue, LOCK_EX | LOCK_NB) == 0 { return true }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .wouldBlock { return false }
            throw SystemError(error, call: "flock", path: nil)
        }
    }
}
