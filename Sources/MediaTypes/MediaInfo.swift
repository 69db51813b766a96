/// Photo or video: the top-level split every view of the library makes.
public enum MediaType: String, Sendable, Codable, CaseIterable {
    case image, video
}

/// What the bytes of one file say about it: read once, when it is filed.
public struct MediaInfo: Sendable, Equatable {
    public var mediaType: MediaType
    /// From the content (libmagic), never from the name: `image/jpeg`, `video/quicktime`.
    public var mimeType: String
    /// Sorted, lowercase: `animated`, `screenshot`, `raw`.
    public var subtypes: [String]
    /// Stored pixel size, before orientation.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// EXIF orientation 1–8 (1 when absent). For video, 6 or 8 stand for a 90° or 270° rotation.
    public var orientation: Int
    /// The capture date the content itself carries (EXIF or the video container), if any.
    /// The file-name and mtime fallbacks are applied by `CaptureDates.resolve`.
    public var embeddedDate: CaptureDate?
    /// Seconds, for video.
    public var duration: Double?
    /// Frames of an animated image (GIF, WebP); 1 for a still.
    public var frameCount: Int
    /// A Live Photo half's content identifier, a motion photo's embedded video.
    public var live = LivePhotoTraits()

    public init(
        mediaType: MediaType, mimeType: String, subtypes: [String] = [], pixelWidth: Int = 0,
        pixelHeight: Int = 0, orientation: Int = 1, embeddedDate: CaptureDate? = nil,
        duration: Double? = nil, frameCount: Int = 1
    ) {
        self.mediaType = mediaType
        self.mimeType = mimeType
        self.subtypes = subtypes
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.embeddedDate = embeddedDate
        self.duration = duration
        self.frameCount = frameCount
    }

    /// The EXIF orientation the JSON reports: a video has none (1); its turn is `rotation`.
    public var exifOrientation: Int { mediaType == .video ? 1 : orientation }

    /// A video's display rotation in degrees clockwise (0, 90, 180, 270); nil for images.
    public var rotation: Int? {
        guard mediaType == .video else { return nil }
        switch orientation {
        case 6: return 90
        case 3: return 180
        case 8: return 270
        default: return 0
        }
    }

    /// True when a viewer turns the picture a quarter (orientations 5–8).
    public var isQuarterTurned: Bool { (5...8).contains(orientation) }

    /// Width as a viewer shows it: orientation applied.
    public var displayWidth: Int { isQuarterTurned ? pixelHeight : pixelWidth }
    /// Height as a viewer shows it: orientation applied.
    public var displayHeight: Int { isQuarterTurned ? pixelWidth : pixelHeight }
}

/// A moment a picture was taken, and the UTC offset to show it in.
public struct CaptureDate: Sendable, Equatable, Hashable {
    /// Where the date came from, first that exists (photofiler(1) "Capture date"); `added`
    /// when not even the mtime is a plausible date: the time it was filed.
    public enum Source: String, Sendable, Codable {
        case exif, container, fileName, modificationTime, added
    }

    /// The instant, in whole seconds since the Unix epoch (UTC).
    public var secondsSinceEpoch: Int64
    /// The offset from UTC, in seconds east, the content gave (EXIF `OffsetTimeOriginal`,
    /// QuickTime's creationdate); nil means "show in the machine's zone".
    public var utcOffsetSeconds: Int?
    public var source: Source

    public init(secondsSinceEpoch: Int64, utcOffsetSeconds: Int? = nil, source: Source) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.utcOffsetSeconds = utcOffsetSeconds
        self.source = source
    }
}
