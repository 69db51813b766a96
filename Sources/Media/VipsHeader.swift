import CVips
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// What libvips' loaders say from a header read: the frame count of an animated
/// GIF or WebP, a pixel size when exiv2 has none, and whether the loader (libpng,
/// libwebp, cgif) accepts the file at all with errors made fatal (a PNG whose
/// IHDR CRC is broken is refused here). No pixels are decoded.
package struct VipsHeader {
    package var width: Int
    package var height: Int
    /// Frames (`n-pages`): above 1 for an animation.
    package var pages: Int

    /// Reads the header from a file's bytes (a mapping of the whole file); the
    /// failure is libvips' message.
    package static func read(bytes: UnsafeRawBufferPointer) -> Result<VipsHeader, VipsFailure> {
        guard let image = photofiler_vips_open_header_strict(bytes.baseAddress, bytes.count) else {
            let reason = lastError()
            return .failure(VipsFailure(reason: reason.isEmpty ? "libvips could not open it" : reason))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(image)) }
        let header = VipsHeader(
            width: Int(vips_image_get_width(image)), height: Int(vips_image_get_page_height(image)),
            pages: max(1, Int(vips_image_get_n_pages(image))))
        return .success(header)
    }

    package struct VipsFailure: Error {
        package let reason: String
    }

    /// libvips keeps errors in a per-process buffer: take and clear it, first line only.
    private static func lastError() -> String {
        let text = String(cString: vips_error_buffer())
        vips_error_clear()
        return text.split(separator: "\n").first.map(String.init) ?? ""
    }
}
