import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Reads a file once: hashing it, and copying it when a copy is needed.
///
/// One 1 MiB buffer is reused for every file; the owner confines it to one queue.
package final class ContentCopier {
    private let buffer: UnsafeMutableRawBufferPointer

    package init(bufferSize: Int = 1 << 20) {
        buffer = .allocate(byteCount: bufferSize, alignment: 4096)
    }

    deinit { buffer.deallocate() }

    /// SHA-256 of the whole file, read from offset 0 with `pread`; also returns the
    /// number of bytes read (so a file that grew or shrank meanwhile is caught).
    /// `scan` sees every byte in order (the format's end is found in the same pass).
    /// `stop` is asked before each read: once it says so, the hash is given up
    /// (`Errno.cancelled`), so a daemon told to stop does not read a video to its end.
    /// With `size` (the file's `fstat` size), a short read that reaches it is taken
    /// as the end: a regular file's read comes up short only at its end, so a small
    /// file costs one `pread`, not a second one that returns 0. (A file that grows
    /// after the `fstat` is caught all the same: by a first read longer than `size`,
    /// or by the caller's `fstat` after the hash.)
    package func hash(
        _ source: FileDescriptor, path: BytePath, scanning scan: inout EndMarkerScans, size: Int64? = nil,
        stop: () -> Bool = { false }
    ) throws(SystemError) -> (hash: String, size: Int64) {
        try stream(source, path: path, into: nil, scanning: &scan, expectedSize: size, stop: stop)
    }

    /// `hash` without a scan.
    package func hash(
        _ source: FileDescriptor, path: BytePath, size: Int64? = nil, stop: () -> Bool = { false }
    ) throws(SystemError) -> (hash: String, size: Int64) {
        var none = EndMarkerScans.none
        return try hash(source, path: path, scanning: &none, size: size, stop: stop)
    }

    /// Copies the file into `destination` while hashing (and scanning) it, then fsyncs
    /// the copy; `stop` as for `hash`.
    package func copy(
        _ source: FileDescriptor, path: BytePath, to destination: FileDescriptor,
        scanning scan: inout EndMarkerScans, stop: () -> Bool = { false }
    ) throws(SystemError) -> (hash: String, size: Int64) {
        let result = try stream(source, path: path, into: destination, scanning: &scan, stop: stop)
        try destination.sync()
        return result
    }

    private func stream(
        _ source: FileDescriptor, path: BytePath, into destination: FileDescriptor?,
        scanning scan: inout EndMarkerScans, expectedSize: Int64? = nil, stop: () -> Bool = { false }
    ) throws(SystemError) -> (hash: String, size: Int64) {
        var hasher = ContentHasher()
        var offset: Int64 = 0
        while true {
            if stop() { throw SystemError(.cancelled, call: "read", path: path.isEmpty ? nil : path) }
            let count: Int
            do {
                count = try source.read(into: buffer, at: offset)
            } catch {
                throw SystemError(error.errno, call: error.call, path: path.isEmpty ? nil : path)
            }
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            hasher.update(chunk)
            scan.consume(chunk)
            try destination?.writeAll(chunk)
            offset += Int64(count)
            if let expectedSize, count < buffer.count, offset >= expectedSize { break }
        }
        return (hasher.finalize(), offset)
    }
}
