import PhotoFilerMediaTypes
import PhotoFilerSystem

/// A Live Photo's video, the asset's second resource: a paired MOV in the Roll
/// beside the still, or a motion photo's video inside the still's own file.
public struct LiveVideoRecord: Sendable, Equatable {
    /// The paired video's roll path (relative); nil when the video is embedded.
    public var rollPath: BytePath?
    /// SHA-256 of the paired video's bytes (nil when embedded): a second drop of
    /// them is this asset again.
    public var hash: String?
    public var size: Int64
    /// Seconds, when known.
    public var duration: Double?
    /// Embedded: where the video starts in the still's file.
    public var embeddedOffset: Int64?
    /// The paired video's original file name.
    public var originalName: BytePath?
    /// Where the paired video's bytes are kept while the asset is in Recently Deleted.
    public var trashPath: BytePath?

    public init(
        rollPath: BytePath?, hash: String?, size: Int64, duration: Double?, embeddedOffset: Int64? = nil,
        originalName: BytePath? = nil, trashPath: BytePath? = nil
    ) {
        self.rollPath = rollPath
        self.hash = hash
        self.size = size
        self.duration = duration
        self.embeddedOffset = embeddedOffset
        self.originalName = originalName
        self.trashPath = trashPath
    }

    /// A motion photo's video, inside the still's file.
    public init(embedded video: EmbeddedVideo) {
        self.init(
            rollPath: nil, hash: nil, size: video.length, duration: video.duration,
            embeddedOffset: video.offset)
    }

    public var isEmbedded: Bool { embeddedOffset != nil }
}

/// The assets that hold some bytes (`Catalog.owners(ofContent:)`): the asset whose
/// content they are, and the Live Photo whose paired video they are (photofiler(1) "Live
/// Photos": the video dropped again is its still's asset).
public struct ContentOwners: Sendable, Equatable {
    public var asset: AssetRecord?
    public var liveVideoOwner: AssetRecord?

    public init(asset: AssetRecord? = nil, liveVideoOwner: AssetRecord? = nil) {
        self.asset = asset
        self.liveVideoOwner = liveVideoOwner
    }

    /// The asset the bytes stand for: their own, else the Live Photo whose video they are.
    public var either: AssetRecord? { asset ?? liveVideoOwner }
}
