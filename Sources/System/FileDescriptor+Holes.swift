import Glibc

extension FileDescriptor {
    /// True when no byte at or after `offset` was ever written: it lies in a hole
    /// (`lseek(2)` with `SEEK_DATA` finds no data, ENXIO). A download that sets the
    /// file's size first and fills it in later has such a tail, and telling so
    /// costs no read (a 4 GiB sparse file is not read to learn that it is cut).
    /// File systems without hole support report data everywhere: false.
    public func isHole(from offset: Int64) throws(SystemError) -> Bool {
        do throws(SystemError) {
            _ = try Sys.checkCount("lseek", nil) { Int(lseek(rawValue, off_t(offset), Self.seekData)) }
            return false
        } catch  where error.errno == .noDevice {
            return true
        }
    }

    /// `SEEK_DATA` of <unistd.h>: Swift does not import it (it needs `_GNU_SOURCE`).
    private static let seekData: CInt = 3
}
