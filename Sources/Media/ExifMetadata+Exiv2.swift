import CGExiv2Guard
import Glibc

extension ExifMetadata {
    /// One file's metadata as exiv2 itself parsed it (CGExiv2Guard/exiv2_reader.h):
    /// gexiv2's answers without the preview listing its every open pays for.
    ///
    /// exiv2 reads the caller's bytes in place: they must outlive this object
    /// (`read(bytes:isTIFF:)` drops it before returning).
    final class Exiv2Image: ExifTags {
        private let image: OpaquePointer
        let pixelWidth: Int
        let pixelHeight: Int
        let mimeType: String?
        let hasXMP: Bool
        let hasEXIF: Bool

        private init(_ image: OpaquePointer) {
            self.image = image
            pixelWidth = Int(pf_exiv2_pixel_width(image))
            pixelHeight = Int(pf_exiv2_pixel_height(image))
            mimeType = pf_exiv2_mime_type(image).map { String(cString: $0) }
            hasXMP = pf_exiv2_has_xmp(image) != 0
            hasEXIF = pf_exiv2_has_exif(image) != 0
        }

        deinit { pf_exiv2_close(image) }

        /// Parses `bytes`; the failure is exiv2's message. `listingPreviews` fails
        /// it where gexiv2's open failed: when exiv2 cannot list its previews.
        static func open(_ bytes: UnsafeRawBufferPointer, listingPreviews: Bool) -> Result<
            Exiv2Image, ExifFailure
        > {
            var failure: UnsafeMutablePointer<CChar>?
            let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            guard let image = pf_exiv2_open(data, bytes.count, listingPreviews ? 1 : 0, &failure) else {
                let reason = failure.map { String(cString: $0) }
                free(failure)
                return .failure(ExifFailure(reason: reason ?? "exiv2 could not read it"))
            }
            return .success(Exiv2Image(image))
        }

        var orientation: Int { Int(pf_exiv2_orientation(image)) }

        func tagString(_ key: String) -> String? {
            guard let value = pf_exiv2_tag_string(image, key) else { return nil }
            defer { free(value) }
            return String(cString: value)
        }

        func tagBytes(_ key: String) -> [UInt8]? {
            var count = 0
            guard let bytes = pf_exiv2_tag_raw(image, key, &count) else { return nil }
            defer { free(bytes) }
            return Array(UnsafeBufferPointer(start: bytes, count: count))
        }
    }
}
