import PhotoFilerSystem

extension FileDescriptor {
    /// Reads from the current position to the end of the file (or `limit`
    /// bytes), for the small text files the daemon reads whole: its config, the
    /// user-dirs file, the lock file's pid.
    package func readToEnd(limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        var data: [UInt8] = []
        let chunk = 16384
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { buffer.deallocate() }
        while data.count < limit {
            let count = try read(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(chunk, limit - data.count)]))
            if count == 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }
}
