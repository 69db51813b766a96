import Foundation
import PhotoFilerCatalog
import PhotoFilerMediaTypes

/// The JSON shape of one asset (photofiler(1) JSON).
public struct AssetJSON: Encodable, Sendable {
    public var id: AssetID
    public var path: String
    public var pathBase64: String?
    public var albums: [String]
    public var mediaType: String
    public var mimeType: String
    public var subtypes: [String]
    public var created: String
    public var createdSource: String
    public var added: String
    public var width: Int
    public var height: Int
    public var orientation: Int
    public var rotation: Int?
    public var duration: Double?
    public var size: Int64
    public var hash: String
    public var originalName: String
    public var originalNameBase64: String?
    public var sourceInbox: String?
    public var favorite: Bool
    public var hidden: Bool
    public var deleted: String?
    /// The 256 px thumbnail's path, null while it is not made.
    public var thumbnail: OrNull<String>
    /// A Live Photo's or motion photo's video (subtype `live` only).
    public var liveVideo: LiveVideoJSON?

    public init(_ asset: AssetRecord, albums: [String], layout: LibraryLayout) {
        let absolute = layout.absolute(asset.currentPath)
        id = asset.id
        path = absolute.display
        pathBase64 = absolute.isValidUTF8 ? nil : Data(absolute.bytes).base64EncodedString()
        self.albums = albums
        mediaType = asset.info.mediaType.rawValue
        mimeType = asset.info.mimeType
        subtypes = asset.info.subtypes
        created = DateText.iso8601(asset.created)
        createdSource = asset.created.source.rawValue
        added = DateText.iso8601UTC(asset.addedAt)
        width = asset.info.displayWidth
        height = asset.info.displayHeight
        orientation = asset.info.exifOrientation
        rotation = asset.info.rotation
        duration = asset.info.duration
        size = asset.size
        hash = asset.hash
        originalName = asset.originalName.display
        originalNameBase64 =
            asset.originalName.isValidUTF8 ? nil : Data(asset.originalName.bytes).base64EncodedString()
        sourceInbox = asset.sourceInbox
        favorite = asset.favorite
        hidden = asset.hidden
        deleted = asset.deletedAt.map(DateText.iso8601UTC)
        thumbnail = OrNull(
            ThumbnailFiles(layout: layout).shownPath(hash: asset.hash, size: .grid)?.display)
        liveVideo = asset.liveVideo.map { LiveVideoJSON($0, layout: layout) }
    }
}
