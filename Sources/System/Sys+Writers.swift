import CSystemShims
import Glibc

extension Sys {
    /// Whether some process holds the file open for writing now: nil when the kernel
    /// will not say (the file belongs to another user and the process lacks
    /// `CAP_LEASE`, or its file system has no leases, as NFS).
    ///
    /// The kernel tells through a read lease (`F_SETLEASE`, `F_RDLCK`), which it grants
    /// only while no one has the file open for writing, and which is given back at
    /// once. A writer that opens the file in between waits those microseconds, and
    /// the kernel signals the lease holder with `SIGIO`, whose default would end the
    /// process: it is ignored here, once, before the first lease.
    ///
    /// This is how a file found with content (a creation read late, while its writer
    /// is paused or preempted between growing the file and queueing `IN_MODIFY`) is
    /// known to be still in the writer's hands.
    public static func isOpenForWriting(_ path: BytePath) throws(SystemError) -> Bool? {
        _ = leaseBreaksIgnored
        let fd = try openForReading(path)
        defer { fd.close() }
        while true {
            if photofiler_set_lease(fd.rawValue, F_RDLCK) == 0 {
                _ = photofiler_set_lease(fd.rawValue, F_UNLCK)
                return false
            }
            switch Errno.current {
            case .interrupted: continue
            case .wouldBlock: return true
            default: return nil
            }
        }
    }

    /// `SIGIO` ignored for the whole process (set once): the only use of it here is
    /// a lease being broken, which `isOpenForWriting` has already given back.
    private static let leaseBreaksIgnored: Void = {
        _ = signal(SIGIO, SIG_IGN)
    }()
}
