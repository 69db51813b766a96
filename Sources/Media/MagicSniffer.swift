import CMagic
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// libmagic, loaded once per reader: the media type comes from the bytes, never
/// from the name (SPEC "Content decides").
///
/// A `magic_t` is not thread-safe and its result string is overwritten by the
/// next call, so each reader owns one and copies the answer at once.
package final class MagicSniffer {
    /// Enough for every signature photofiler cares about; libmagic's default
    /// (7 MiB) makes it scan far into large files for text tests (41 µs vs 196 µs).
    package static let bytesMax = 64 * 1024

    private let handle: OpaquePointer

    package init() throws(MediaError) {
        guard let handle = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR) else {
            throw .libraryUnavailable(name: "libmagic", reason: "magic_open failed")
        }
        guard magic_load(handle, nil) == 0 else {
            let reason = magic_error(handle).map { String(cString: $0) } ?? "magic_load failed"
            magic_close(handle)
            throw .libraryUnavailable(name: "libmagic", reason: reason)
        }
        var limit = Self.bytesMax
        _ = magic_setparam(handle, MAGIC_PARAM_BYTES_MAX, &limit)
        self.handle = handle
    }

    deinit {
        magic_close(handle)
    }

    /// The MIME type of a file's first bytes, or nil with libmagic's reason.
    package func mimeType(of head: [UInt8]) -> Result<String, SniffFailure> {
        let answer = head.withUnsafeBytes { magic_buffer(handle, $0.baseAddress, $0.count) }
        guard let answer else {
            return .failure(
                SniffFailure(reason: magic_error(handle).map { String(cString: $0) } ?? "unknown"))
        }
        return .success(String(cString: answer))
    }

    package struct SniffFailure: Error {
        package let reason: String
    }
}
