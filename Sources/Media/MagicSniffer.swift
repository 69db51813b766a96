import CMagic
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// libmagic, loaded once per reader: the media type comes from the bytes, never
/// from the name (photofiler(1) "Content decides").
///
/// Two handles over the same database. libmagic's text-encoding check reads the
/// whole buffer before any signature test and was two thirds of the sniff of a
/// 45 KB JPEG (67 µs, 23 µs without it); no photo or video signature depends on
/// it. So the quick handle, without it, answers first, and only a file it does
/// not call a format photofiler knows is asked again with every check: the
/// answer is always the full handle's where it matters (text files keep their
/// `text/html`, octet-stream stays octet-stream). `MagicSnifferTests` holds the
/// two handles to the same answer on every fixture.
///
/// A `magic_t` is not thread-safe and its result string is overwritten by the
/// next call, so each reader owns its handles and copies the answer at once.
package final class MagicSniffer {
    /// Enough for every signature photofiler cares about; libmagic's default
    /// (7 MiB) makes it scan far into large files for text tests (41 µs vs 196 µs).
    package static let bytesMax = 64 * 1024

    private let quick: OpaquePointer
    private let thorough: OpaquePointer

    package init() throws(MediaError) {
        quick = try Self.open(MAGIC_MIME_TYPE | MAGIC_ERROR | MAGIC_NO_CHECK_ENCODING)
        do {
            thorough = try Self.open(MAGIC_MIME_TYPE | MAGIC_ERROR)
        } catch {
            magic_close(quick)
            throw error
        }
    }

    deinit {
        magic_close(quick)
        magic_close(thorough)
    }

    /// The MIME type of a file's first bytes, or nil with libmagic's reason.
    package func mimeType(of head: [UInt8]) -> Result<String, SniffFailure> {
        if case .success(let type) = Self.sniff(head, with: quick), MediaFormat(mimeType: type) != nil {
            return .success(type)
        }
        return Self.sniff(head, with: thorough)
    }

    /// What one handle says, without the other.
    package enum Handle: Sendable {
        case quick, thorough
    }

    /// One handle's answer (`MagicSnifferTests` compares them).
    package func mimeType(of head: [UInt8], using handle: Handle) -> Result<String, SniffFailure> {
        Self.sniff(head, with: handle == .quick ? quick : thorough)
    }

    private static func sniff(_ head: [UInt8], with handle: OpaquePointer) -> Result<String, SniffFailure> {
        let answer = head.withUnsafeBytes { magic_buffer(handle, $0.baseAddress, $0.count) }
        guard let answer else {
            return .failure(
                SniffFailure(reason: magic_error(handle).map { String(cString: $0) } ?? "unknown"))
        }
        return .success(String(cString: answer))
    }

    private static func open(_ flags: CInt) throws(MediaError) -> OpaquePointer {
        guard let handle = magic_open(flags) else {
            throw .libraryUnavailable(name: "libmagic", reason: "magic_open failed")
        }
        guard magic_load(handle, nil) == 0 else {
            let reason = magic_error(handle).map { String(cString: $0) } ?? "magic_load failed"
            magic_close(handle)
            throw .libraryUnavailable(name: "libmagic", reason: reason)
        }
        var limit = bytesMax
        _ = magic_setparam(handle, MAGIC_PARAM_BYTES_MAX, &limit)
        return handle
    }

    package struct SniffFailure: Error {
        package let reason: String
    }
}
