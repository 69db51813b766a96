import Glibc

extension Sys {
    /// Closes every descriptor above stderr that this process inherited open
    /// (not close-on-exec) from its parent, and returns how many.
    ///
    /// The daemon calls it first thing: a careless parent can leave hundreds of
    /// descriptors open, which pushes libinotifytools' fd past select()'s
    /// FD_SETSIZE (1024) and holds files the daemon knows nothing about. Our own
    /// descriptors are all opened with O_CLOEXEC, so none of them is touched.
    @discardableResult
    public static func closeInheritedDescriptors() -> Int {
        let entries = (try? listDirectory("/proc/self/fd")) ?? []
        var closed = 0
        for entry in entries {
            guard let fd = CInt(entry.name.display), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            // -1: the listing's own descriptor, already closed again.
            guard flags != -1, flags & FD_CLOEXEC == 0 else { continue }
            Glibc.close(fd)
            closed += 1
        }
        return closed
    }
}
