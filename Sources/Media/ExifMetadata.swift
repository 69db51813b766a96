import CGExiv2
import CGExiv2Guard
import Foundation
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// What exiv2 (through gexiv2) says about a still image: real pixel size,
/// orientation, the capture date tags and the hints that make a subtype.
///
/// exiv2 rather than libvips for HEIC: Debian 12's libvips cannot open recent
/// iPhone HEICs (HDR gain maps), while exiv2 reads their EXIF and `ispe` size.
package struct ExifMetadata {
    package var pixelWidth = 0
    package var pixelHeight = 0
    /// 1–8; 1 when absent or out of range.
    package var orientation = 1
    package var dateTimeOriginal: String?
    package var offsetTimeOriginal: String?
    /// XMP dates, for files (screenshots, edited exports) whose only date is there.
    package var xmpDateTimeOriginal: String?
    package var xmpDateCreated: String?
    /// `Exif.Photo.UserComment` and `Xmp.exif.UserComment`: iOS writes "Screenshot".
    package var userComments: [String] = []
    package var isDNG = false
    /// The format exiv2's own detection recognised ("image/x-nikon-nef"): it knows
    /// camera RAW containers that libmagic calls TIFF or octet-stream.
    package var mimeType: String?
    /// For TIFF and DNG: where the last strip or tile of image data ends, by the
    /// file's own offsets. TIFF has no end marker, so this is how a cut one shows.
    package var imageDataEnd: Int64?
    /// An iPhone still's Live Photo identifier (its Apple MakerNote's).
    package var contentIdentifier: String?
    /// What the XMP says of a motion photo's video, when it says anything.
    package var motionPhoto: MotionPhoto.Announcement?

    /// The capture date the tags give: EXIF `DateTimeOriginal` first (SPEC), then XMP's.
    package func embeddedDate(timeZone: TimeZone) -> CaptureDate? {
        if let text = dateTimeOriginal,
            let date = CaptureDates.fromExif(text, offset: offsetTimeOriginal, timeZone: timeZone)
        {
            return date
        }
        for text in [xmpDateTimeOriginal, xmpDateCreated].compactMap({ $0 }) {
            if let date = CaptureDates.fromExif(text, offset: nil, timeZone: timeZone) { return date }
        }
        return nil
    }

    package var saysScreenshot: Bool {
        userComments.contains { $0.range(of: "screenshot", options: .caseInsensitive) != nil }
    }

    /// Reads a file's bytes (a mapping of the whole file); the failure is exiv2's message.
    package static func read(bytes: UnsafeRawBufferPointer, isTIFF: Bool = false) -> Result<
        ExifMetadata, ExifFailure
    > {
        guard let handle = gexiv2_metadata_new() else {
            return .failure(ExifFailure(reason: "gexiv2_metadata_new failed"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        var error: UnsafeMutablePointer<GError>?
        // Through CGExiv2Guard: exiv2 throws C++ exceptions gexiv2 does not catch.
        var thrown: CInt = 0
        let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard pf_gexiv2_open_buf(handle, data, bytes.count, &error, &thrown) != 0, thrown == 0 else {
            let reason = thrown != 0 ? "exiv2 failed on its metadata" : consume(&error)
            return .failure(ExifFailure(reason: reason ?? "exiv2 could not read it"))
        }
        var result = ExifMetadata()
        result.pixelWidth = Int(pf_gexiv2_get_pixel_width(handle, &thrown))
        guard thrown == 0 else { return .failure(ExifFailure(reason: "exiv2 failed on its size")) }
        result.pixelHeight = Int(pf_gexiv2_get_pixel_height(handle, &thrown))
        guard thrown == 0 else { return .failure(ExifFailure(reason: "exiv2 failed on its size")) }
        let orientation = Int(pf_gexiv2_try_get_orientation(handle, &error, &thrown).rawValue)
        _ = consume(&error)
        result.orientation = (1...8).contains(orientation) ? orientation : 1
        result.dateTimeOriginal = tag(handle, "Exif.Photo.DateTimeOriginal")
        result.offsetTimeOriginal = tag(handle, "Exif.Photo.OffsetTimeOriginal")
        result.xmpDateTimeOriginal = tag(handle, "Xmp.exif.DateTimeOriginal")
        result.xmpDateCreated = tag(handle, "Xmp.photoshop.DateCreated")
        result.userComments = ["Exif.Photo.UserComment", "Xmp.exif.UserComment"].compactMap {
            tag(handle, $0)
        }
        result.isDNG = tag(handle, "Exif.Image.DNGVersion") != nil
        if let type = pf_gexiv2_get_mime_type(handle, &thrown), thrown == 0 {
            result.mimeType = String(cString: type)
        }
        if isTIFF { result.imageDataEnd = imageDataEnd(handle) }
        result.contentIdentifier = appleContentIdentifier(handle)
        result.motionPhoto = motionPhotoAnnouncement(handle)
        return .success(result)
    }

    /// The IFDs a camera TIFF or DNG keeps image data in: the main one and the
    /// sub-IFDs (DNG's full-size raw and previews).
    private static let imageGroups = ["Image", "SubImage1", "SubImage2", "SubImage3", "SubImage4"]

    private static func imageDataEnd(_ handle: UnsafeMutablePointer<GExiv2Metadata>) -> Int64? {
        var end: Int64?
        for group in imageGroups {
            for (offsetsTag, countsTag) in [
                ("StripOffsets", "StripByteCounts"), ("TileOffsets", "TileByteCounts"),
            ] {
                guard let offsets = numbers(tag(handle, "Exif.\(group).\(offsetsTag)")),
                    let counts = numbers(tag(handle, "Exif.\(group).\(countsTag)"))
                else { continue }
                for (offset, count) in zip(offsets, counts) {
                    end = max(end ?? 0, offset + count)
                }
            }
        }
        return end
    }

    /// exiv2 prints an array of integers as space-separated decimal numbers.
    private static func numbers(_ text: String?) -> [Int64]? {
        guard let text else { return nil }
        let values = text.split(separator: " ").compactMap { Int64($0) }
        return values.isEmpty ? nil : values
    }

    package struct ExifFailure: Error {
        package let reason: String
    }

    /// A tag's value as text, nil when absent (or unreadable: a bad tag is no tag).
    static func tag(_ handle: UnsafeMutablePointer<GExiv2Metadata>, _ name: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        var thrown: CInt = 0
        let value = pf_gexiv2_try_get_tag_string(handle, name, &error, &thrown)
        _ = consume(&error)
        guard let value else { return nil }
        defer { g_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Frees a GError, returning its message.
    static func consume(_ error: inout UnsafeMutablePointer<GError>?) -> String? {
        guard let pointer = error else { return nil }
        let message = pointer.pointee.message.map { String(cString: $0) }
        g_error_free(pointer)
        error = nil
        return message
    }
}
