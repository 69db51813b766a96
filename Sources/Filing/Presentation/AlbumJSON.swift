import PhotoFilerCatalog

/// The JSON shape of one album (photofiler(1) JSON).
public struct AlbumJSON: Encodable, Sendable {
    public var name: String
    public var kind: String
    public var count: Int
    public var cover: AssetID?
    public var path: String?
    /// The cover's 256 px thumbnail, or null (`coverHash` is the cover's content hash).
    public var coverThumbnail: String?

    public init(_ summary: AlbumSummary, layout: LibraryLayout, coverHash: String? = nil) {
        coverThumbnail = coverHash.flatMap {
            ThumbnailFiles(layout: layout).shownPath(hash: $0, size: .grid)?.display
        }
        name = summary.name
        count = summary.count
        cover = summary.cover
        switch summary.kind {
        case .user(let album):
            kind = "user"
            path = layout.albumFolder(album).display
        case .smart:
            kind = "smart"
            path = nil
        }
    }

    private enum CodingKeys: String, CodingKey { case name, kind, count, cover, path, coverThumbnail }

    /// photofiler(1) shows a missing cover and a smart album's path as `null`, not as an absent key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(kind, forKey: .kind)
        try container.encode(count, forKey: .count)
        try container.encode(cover, forKey: .cover)
        try container.encode(path, forKey: .path)
        try container.encode(coverThumbnail, forKey: .coverThumbnail)
    }
}
