import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Positioned reads (`pread`) of one open file, with failures as `MediaError`s
/// naming the file. The fd's own position is never moved.
package struct FileBytes {
    package let fd: FileDescriptor
    package let path: BytePath
    package let size: Int64

    /// Up to `count` bytes at `offset`; fewer only at the end of the file. They are
    /// read straight into the returned array's storage (no zeroing, no second copy:
    /// every inspection reads a file's first 64 KiB this way).
    package func read(at offset: Int64, count: Int) throws(MediaError) -> [UInt8] {
        let wanted = max(0, min(Int64(count), size - offset))
        guard wanted > 0 else { return [] }
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(wanted)) { buffer, initialized in
            do throws(SystemError) {
                while initialized < buffer.count {
                    let got = try fd.read(
                        into: UnsafeMutableRawBufferPointer(
                            UnsafeMutableBufferPointer(rebasing: buffer[initialized...])),
                        at: offset + Int64(initialized))
                    if got == 0 { break }
                    initialized += got
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw .unreadable(path: path, reason: failure.description) }
        return bytes
    }

    /// The last `count` bytes (or the whole file when smaller), and where they start.
    package func tail(_ count: Int) throws(MediaError) -> (offset: Int64, bytes: [UInt8]) {
        let start = max(0, size - Int64(count))
        return (start, try read(at: start, count: count))
    }
}

extension Array where Element == UInt8 {
    package func bigEndian32(at index: Int) -> UInt32 {
        self[index..<(index + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    package func bigEndian64(at index: Int) -> UInt64 {
        self[index..<(index + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    package func littleEndian32(at index: Int) -> UInt32 {
        self[index..<(index + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The start of the last occurrence of `needle`, searching from `from`.
    package func lastIndex(of needle: [UInt8], from: Int = 0) -> Int? {
        guard needle.count <= count - from else { return nil }
        var index = count - needle.count
        while index >= from {
            if self[index] == needle[0], self[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index -= 1
        }
        return nil
    }
}
