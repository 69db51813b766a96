import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerServer
import PhotoFilerSystem

/// The gallery's thumbnails until the thumbnail store (issue 12) is on main: a
/// JPEG asset is its own thumbnail (a real, decodable `image/jpeg`, only larger);
/// other assets have none yet. Replace with the store's `ensure(asset:size:)`.
struct StandInThumbnails: ThumbnailSource {
    let layout: LibraryLayout

    func thumbnail(of asset: AssetRecord, size: Int) -> BytePath? {
        guard asset.info.mimeType == "image/jpeg" else { return nil }
        return layout.absolute(asset.trashPath ?? asset.rollPath)
    }
}
