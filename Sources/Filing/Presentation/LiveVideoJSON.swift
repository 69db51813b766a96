import PhotoFilerCatalog

/// The `liveVideo` of an asset of subtype `live`.
public struct LiveVideoJSON: Encodable, Sendable {
    /// The paired video's roll path; null when the video is inside the still's file.
    public var path: String?
    public var size: Int64
    public var duration: Double?
    public var embedded: Bool

    public init(_ video: LiveVideoRecord, layout: LibraryLayout) {
        path = (video.trashPath ?? video.rollPath).map { layout.absolute($0).display }
        size = video.size
        duration = video.duration
        embedded = video.isEmbedded
    }

    private enum CodingKeys: String, CodingKey { case path, size, duration, embedded }

    /// photofiler(1) shows an embedded video's path as `null`, not as an absent key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(size, forKey: .size)
        try container.encode(duration, forKey: .duration)
        try container.encode(embedded, forKey: .embedded)
    }
}
