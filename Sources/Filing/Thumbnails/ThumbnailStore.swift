import Glibc
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSandbox
import PhotoFilerSystem

/// The library's two thumbnail sizes (SPEC "Thumbnails and covers"), by longest edge.
public enum ThumbnailSize: Int, Sendable, CaseIterable {
    /// Grids: albums, lists, covers.
    case grid = 256
    /// Viewing one asset.
    case viewing = 1024
}

/// The library's thumbnails: `.photofiler/thumbnails/ab/<hash>-256.jpg` and
/// `-1024.jpg` by content hash (a duplicate costs nothing), written by
/// temp-then-rename, made again when missing, removed with the asset. Making one
/// also fills the desktop's thumbnail cache for the roll file and every album entry
/// when `desktop` is set, from the same decode.
///
/// Uses its catalog connection on one queue at a time; the decoding is done by the helpers.
public final class ThumbnailStore {
    public let layout: LibraryLayout
    public let desktop: DesktopThumbnailCache?
    private let catalog: Catalog
    /// The decoding is a helper's (`SandboxedThumbnails`).
    private let maker: SandboxedThumbnails

    public init(layout: LibraryLayout, catalog: Catalog, desktop: DesktopThumbnailCache?)
        throws(ThumbnailError)
    {
        self.layout = layout
        self.catalog = catalog
        self.desktop = desktop
        maker = SandboxedThumbnails(helpers: .shared, temporaryFolder: layout.temporary)
    }

    /// The store of an open library, on its catalog connection (the library's queue).
    public convenience init(library: PhotoLibrary, desktop: DesktopThumbnailCache?) throws(ThumbnailError) {
        try self.init(layout: library.layout, catalog: library.catalog, desktop: desktop)
    }

    /// A store on a catalog connection of its own, for a thread of its own.
    public static func opening(_ layout: LibraryLayout, desktop: DesktopThumbnailCache?)
        throws(ThumbnailError)
        -> ThumbnailStore
    {
        let catalog: Catalog
        do {
            catalog = try Catalog(path: layout.catalogPath)
        } catch {
            throw .catalog(error)
        }
        return try ThumbnailStore(layout: layout, catalog: catalog, desktop: desktop)
    }

    /// Where the thumbnails are (a value the JSON and the purge use without decoders).
    public var files: ThumbnailFiles { ThumbnailFiles(layout: layout) }

    /// Where the thumbnail of content `hash` at `size` lives (whether or not it is made yet).
    public func path(hash: String, size: ThumbnailSize) -> BytePath { files.path(hash: hash, size: size) }

    /// The thumbnail of `asset` at `size`, made now (with the other size and the
    /// desktop's entries) when missing. An asset that could not be decoded before
    /// is not tried again here: `thumb --all` retries.
    public func ensure(asset: AssetRecord, size: ThumbnailSize) throws(ThumbnailError) -> BytePath {
        if let path = files.existingPath(hash: asset.hash, size: size) { return path }
        try make(asset, retryingFailure: false)
        guard let path = files.existingPath(hash: asset.hash, size: size) else {
            throw .undecodable(path: layout.absolute(asset.rollPath), reason: "no thumbnail was written")
        }
        return path
    }

    /// Makes whatever of `asset`'s thumbnails is missing, library and desktop, from
    /// one decode; nothing when all are there. Returns whether it decoded.
    /// A failure leaves a marker, so a restart does not try the same bytes again.
    @discardableResult
    public func make(_ asset: AssetRecord, retryingFailure: Bool) throws(ThumbnailError) -> Bool {
        guard asset.deletedAt == nil else { return false }
        let rollFile = layout.absolute(asset.rollPath)
        if !retryingFailure, let reason = files.failure(hash: asset.hash) {
            throw .undecodable(path: rollFile, reason: reason)
        }
        let missing = ThumbnailSize.allCases.filter { files.existingPath(hash: asset.hash, size: $0) == nil }
        let entries = try desktopEntries(asset)
        guard !missing.isEmpty || !entries.isEmpty else { return false }

        var renditions = missing.map { ThumbnailRendition.jpeg($0.rawValue) }
        var desktopPaths: [BytePath] = []
        for entry in entries {
            for (size, path) in entry.missing {
                renditions.append(ThumbnailRendition(edge: size.rawValue, encoding: .png(text: entry.text)))
                desktopPaths.append(path)
            }
        }
        let made: [EncodedThumbnail]
        do {
            made = try decode(rollFile, info: asset.info, renditions: renditions)
        } catch {
            if case .undecodable(_, let reason) = error {
                files.recordFailure(hash: asset.hash, reason: reason)
            }
            throw error
        }
        do throws(SystemError) {
            for (size, thumbnail) in zip(missing, made) {
                try store(thumbnail.bytes, at: path(hash: asset.hash, size: size))
            }
            if let desktop {
                for (path, thumbnail) in zip(desktopPaths, made.dropFirst(missing.count)) {
                    try desktop.write(thumbnail.bytes, to: path)
                }
            }
        } catch {
            throw .system(error)
        }
        files.clearFailure(hash: asset.hash)
        return true
    }

    /// Assets in the library whose thumbnails are still to make (missing, and not
    /// known to be undecodable), oldest first: what the background queue resumes with.
    /// `stop` is asked before each asset: the scan ends early when it says so.
    public func pending(stop: () -> Bool = { false }) throws(ThumbnailError) -> [AssetID] {
        let settled = SettledThumbnails(files: files, stop: stop)
        var pending: [AssetID] = []
        do {
            try catalog.forEachLiveAssetHash {
                if stop() { return false }
                if settled.isPending(hash: $0.hash) { pending.append($0.id) }
                return true
            }
        } catch {
            throw .catalog(error)
        }
        return pending
    }

    /// A stored thumbnail (a JPEG) as a PNG of the same size, for `thumb -o FILE.png`.
    public func png(of thumbnail: BytePath) throws(ThumbnailError) -> [UInt8] {
        let rendition = ThumbnailRendition(edge: ThumbnailSize.viewing.rawValue, encoding: .png(text: []))
        let fd: FileDescriptor
        let size: Int64
        do {
            fd = try Sys.openForReading(thumbnail)
            size = try fd.status().size
        } catch {
            throw .system(error)
        }
        defer { fd.close() }
        let request = ThumbnailRequest(source: .image, renditions: [rendition])
        guard let made = try maker.make(fd, path: thumbnail, size: size, request).first else {
            throw .undecodable(path: thumbnail, reason: "nothing was encoded")
        }
        return made.bytes
    }

    /// The asset with `id`, through this store's catalog connection.
    public func asset(_ id: AssetID) throws(ThumbnailError) -> AssetRecord? {
        do {
            return try catalog.asset(id: id)
        } catch {
            throw .catalog(error)
        }
    }

    // MARK: Private

    private func desktopEntries(_ asset: AssetRecord) throws(ThumbnailError) -> [DesktopThumbnailCache.Entry]
    {
        guard let desktop else { return [] }
        var paths = [layout.absolute(asset.rollPath)]
        do {
            for membership in try catalog.memberships(ofAsset: asset.id) where membership.isActive {
                guard let album = try catalog.album(id: membership.albumID) else { continue }
                paths.append(layout.albumFolder(album).appending(membership.entryName))
            }
        } catch {
            throw .catalog(error)
        }
        return paths.compactMap { desktop.entry(for: $0) }
    }

    private func decode(_ rollFile: BytePath, info: MediaInfo, renditions: [ThumbnailRendition])
        throws(ThumbnailError) -> [EncodedThumbnail]
    {
        let fd: FileDescriptor
        let size: Int64
        do {
            fd = try Sys.openForReading(rollFile)
            size = try fd.status().size
        } catch {
            throw .system(error)
        }
        defer { fd.close() }
        let request = ThumbnailRequest(source: .init(info), renditions: renditions)
        return try maker.make(fd, path: rollFile, size: size, request)
    }

    /// Temp-then-rename: the temporary file is in `.photofiler/tmp`, the one place
    /// partial files may be, on the same file system.
    private func store(_ bytes: [UInt8], at path: BytePath) throws(SystemError) {
        _ = try Sys.makeDirectories(path.parent)
        try AtomicFileWrite.write(bytes, to: path, temporaryIn: layout.temporary, mode: 0o644)
    }
}
