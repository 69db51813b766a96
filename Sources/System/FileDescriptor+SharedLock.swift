import Glibc

extension FileDescriptor {
    /// `flock(LOCK_SH | LOCK_NB)`: false when another open file holds it exclusively.
    public func tryLockShared() throws(SystemError) -> Bool {
        while true {
            if flock(rawValue, LOCK_SH | LOCK_NB) == 0 { return true }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .wouldBlock { return false }
            throw SystemError(error, call: "flock", path: nil)
        }
    }

    /// `flock(LOCK_SH)`, waiting while another open file holds it exclusively.
    public func lockShared() throws(SystemError) {
        while flock(rawValue, LOCK_SH) != 0 {
            let error = Errno.current
            if error != .interrupted { throw SystemError(error, call: "flock", path: nil) }
        }
    }

    /// `flock(LOCK_UN)`.
    public func unlock() {
        _ = flock(rawValue, LOCK_UN)
    }
}
