import CVips
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSystem

extension ImageHeader {
    /// Reads the header from a file's bytes (a mapping of the whole file); the
    /// failure is libvips' message.
    static func read(bytes: UnsafeRawBufferPointer) -> Result<ImageHeader, DecoderFailure> {
        guard let image = photofiler_vips_open_header_strict(bytes.baseAddress, bytes.count) else {
            let reason = lastError()
            return .failure(DecoderFailure(reason: reason.isEmpty ? "libvips could not open it" : reason))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(image)) }
        let header = ImageHeader(
            width: Int(vips_image_get_width(image)), height: Int(vips_image_get_page_height(image)),
            pages: max(1, Int(vips_image_get_n_pages(image))))
        return .success(header)
    }

    /// libvips keeps errors in a per-process buffer: take and clear it, first line only.
    private static func lastError() -> String {
        let text = String(cString: vips_error_buffer())
        vips_error_clear()
        return text.split(separator: "\n").first.map(String.init) ?? ""
    }
}
