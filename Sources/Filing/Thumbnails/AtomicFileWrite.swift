import Glibc
import PhotoFilerSystem
import Synchronization

/// Writes a whole file by temp-then-rename: the bytes go to a name of this process's
/// own in `folder`, then the name is renamed over `destination`, so a reader (a file
/// manager, the gallery) sees the old file or the new one, never half of one.
enum AtomicFileWrite {
    private static let counter = Atomic<Int>(0)

    static func write(_ bytes: [UInt8], to destination: BytePath, temporaryIn folder: BytePath, mode: mode_t)
        throws(SystemError)
    {
        let number = counter.add(1, ordering: .relaxed).newValue
        let temporary = folder.appending(".thumbnail-\(getpid())-\(number).tmp")
        let fd: FileDescriptor
        do {
            fd = try Sys.createExclusive(temporary, mode: mode)
        } catch  where error.errno == .exists {
            // Left by an earlier process that had this pid and was killed mid-write.
            try Sys.unlink(temporary)
            fd = try Sys.createExclusive(temporary, mode: mode)
        }
        do throws(SystemError) {
            defer { fd.close() }
            try fd.writeAll(bytes)
            try Sys.rename(temporary, to: destination)
        } catch {
            try? Sys.unlinkIfPresent(temporary)
            throw error
        }
    }
}
