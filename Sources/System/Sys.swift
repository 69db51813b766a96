import CSystemShims
import Glibc

/// The one syscall layer: every libc call the product makes on files goes
/// through here. Each wrapper retries EINTR, turns errno into a `SystemError`
/// naming the call and the path, and counts mutating calls for fault injection.
public enum Sys {
    // MARK: Plumbing

    /// Runs a call that returns -1 and sets errno on failure, retrying EINTR.
    @inline(__always)
    package static func check(_ call: String, _ path: BytePath?, _ body: () -> CInt) throws(SystemError) {
        while true {
            if body() != -1 { return }
            let error = Errno.current
            if error != .interrupted { throw SystemError(error, call: call, path: path) }
        }
    }

    /// Like `check`, for calls that return a count (read, write).
    @inline(__always)
    package static func checkCount(_ call: String, _ path: BytePath?, _ body: () -> Int) throws(SystemError)
        -> Int
    {
        while true {
            let result = body()
            if result != -1 { return result }
            let error = Errno.current
            if error != .interrupted { throw SystemError(error, call: call, path: path) }
        }
    }

    // MARK: Opening

    /// Opens an existing file for reading without following a final symbolic
    /// link and without blocking on a FIFO; callers check the kind with `fstat`.
    ///
    /// A file of the user's own is read without touching its access time
    /// (`O_NOATIME`): photofiler's reads are not the user's, and under `relatime`
    /// the first read of every new file, and a read of every file a day (`check`),
    /// would each write its inode. The kernel refuses the flag for a file of
    /// another owner (EPERM), which is then opened without it.
    public static func openForReading(
        _ path: BytePath, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) -> FileDescriptor {
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        do {
            return try open(path, flags: flags | photofiler_open_no_access_time(), in: directory)
        } catch  where error.errno == .notPermitted {
            return try open(path, flags: flags, in: directory)
        }
    }

    /// Opens a folder (for `fsync`, `*at` calls and `readdir`).
    public static func openDirectory(
        _ path: BytePath, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) -> FileDescriptor {
        try open(path, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, in: directory)
    }

    /// Creates a new file that must not exist yet (`O_EXCL`), for writing.
    public static func createExclusive(
        _ path: BytePath, mode: mode_t = 0o644, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) -> FileDescriptor {
        try FaultInjection.mutating("open") { () throws(SystemError) -> FileDescriptor in
            try open(
                path, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode: mode, in: directory)
        }
    }

    /// Opens (creating when missing) a file for reading and writing, e.g. a lock file.
    public static func openOrCreate(
        _ path: BytePath, mode: mode_t = 0o644, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) -> FileDescriptor {
        try FaultInjection.mutating("open") { () throws(SystemError) -> FileDescriptor in
            try open(path, flags: O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode: mode, in: directory)
        }
    }

    public static func open(
        _ path: BytePath, flags: CInt, mode: mode_t = 0,
        in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) -> FileDescriptor {
        var fd: CInt = -1
        try FaultInjection.looking("open", path)
        try check("open", path) {
            fd = path.withCString { openat(directory.rawValue, $0, flags, mode) }
            return fd
        }
        return FileDescriptor(rawValue: fd)
    }

    // MARK: Status

    /// `fstatat`; with `followLinks: false` a symbolic link is described, not its target.
    public static func status(
        _ path: BytePath, followLinks: Bool = false, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) -> FileStatus {
        var raw = stat()
        try FaultInjection.looking("stat", path)
        try check("stat", path) {
            path.withCString { fstatat(directory.rawValue, $0, &raw, followLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
        }
        return FileStatus(raw)
    }

    /// `status`, or nil when nothing is there (ENOENT, ENOTDIR).
    public static func statusIfExists(
        _ path: BytePath, followLinks: Bool = false, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) -> FileStatus? {
        do {
            return try status(path, followLinks: followLinks, in: directory)
        } catch  where error.errno == .noSuchFile || error.errno == .notDirectory {
            return nil
        }
    }

    public static func readLink(
        _ path: BytePath, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) -> BytePath {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try checkCount("readlink", path) {
            path.withCString { name in
                buffer.withUnsafeMutableBufferPointer {
                    readlinkat(directory.rawValue, name, $0.baseAddress!, $0.count)
                }
            }
        }
        return BytePath(bytes: buffer[..<count])
    }

    /// `realpath`: `path` with every symbolic link, `.` and `..` resolved.
    public static func realPath(_ path: BytePath) throws(SystemError) -> BytePath {
        while true {
            if let resolved = path.withCString({ realpath($0, nil) }) {
                defer { free(resolved) }
                return BytePath(
                    bytes: Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map {
                        UInt8(bitPattern: $0)
                    })
            }
            let error = Errno.current
            if error != .interrupted { throw SystemError(error, call: "realpath", path: path) }
        }
    }

    /// `faccessat`: whether this process may read/write/enter the path (`R_OK`, `W_OK`, `X_OK`).
    public static func isAccessible(_ path: BytePath, mode: CInt) -> Bool {
        (try? checkAccess(path, mode: mode)) != nil
    }

    /// `faccessat` that says why not: EACCES, EPERM or EROFS when this process may not,
    /// ENOENT when the path is not there.
    public static func checkAccess(_ path: BytePath, mode: CInt) throws(SystemError) {
        try check("faccessat", path) { path.withCString { faccessat(AT_FDCWD, $0, mode, AT_EACCESS) } }
    }

    /// The soft limit on open descriptors (`ulimit -n`), or nil when it cannot be read.
    public static func openFileLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    // MARK: Mutating calls

    /// `linkat` without following links: fails with EEXIST rather than replace.
    public static func link(
        _ source: BytePath, to destination: BytePath,
        sourceDirectory: FileDescriptor = .currentWorkingDirectory,
        destinationDirectory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) {
        try FaultInjection.mutating("linkat") { () throws(SystemError) in
            try check("link", destination) {
                source.withCString { from in
                    destination.withCString { to in
                        linkat(sourceDirectory.rawValue, from, destinationDirectory.rawValue, to, 0)
                    }
                }
            }
        }
    }

    /// `symlinkat`: fails with EEXIST rather than replace.
    public static func symbolicLink(
        target: BytePath, at path: BytePath, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) {
        try FaultInjection.mutating("symlinkat") { () throws(SystemError) in
            try check("symlink", path) {
                target.withCString { to in path.withCString { symlinkat(to, directory.rawValue, $0) } }
            }
        }
    }

    /// `renameat`: replaces the destination. Use only into private folders.
    public static func rename(
        _ source: BytePath, to destination: BytePath,
        sourceDirectory: FileDescriptor = .currentWorkingDirectory,
        destinationDirectory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) {
        try FaultInjection.mutating("renameat") { () throws(SystemError) in
            try check("rename", destination) {
                source.withCString { from in
                    destination.withCString { to in
                        renameat(sourceDirectory.rawValue, from, destinationDirectory.rawValue, to)
                    }
                }
            }
        }
    }

    public static func unlink(
        _ path: BytePath, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) {
        try FaultInjection.mutating("unlinkat") { () throws(SystemError) in
            try check("unlink", path) { path.withCString { unlinkat(directory.rawValue, $0, 0) } }
        }
    }

    /// `unlink`, where a name that is already gone counts as done.
    public static func unlinkIfPresent(
        _ path: BytePath, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) {
        do {
            try unlink(path, in: directory)
        } catch  where error.errno == .noSuchFile {
        }
    }

    public static func removeDirectory(
        _ path: BytePath, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) {
        try FaultInjection.mutating("rmdir") { () throws(SystemError) in
            try check("rmdir", path) { path.withCString { unlinkat(directory.rawValue, $0, AT_REMOVEDIR) } }
        }
    }

    public static func makeDirectory(
        _ path: BytePath, mode: mode_t = 0o755, in directory: FileDescriptor = .currentWorkingDirectory
    ) throws(SystemError) {
        try FaultInjection.mutating("mkdirat") { () throws(SystemError) in
            try check("mkdir", path) { path.withCString { mkdirat(directory.rawValue, $0, mode) } }
        }
    }

    /// `mkdir -p`: creates every missing folder of `path`; true when any was made.
    @discardableResult
    public static func makeDirectories(_ path: BytePath, mode: mode_t = 0o755) throws(SystemError) -> Bool {
        if let existing = try statusIfExists(path, followLinks: true) {
            if existing.isDirectory { return false }
            throw SystemError(.notDirectory, call: "mkdir", path: path)
        }
        let parent = path.parent
        if parent != path { try makeDirectories(parent, mode: mode) }
        do {
            try makeDirectory(path, mode: mode)
        } catch  where error.errno == .exists {
            return false
        }
        return true
    }

    /// Makes the folder's entries durable (after a link, rename or unlink in it).
    public static func syncDirectory(_ path: BytePath) throws(SystemError) {
        let fd = try openDirectory(path)
        defer { fd.close() }
        try fd.sync()
    }

    // MARK: Listing

    /// One entry of a folder: its name as bytes and the kind `readdir` reported.
    public struct DirectoryEntry: Hashable, Sendable {
        public var name: BytePath
        /// From `d_type`; `.unknown` on file systems that do not fill it in.
        public var kind: FileKind
        /// From `d_ino`: the entry's inode number as the folder lists it (the same as
        /// `st_ino` on ext4, XFS and btrfs; a caller that needs certainty still stats).
        public var inode: UInt64
    }

    /// The entries of a folder, `.` and `..` left out, names kept as bytes.
    public static func listDirectory(_ path: BytePath) throws(SystemError) -> [DirectoryEntry] {
        let fd = try openDirectory(path)
        guard let stream = fdopendir(fd.rawValue) else {
            let error = Errno.current
            fd.close()
            throw SystemError(error, call: "fdopendir", path: path)
        }
        defer { closedir(stream) }
        var entries: [DirectoryEntry] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                let error = Errno.current
                if error.rawValue != 0 { throw SystemError(error, call: "readdir", path: path) }
                return entries
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { BytePath(cString: $0) }
            }
            if name.bytes == [UInt8(ascii: ".")] || name.bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                continue
            }
            entries.append(
                DirectoryEntry(
                    name: name, kind: FileKind(direntType: entry.pointee.d_type),
                    inode: UInt64(entry.pointee.d_ino)))
        }
    }
}
