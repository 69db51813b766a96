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
/// A thumbnail that could not be had (not an undecodable file) is logged here, once
/// for each folder that cannot be looked at and each other reason: the page's
/// visitor gets no path of the server's disk.
final class StoreThumbnails: ThumbnailSource {
    private let store: Mutex<(store: ThumbnailStore, told: Set<String>)>
    private let log: Logger

    init(layout: LibraryLayout, desktop: DesktopThumbnailCache?, log: Logger) throws(ThumbnailError) {
        store = Mutex((try ThumbnailStore.opening(layout, desktop: desktop), []))
        self.log = log
    }

    func thumbnail(of asset: AssetRecord, size: Int) -> ThumbnailAnswer {
        guard let size = ThumbnailSize(rawValue: size) else { return .none }
        return store.withLock { state in
            do throws(ThumbnailError) {
                return .file(ThumbnailFile(path: try state.store.ensure(asset: asset, size: size)))
            } catch {
                if case .undecodable = error { return .none }
                let key =
                    if case .couldNotLook(_, let folder, _) = error { folder.display } else {
                        error.description
                    }
                if state.told.insert(key).inserted { log.warning(error.description) }
                return .failed(
                    reason: "Asset \(asset.id)'s thumbnail cannot be had now; the server's log says why.")
            }
        }
    }
}
