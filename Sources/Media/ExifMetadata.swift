import FoundationEssentials
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// What exiv2 says about a still image: real pixel size,
/// orientation, the capture date tags and the hints that make a subtype.
///
/// exiv2 rather than libvips for HEIC: Debian 12's libvips cannot open recent
/// iPhone HEICs (HDR gain maps), while exiv2 reads their EXIF and `ispe` size.
package struct ExifMetadata {
    package var pixelWidth = 0
    package var pixelHeight = 0
    /// The orientation the file states (1–8), nil when it states none or one out of range.
    package var statedOrientation: Int?
    /// 1–8; 1 when absent or out of range.
    package var orientation: Int { statedOrientation ?? 1 }
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
    /// What the tags say of the phone's kinds of pictures.
    package var kindSignals = PictureKinds.Signals()

    /// The capture date the tags give: EXIF `DateTimeOriginal` first, then XMP's
    /// (photofiler(1) "Capture date").
    package func embeddedDate(timeZone: any ZoneOffsets) -> CaptureDate? {
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
        userComments.contains { $0.lowercased().contains("screenshot") }
    }

    /// Reads a file's bytes (a mapping of the whole file); the failure is exiv2's message.
    ///
    /// A TIFF or camera RAW whose previews exiv2 cannot list fails, as it did
    /// through gexiv2 (whose every open lists them): such a file is then filed by
    /// libvips' header, or refused, as before. Other formats skip the listing,
    /// the bulk of gexiv2's cost per file (issue 15).
    package static func read(bytes: UnsafeRawBufferPointer, isTIFF: Bool = false) -> Result<
        ExifMetadata, ExifFailure
    > {
        Exiv2Image.open(bytes, listingPreviews: isTIFF).map { ExifMetadata(tags: $0, isTIFF: isTIFF) }
    }

    /// What the file's tags say, with `tags` over its parsed metadata.
    init(tags: some ExifTags, isTIFF: Bool) {
        pixelWidth = tags.pixelWidth
        pixelHeight = tags.pixelHeight
        statedOrientation = (1...8).contains(tags.orientation) ? tags.orientation : nil
        dateTimeOriginal = Self.tag(tags, "Exif.Photo.DateTimeOriginal")
        offsetTimeOriginal = Self.tag(tags, "Exif.Photo.OffsetTimeOriginal")
        xmpDateTimeOriginal = Self.tag(tags, "Xmp.exif.DateTimeOriginal")
        xmpDateCreated = Self.tag(tags, "Xmp.photoshop.DateCreated")
        userComments = ["Exif.Photo.UserComment", "Xmp.exif.UserComment"].compactMap { Self.tag(tags, $0) }
        isDNG = Self.tag(tags, "Exif.Image.DNGVersion") != nil
        mimeType = tags.mimeType
        if isTIFF { imageDataEnd = Self.imageDataEnd(tags) }
        let apple = Self.appleMakerNote(tags)
        contentIdentifier = apple.contentIdentifier
        kindSignals = Self.kindSignals(tags, apple: apple)
        motionPhoto = Self.motionPhotoAnnouncement(tags)
    }

    /// The IFDs a camera TIFF or DNG keeps image data in: the main one and the
    /// sub-IFDs (DNG's full-size raw and previews).
    private static let imageGroups = ["Image", "SubImage1", "SubImage2", "SubImage3", "SubImage4"]

    private static func imageDataEnd(_ tags: some ExifTags) -> Int64? {
        var end: Int64?
        for group in imageGroups {
            for (offsetsTag, countsTag) in [
                ("StripOffsets", "StripByteCounts"), ("TileOffsets", "TileByteCounts"),
            ] {
                guard let offsets = numbers(tag(tags, "Exif.\(group).\(offsetsTag)")),
                    let counts = numbers(tag(tags, "Exif.\(group).\(countsTag)"))
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
    /// No look-up in a kind of metadata the file has none of: an XMP one costs
    /// microseconds even then.
    static func tag(_ tags: some ExifTags, _ key: String) -> String? {
        if key.hasPrefix("Xmp."), !tags.hasXMP { return nil }
        if key.hasPrefix("Exif."), !tags.hasEXIF { return nil }
        guard let text = tags.tagString(key), !text.isEmpty else { return nil }
        return text
    }
}

/// A file's metadata as exiv2 parsed it: what `ExifMetadata` is made of. Each
/// answer is gexiv2 0.14's for the same question (the readers' equivalence test
/// asks gexiv2 too).
protocol ExifTags {
    var pixelWidth: Int { get }
    var pixelHeight: Int { get }
    /// 1–8, 0 when unspecified.
    var orientation: Int { get }
    var mimeType: String? { get }
    /// False when the file has no XMP: every `Xmp.` key is then absent.
    var hasXMP: Bool { get }
    /// False when the file has no EXIF: every `Exif.` key is then absent.
    var hasEXIF: Bool { get }
    /// `key`'s value as exiv2 prints it; nil when absent or not a key exiv2 knows.
    func tagString(_ key: String) -> String?
    /// An `Exif.` key's value as stored; nil when absent or empty.
    func tagBytes(_ key: String) -> [UInt8]?
}
