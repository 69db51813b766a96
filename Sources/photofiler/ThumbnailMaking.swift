import PhotoFilerCatalog
import PhotoFilerDaemon
import PhotoFilerFiling

extension Context {
    /// Makes the thumbnails of assets this command added to the library (`save`'s
    /// filed files, `check --repair`'s adopted roll files) once they are in, never
    /// before: an asset that gives no thumbnail is still in. Each problem is one warning.
    func makeThumbnails(of assets: [AssetRecord], in library: PhotoLibrary) {
        guard !assets.isEmpty else { return }
        do {
            let store = try ThumbnailStore(
                library: library, desktop: Configuration.desktopThumbnailCache(configuration))
            for asset in assets {
                do {
                    try store.make(
                        asset, retryingFailure: false, desktopProblem: { log.warning($0.description) })
                } catch {
                    log.warning(error.description)
                }
            }
        } catch {
            log.warning(error.description)
        }
    }
}
