import Glibc
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSandbox
import PhotoFilerSystem

/// The library's two thumbnail sizes (photofiler(1) "Thumbnails"), by longest edge.
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
    /// is not tried again here: `thumb --all` retries. A desktop cache entry that
    /// cannot be looked at is left to the daemon and `thumb --all` to report.
    public func ensure(asset: AssetRecord, size: ThumbnailSize) throws(ThumbnailError) -> BytePath {
        if let path = try madePath(of: asset, size: size) { return path }
        try make(asset, retryingFailure: false, desktopProblem: { _ in })
        guard let path = try madePath(of: asset, size: size) else {
            throw .undecodable(path: layout.absolute(asset.currentPath), reason: "no thumbnail was written")
        }
        return path
    }

    /// The thumbnail of `asset` at `size` when it is made, nil when it is not;
    /// `.couldNotLook` when it could not be looked at.
    public func madePath(of asset: AssetRecord, size: ThumbnailSize) throws(ThumbnailError) -> BytePath? {
        try look { () throws(SystemError) in try files.existingPath(hash: asset.hash, size: size) }
    }

    /// Makes whatever of `asset`'s thumbnails is missing, library and desktop, from
    /// one decode; nothing when all are there. Returns whether it decoded.
    /// A failure leaves a marker, so a restart does not try the same bytes again.
    /// What could not be looked at is not missing: a library thumbnail or marker so
    /// throws `.couldNotLook` before anything is decoded; a desktop cache entry so is
    /// left out and told to `desktopProblem` (the library's thumbnails are still made).
    @discardableResult
    public func make(
        _ asset: AssetRecord, retryingFailure: Bool, desktopProblem: (ThumbnailError) -> Void
    ) throws(ThumbnailError) -> Bool {
        // In Recently Deleted its bytes are its file there (shown in that album); with
        // nothing of it left (none recorded, or removed from there by hand), there is
        // nothing to decode.
        if asset.isDeleted {
            guard let trash = asset.trashPath.map(layout.absolute),
                try look({ () throws(SystemError) in try Sys.statusIfExists(trash) }) != nil
            else { return false }
        }
        let file = layout.absolute(asset.currentPath)
        if !retryingFailure,
            let reason = try look({ () throws(SystemError) in try files.failure(hash: asset.hash) })
        {
            throw .undecodable(path: file, reason: reason)
        }
        var missing: [ThumbnailSize] = []
        for size in ThumbnailSize.allCases where try madePath(of: asset, size: size) == nil {
            missing.append(size)
        }
        // The desktop's entries are for the roll file and album entries, which a deleted asset has not.
        let entries = asset.isDeleted ? [] : try desktopEntries(asset, problem: desktopProblem)
        guard !missing.isEmpty || !entries.isEmpty else { return false }

        // Each desktop size is encoded once, without text; each path's entry is that PNG
        // with its own text chunks (`PNGWithoutText`).
        let desktopSizes = DesktopThumbnailCache.Size.allCases.filter { size in
            entries.contains { $0.missing.contains { $0.size == size } }
        }
        let renditions =
            missing.map { ThumbnailRendition.jpeg($0.rawValue) }
            + desktopSizes.map { ThumbnailRendition(edge: $0.rawValue, encoding: .png(text: [])) }
        let made: [EncodedThumbnail]
        do {
            made = try decode(file, info: asset.info, renditions: renditions)
        } catch {
            if case .undecodable(_, let reason) = error {
                files.recordFailure(hash: asset.hash, reason: reason)
            }
            throw error
        }
        var pngs: [DesktopThumbnailCache.Size: PNGWithoutText] = [:]
        for (size, thumbnail) in zip(desktopSizes, made.dropFirst(missing.count)) {
            guard let png = PNGWithoutText(thumbnail.bytes) else {
                throw .undecodable(path: file, reason: "the helper answered a PNG without its header")
            }
            pngs[size] = png
        }
        do throws(SystemError) {
            for (size, thumbnail) in zip(missing, made) {
                try store(thumbnail.bytes, at: path(hash: asset.hash, size: size))
            }
            if let desktop {
                for entry in entries {
                    for (size, path) in entry.missing {
                        guard let png = pngs[size] else { continue }
                        try desktop.write(png.with(entry.text), to: path)
                    }
                }
            }
            try files.clearFailure(hash: asset.hash)
        } catch {
            throw .system(error)
        }
        return true
    }

    /// Assets in the library whose thumbnails are still to make (missing, and not
    /// known to be undecodable), oldest first: what the background queue resumes with.
    /// Those whose thumbnails could not be looked at are not among them: `unreadable`
    /// says why, once per folder. `stop` is asked before each asset: the scan ends
    /// early when it says so.
    public func pending(stop: () -> Bool = { false }) throws(ThumbnailError)
        -> (ids: [AssetID], unreadable: [ThumbnailError])
    {
        let settled = SettledThumbnails(files: files, stop: stop)
        var pending: [AssetID] = []
        var unreadable: [BytePath: ThumbnailError] = [:]
        do {
            try catalog.forEachLiveAssetHash {
                if stop() { return false }
                do throws(ThumbnailError) {
                    if try settled.isPending(hash: $0.hash) { pending.append($0.id) }
                } catch {
                    if case .couldNotLook(_, let folder, _) = error, unreadable[folder] == nil {
                        unreadable[folder] = error
                    }
                }
                return true
            }
        } catch {
            throw .catalog(error)
        }
        return (pending, unreadable.keys.sorted().map { unreadable[$0]! })
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

    /// A look that fails is `.couldNotLook` of the file looked at.
    private func look<Value>(_ body: () throws(SystemError) -> Value) throws(ThumbnailError) -> Value {
        do {
            return try body()
        } catch {
            throw .couldNotLook(error)
        }
    }

    private func desktopEntries(_ asset: AssetRecord, problem: (ThumbnailError) -> Void)
        throws(ThumbnailError)
        -> [DesktopThumbnailCache.Entry]
    {
        guard let desktop else { return [] }
        // A Live Photo's paired video is a file of its own in the Roll and the albums:
        // a file manager shows it with the still's picture, as the phone shows the pair.
        var paths = [asset.rollPath, asset.liveVideo?.rollPath].compactMap { $0.map(layout.absolute) }
        do {
            for membership in try catalog.memberships(ofAsset: asset.id) where membership.isActive {
                guard let album = try catalog.album(id: membership.albumID) else { continue }
                let folder = layout.albumFolder(album)
                paths.append(folder.appending(membership.entryName))
                if let video = membership.videoEntryName { paths.append(folder.appending(video)) }
            }
        } catch {
            throw .catalog(error)
        }
        var unreadable: SystemError?
        let sizes = desktop.wantedSizes()
        let entries = paths.compactMap { desktop.entry(for: $0, sizes: sizes, unreadable: &unreadable) }
        if let unreadable { problem(.couldNotLook(unreadable)) }
        return entries
    }

    private func decode(_ file: BytePath, info: MediaInfo, renditions: [ThumbnailRendition])
        throws(ThumbnailError) -> [EncodedThumbnail]
    {
        let fd: FileDescriptor
        let size: Int64
        do {
            fd = try Sys.openForReading(file)
            size = try fd.status().size
        } catch {
            throw .system(error)
        }
        defer { fd.close() }
        var made: [EncodedThumbnail] = []
        for start in stride(from: 0, to: renditions.count, by: ThumbnailRequest.mostRenditions) {
            let part = renditions[start..<min(start + ThumbnailRequest.mostRenditions, renditions.count)]
            let request = ThumbnailRequest(source: .init(info), renditions: Array(part))
            made += try maker.make(fd, path: file, size: size, request)
        }
        return made
    }

    /// Temp-then-rename: the temporary file is in `.photofiler/tmp`, the one place
    /// partial files may be, on the same file system.
    private func store(_ bytes: [UInt8], at path: BytePath) throws(SystemError) {
        _ = try Sys.makeDirectories(path.parent)
        try AtomicFileWrite.write(bytes, to: path, temporaryIn: layout.temporary, mode: 0o644)
    }
}
