import Glibc

extension Sys {
    /// `mmap` of a whole file, read-only and private: how the sandboxed helper hands a
    /// file's bytes to libraries that want a buffer (exiv2, libvips) without opening
    /// any path. Pages come from the page cache as they are touched; nothing is copied.
    public static func mapReadOnly(_ fd: FileDescriptor, count: Int) throws(SystemError)
        -> UnsafeRawBufferPointer
    {
        guard count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd.rawValue, 0)
        guard let address, address != MAP_FAILED else {
            throw SystemError(Errno.current, call: "mmap", path: nil)
        }
        return UnsafeRawBufferPointer(start: address, count: count)
    }

    /// `munmap` of what `mapReadOnly` returned.
    public static func unmap(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress else { return }
        _ = munmap(UnsafeMutableRawPointer(mutating: start), bytes.count)
    }
}
