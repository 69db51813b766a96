import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerMediaTypes

/// `photofiler pick`: the filter and selection limit its page shows, and the one
/// choice it waits for (Add or Cancel), reported once the answer has been sent.
///
/// `@unchecked Sendable`: `decided` is guarded by `lock`; the rest is immutable.
public final class PickSession: @unchecked Sendable {
    public enum Outcome: Sendable, Equatable {
        case picked([AssetID])
        case cancelled
    }

    /// `image`, `video` or `live`.
    public let media: String?
    public let limit: Int?
    public let album: String?
    private let onDone: @Sendable (Outcome) -> Void
    private let lock = ThreadLock()
    private var decided = false

    public init(media: String?, limit: Int?, album: String?, onDone: @escaping @Sendable (Outcome) -> Void) {
        self.media = media
        self.limit = limit
        self.album = album
        self.onDone = onDone
    }

    /// What the picker page reads from its `<body data-…>`.
    var pageAttributes: [String: String] {
        var attributes: [String: String] = [:]
        if let media { attributes["media"] = media }
        if let limit { attributes["limit"] = String(limit) }
        if let album { attributes["album"] = album }
        return attributes
    }

    /// `POST /api/pick?ids=1,2` (Add) or `POST /api/pick/cancel`.
    func choose(_ action: String?, request: HTTPRequest, gallery: Gallery) throws -> HTTPResponse {
        let outcome: Outcome
        switch action {
        case "cancel": outcome = .cancelled
        case nil: outcome = .picked(try pickedIDs(request, gallery: gallery))
        default: return .error(404, "The picker has no action '\(action ?? "")'.")
        }
        let first = lock.withLock {
            defer { decided = true }
            return !decided
        }
        guard first else { return .error(409, "The choice has been made already.") }
        var response = HTTPResponse.noContent()
        let onDone = self.onDone
        response.afterSent = { onDone(outcome) }
        return response
    }

    private func pickedIDs(_ request: HTTPRequest, gallery: Gallery) throws -> [AssetID] {
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
                try matches(asset, gallery: gallery)
            else {
                throw BadParameter(message: "Asset \(id) is not one this picker offers.")
            }
        }
        return ids
    }

    private func matches(_ asset: AssetRecord, gallery: Gallery) throws -> Bool {
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
