import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerMediaTypes

/// What a picker offers: a media type, a selection limit and an album, each
/// optional. `photofiler pick` takes it from its options; the gallery's own `/pick`
/// page from its query (`?media=image&limit=3&album=Trips`).
public struct PickFilter: Sendable, Equatable {
    /// `image`, `video` or `live`.
    public var media: String?
    public var limit: Int?
    public var album: String?

    public init(media: String?, limit: Int?, album: String?) {
        self.media = media
        self.limit = limit
        self.album = album
    }

    static let mediaTypes: Set<String> = ["image", "video", "live"]

    /// From a request's query; a bad value is a `BadParameter` (400).
    init(query: [String: String]) throws {
        let media = query["media"].flatMap { $0.isEmpty ? nil : $0 }
        if let media, !Self.mediaTypes.contains(media) {
            throw BadParameter(message: "media is image, video or live, not '\(media)'.")
        }
        let limit = try Gallery.integer(query["limit"], name: "limit", in: 1...10_000)
        // The album's name as the catalog keeps it (NFC), as `pick --album` takes it.
        var album: String?
        if let text = query["album"], !text.isEmpty {
            guard let name = try? AlbumName(validating: text) else {
                throw BadParameter(message: "album is an album's name, not '\(text)'.")
            }
            album = name.value
        }
        self.init(media: media, limit: limit, album: album)
    }

    /// What the picker page reads from its `<body data-…>`.
    var pageAttributes: [String: String] {
        var attributes: [String: String] = [:]
        if let media { attributes["media"] = media }
        if let limit { attributes["limit"] = String(limit) }
        if let album { attributes["album"] = album }
        return attributes
    }

    /// The ids of `?ids=1,2`, each an asset this picker offers, no more than its limit.
    func pickedIDs(_ request: HTTPRequest, gallery: Gallery) throws -> [AssetID] {
        let text = request.query["ids"] ?? ""
        var ids: [AssetID] = []
        for part in text.split(separator: ",") {
            guard let id = AssetID(part), id > 0 else {
                throw BadParameter(message: "ids is a comma-separated list of asset ids, not '\(text)'.")
            }
            if !ids.contains(id) { ids.append(id) }
        }
        guard !ids.isEmpty else { throw BadParameter(message: "Pick at least one asset (ids=ID,…).") }
        if let limit, ids.count > limit {
            throw BadParameter(message: "At most \(limit) asset(s) may be picked, not \(ids.count).")
        }
        for id in ids {
            guard let asset = try gallery.visibleAsset(id, scope: .library), !asset.isDeleted,
                !asset.hidden || album == SmartAlbum.hidden.rawValue, try offers(asset, gallery: gallery)
            else {
                throw BadParameter(message: "Asset \(id) is not one this picker offers.")
            }
        }
        return ids
    }

    private func offers(_ asset: AssetRecord, gallery: Gallery) throws -> Bool {
        switch media {
        case "image": if asset.info.mediaType != .image { return false }
        case "video": if asset.info.mediaType != .video { return false }
        case "live": if !asset.info.subtypes.contains("live") { return false }
        default: break
        }
        guard let album, SmartAlbum(rawValue: album) == nil else { return true }
        return try gallery.catalog.read { try $0.albumNames(ofAsset: asset.id) }.contains(album)
    }
}
