import CGExiv2Guard
import PhotoFilerSystem

/// The previews a camera file carries (the camera's own JPEG, or a small TIFF), as
/// exiv2 finds them, largest first: the thumbnails' decoders take a RAW's pixels from
/// one (`CameraPreview`), since Debian's libvips has no RAW loader.
package enum EmbeddedPreview {
    /// Exiv2 failed on the file's previews (it threw).
    package struct Failure: Error {}

    /// The bytes of the preview of `rank` (0 is the largest) in a whole file's
    /// `bytes`; nil when there is no such preview. A rank whose data was stripped (a
    /// stub) is still returned: the caller asks for the next when it does not decode.
    package static func bytes(in file: [UInt8], rank: Int) -> Result<[UInt8]?, Failure> {
        var preview: UnsafeMutablePointer<guint8>?
        var previewSize: guint32 = 0
        var thrown: CInt = 0
        let found = file.withUnsafeBufferPointer {
            pf_gexiv2_preview($0.baseAddress, glong($0.count), CInt(rank), &preview, &previewSize, &thrown)
        }
        guard thrown == 0 else { return .failure(Failure()) }
        guard found != 0, let preview else { return .success(nil) }
        defer { g_free(preview) }
        return .success(Array(UnsafeBufferPointer(start: preview, count: Int(previewSize))))
    }
}
