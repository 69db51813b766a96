import CVips
import PhotoFilerMediaTypes

/// Encodes one rendition: a stripped JPEG, or a freedesktop PNG (RGBA, its text
/// chunks, no ICC profile or EXIF).
enum ThumbnailEncoder {
    /// zlib level for the desktop PNGs (the freedesktop spec asks for none in particular).
    /// Measured on a 256 × 192 photo's RGBA PNG, process CPU time: level 1 with adaptive
    /// filters 5.6 ms and 105 KB, level 3 without filters (the former choice) 8.1 ms and
    /// 145 KB, level 6 with filters 27 ms and 93 KB.
    static let pngCompression: CInt = 1

    static func encode(_ picture: VipsImageHandle, _ rendition: ThumbnailRendition) throws(ThumbnailFailure)
        -> [UInt8]
    {
        switch rendition.encoding {
        case .jpeg(let quality):
            let opaque = try flattened(picture)
            return try save("encode a JPEG") { bytes, count in
                photofiler_vips_jpegsave_buffer(opaque.image, &bytes, &count, CInt(quality))
            }
        case .png(let text):
            var withAlpha = picture
            if picture.bands == 3 {
                withAlpha = try picture.derive("add alpha") { image, out in
                    photofiler_vips_add_alpha(image, &out)
                }
            }
            let labelled = try withAlpha.derive("copy it") { image, out in photofiler_vips_copy(image, &out) }
            for field in ["icc-profile-data", "exif-data", "xmp-data", "iptc-data", "orientation"] {
                _ = vips_image_remove(labelled.image, field)
            }
            // libvips' PNG writer turns each `png-comment-N-KEY` string into a tEXt chunk.
            for (index, entry) in text.enumerated() {
                vips_image_set_string(labelled.image, "png-comment-\(index)-\(entry.key)", entry.value)
            }
            return try save("encode a PNG") { bytes, count in
                photofiler_vips_pngsave_buffer(labelled.image, &bytes, &count, pngCompression)
            }
        }
    }

    /// JPEG has no alpha: a transparent PNG or GIF is shown over white.
    private static func flattened(_ picture: VipsImageHandle) throws(ThumbnailFailure) -> VipsImageHandle {
        guard picture.bands == 4 else { return picture }
        return try picture.derive("flatten it") { image, out in photofiler_vips_flatten_white(image, &out) }
    }

    private static func save(
        _ what: String, _ body: (inout UnsafeMutableRawPointer?, inout Int) -> CInt
    ) throws(ThumbnailFailure) -> [UInt8] {
        var bytes: UnsafeMutableRawPointer?
        var count = 0
        guard body(&bytes, &count) == 0, let bytes else { throw VipsErrors.take(what) }
        defer { g_free(bytes) }
        // One copy in bulk (a generic Sequence copy goes byte by byte: a fifth of all time).
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress?.update(from: bytes.assumingMemoryBound(to: UInt8.self), count: count)
            initialized = count
        }
    }
}
