import Glibc

extension Sys {
    /// Calls `body` with each entry of the open folder `directory` (`.` and `..`
    /// left out), one at a time: a folder of a million album entries is read
    /// without a million-element array. `body` returns false to stop early.
    ///
    /// `readdir` on a duplicate of the descriptor, so `directory` stays usable for
    /// `*at` calls on the entries and is still the caller's to close.
    public static func forEachEntry(
        in directory: FileDescriptor, path: BytePath, _ body: (DirectoryEntry) throws(SystemError) -> Bool
    ) throws(SystemError) {
        let duplicate = fcntl(directory.rawValue, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { throw SystemError(.current, call: "fcntl", path: path) }
        guard let stream = fdopendir(duplicate) else {
            let error = Errno.current
            Glibc.close(duplicate)
            throw SystemError(error, call: "fdopendir", path: path)
        }
        defer { closedir(stream) }
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                let error = Errno.current
                if error.rawValue != 0 { throw SystemError(error, call: "readdir", path: path) }
                return
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { BytePath(cString: $0) }
            }
            if name.bytes == [UInt8(ascii: ".")] || name.bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                continue
            }
            let found = DirectoryEntry(
                name: name, kind: FileKind(direntType: entry.pointee.d_type),
                inode: UInt64(entry.pointee.d_ino))
            guard try body(found) else {
                return
            }
        }
    }
}
