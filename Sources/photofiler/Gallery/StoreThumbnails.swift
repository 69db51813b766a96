import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerServer
import PhotoFilerSystem
import Synchronization

/// The gallery's thumbnails: the library's thumbnail store (`ensure(asset:size:)`),
/// JPEGs made now when missing (with the desktop's entries, as everywhere).
///
/// One store, one catalog connection of its own, behind a mutex: the server's
/// threads take turns, so one picture is decoded at a time and memory stays bounded.
final class StoreThumbnails: ThumbnailSource {
    private let store: Mutex<ThumbnailStore>

    init(layout: LibraryLayout, desktop: DesktopThumbnailCache?) throws(ThumbnailError) {
        store = Mutex(try ThumbnailStore.opening(layout, desktop: desktop))
    }

    func thumbnail(of asset: AssetRecord, size: Int) -> ThumbnailFile? {
        guard let size = ThumbnailSize(rawValue: size) else { return nil }
        return store.withLock { store in
            (try? store.ensure(asset: asset, size: size)).map { ThumbnailFile(path: $0) }
        }
    }
}
