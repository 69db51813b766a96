/// What makes a file one half of a Live Photo, or a motion photo: read once,
/// when it is filed (photofiler(1) "Live Photos").
public struct LivePhotoTraits: Sendable, Equatable {
    /// Apple's content identifier: the still's MakerNote `ContentIdentifier`, the
    /// video's QuickTime `com.apple.quicktime.content.identifier`. The two halves of
    /// an iPhone Live Photo carry the same one; pairing uses nothing else.
    public var contentIdentifier: String?
    /// A motion photo's video inside the still's own file (Google, Samsung).
    public var embeddedVideo: EmbeddedVideo?

    public init(contentIdentifier: String? = nil, embeddedVideo: EmbeddedVideo? = nil) {
        self.contentIdentifier = contentIdentifier
        self.embeddedVideo = embeddedVideo
    }

    public var isEmpty: Bool { contentIdentifier == nil && embeddedVideo == nil }
}

/// Where a motion photo keeps its video: a byte range of the still's file, which
/// is never rewritten (`photofiler export --video` copies the range out).
public struct EmbeddedVideo: Sendable, Equatable {
    /// Bytes from the start of the file.
    public var offset: Int64
    public var length: Int64
    /// Seconds, when libavformat could read it.
    public var duration: Double?

    public init(offset: Int64, length: Int64, duration: Double? = nil) {
        self.offset = offset
        self.length = length
        self.duration = duration
    }
}

extension MediaInfo {
    /// The subtype of a Live Photo or a motion photo (photofiler(1) "Live Photos").
    public static let liveSubtype = "live"
}
