import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem
import PhotoFilerWatching

/// `photofiler status`: whether a daemon runs on the library and what it is doing,
/// with the library's counts. Assembled from the lock (running, pid), the state
/// the daemon publishes (`DaemonState`) and the catalog.
public struct StatusReport: Sendable {
    public var running: Bool
    public var pid: Int32?
    /// Seconds since 1970 when the running daemon started.
    public var since: Double?
    public var version: String
    public var inboxes: [DaemonState.Inbox]
    public var lastError: String?
    public var watchesUsed: Int
    /// `fs.inotify.max_user_watches`; nil when it cannot be read.
    public var watchLimit: Int?
    public var assets: Int
    public var albums: Int
    /// Assets whose thumbnails are still to make (missing, not known undecodable).
    public var thumbnailsPending: Int

    public init(library: PhotoLibrary) throws(FilingError) {
        let probe: DaemonProbe
        do {
            probe = try DaemonProbe.probe(library: library.layout.root)
        } catch {
            throw FilingError.from(error, library: library.layout, source: error.path ?? library.layout.root)
        }
        // A state file left by a daemon that crashed, or not yet replaced by the
        // one starting now, describes another process: only the lock holder's counts.
        var state: DaemonState? = nil
        if case .running(let pid) = probe {
            state = DaemonState.read(in: library.layout).flatMap { $0.pid == pid ? $0 : nil }
            self.pid = pid
        }
        running = probe != .notRunning
        since = state?.since
        version = PhotoFilerVersion.current
        inboxes = state?.inboxes ?? []
        lastError = state?.lastError
        watchesUsed = state?.watches ?? 0
        watchLimit = WatchError.currentWatchLimit
        do throws(CatalogError) {
            assets = try library.catalog.liveAssetCount()
            albums = try library.catalog.userAlbumCount()
            thumbnailsPending = try ThumbnailFiles(layout: library.layout).pendingCount(in: library.catalog)
        } catch {
            throw FilingError.from(error, library: library.layout, source: library.layout.catalogPath)
        }
    }
}
