import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerServer
import PhotoFilerSystem

/// The gallery's thumbnails until the thumbnail store (issue 12) is on main: an
/// image a browser decodes by itself (JPEG, PNG, GIF, WebP) is sent as its own
/// thumbnail, with its own type; other assets (HEIC, RAW, video) have none yet.
/// Replace with the store's `ensure(asset:size:)`, which makes JPEGs.
struct StandInThumbnails: ThumbnailSource {
    let layout: LibraryLayout

    static let browserImages: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp"]

    func thumbnail(of asset: AssetRecord, size: Int) -> ThumbnailFile? {
        guard Self.browserImages.contains(asset.info.mimeType) else { return nil }
        return ThumbnailFile(
            path: layout.absolute(asset.trashPath ?? asset.rollPath), mimeType: asset.info.mimeType)
    }
}
