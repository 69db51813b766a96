import CInotifyTools
import Dispatch
import Glibc
import PhotoFilerSystem
import Synchronization

/// libinotifytools' process-wide state: one inotify fd, one event buffer, no
/// locks. This type owns its initialisation and teardown, behind a mutex, and
/// hands it to at most one `InotifyWatcher` at a time (`ownership`); between
/// those two points only the owning watcher's serial queue calls into it.
package enum InotifyLibrary {
    /// Held by the live watcher; released by its source's cancel handler once the
    /// fd is closed, so a new watcher can wait for an old one to finish stopping.
    package static let ownership = DispatchSemaphore(value: 1)

    /// The library's fd while it is initialised.
    private static let descriptor = Mutex<CInt?>(nil)

    /// Initialises the library (once) and returns its fd, found by comparing the
    /// `anon_inode:inotify` links in `/proc/self/fd` before and after, since the
    /// library offers no getter. Sets FD_CLOEXEC, which it does not.
    package static func initialize() throws(WatchError) -> CInt {
        try descriptor.withLock { (fd: inout CInt?) throws(WatchError) -> CInt in
            if let fd { return fd }
            let before = try inotifyDescriptors()
            guard inotifytools_initialize() != 0 else {
                throw .setupFailed(
                    SystemError(Errno(rawValue: inotifytools_error()), call: "inotify_init", path: nil))
            }
            let found = try inotifyDescriptors().subtracting(before)
            guard found.count == 1, let new = found.first else {
                inotifytools_cleanup()
                throw .descriptorNotFound(found: found.count)
            }
            // select() in next_events writes out of bounds for an fd >= FD_SETSIZE.
            guard new < FD_SETSIZE else {
                inotifytools_cleanup()
                throw .descriptorTooHigh(new)
            }
            do throws(SystemError) {
                try FileDescriptor(rawValue: new).setCloseOnExec()
            } catch {
                inotifytools_cleanup()
                throw .setupFailed(error)
            }
            fd = new
            return new
        }
    }

    /// Closes the fd and frees the library's trees (`inotifytools_cleanup`).
    package static func cleanup() {
        descriptor.withLock { fd in
            guard fd != nil else { return }
            inotifytools_cleanup()
            fd = nil
        }
    }

    /// A watcher gives the library back: cleaned up, and free for the next one.
    package static func release() {
        cleanup()
        ownership.signal()
    }

    private static func inotifyDescriptors() throws(WatchError) -> Set<CInt> {
        let folder: BytePath = "/proc/self/fd"
        let entries: [Sys.DirectoryEntry]
        do {
            entries = try Sys.listDirectory(folder)
        } catch {
            throw .setupFailed(error)
        }
        var result: Set<CInt> = []
        for entry in entries {
            guard let fd = CInt(entry.name.display),
                let target = try? Sys.readLink(folder.appending(entry.name)),
                target == "anon_inode:inotify"
            else { continue }
            result.insert(fd)
        }
        return result
    }
}
