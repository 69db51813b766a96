import Foundation
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSandbox
import PhotoFilerSystem

/// Files one file into the library: the one and only way content enters it.
///
/// Order, each step durable before the next (SPEC "Never lose, never duplicate"):
/// open without following links and check the kind on the descriptor; sniff and
/// read metadata; hash (copying into `.photofiler/tmp` when the source must stay
/// or lives on another file system); look the hash up; link the bytes into the
/// Roll under a free name and sync the folder; link into the album and sync it;
/// commit the catalog row; only then remove the source (move mode).
///
/// Not thread-safe: it owns a catalog connection, a media reader and a buffer,
/// so its owner confines it to one serial queue.
public final class Filer {
    public let layout: LibraryLayout
    public let catalog: Catalog
    /// Opens, checks, sniffs and hashes sources (its media reader opened on first use).
    package let inspector: FileInspector
    package let albums: AlbumLinker
    package let log: Logger
    private var temporaryCounter = 0
    /// The clock, replaceable in tests.
    public var now: () -> Double = { Date().timeIntervalSince1970 }

    public init(layout: LibraryLayout, catalog: Catalog, helpers: HelperPool = .shared, log: Logger)
        throws(SystemError)
    {
        self.layout = layout
        self.catalog = catalog
        self.log = log
        self.albums = AlbumLinker(layout: layout, catalog: catalog, log: log)
        self.inspector = try FileInspector(layout: layout, helpers: helpers)
    }

    public func file(_ request: FilingRequest) throws(FilingError) -> FilingResult {
        do {
            return pairingLivePhoto(try fileOnce(request))
        } catch .catalog(let error) {
            throw FilingError.from(error, library: layout, source: LibraryLayout.absolute(request.source))
        }
    }

    private func fileOnce(_ request: FilingRequest) throws(FilingError) -> FilingResult {
        let (source, fd, before) = try inspector.openSource(request)
        defer { fd.close() }

        if request.mode == .keep {
            let seen = try catalogCall {
                () throws(CatalogError) in
                try catalog.hasSeenSource(
                    path: source, size: before.size, modificationNanoseconds: before.modificationNanoseconds)
            }
            if seen { return FilingResult(outcome: .alreadySeen, asset: nil, album: nil) }
        }

        let info = try inspector.readMedia(fd, source: source, size: before.size)

        // A copy is made while hashing, so the file is read once.
        let needsCopy = inspector.mustCopy(request, status: before)
        var temporary: BytePath? = nil
        defer {
            if let temporary { try? Sys.unlink(temporary) }
        }
        let hashed: (hash: String, size: Int64)
        var scan = EndMarkerScans(mimeType: info.mimeType)
        if needsCopy {
            let path = nextTemporaryPath()
            let out = try systemCall(source) { () throws(SystemError) in
                try Sys.createExclusive(path, mode: 0o644)
            }
            temporary = path
            defer { out.close() }
            hashed = try systemCall(source) { () throws(SystemError) in
                try inspector.copier.copy(fd, path: source, to: out, scanning: &scan)
            }
        } else {
            hashed = try systemCall(source) { () throws(SystemError) in
                try inspector.copier.hash(fd, path: source, scanning: &scan)
            }
        }
        try inspector.verifyEnd(scan, mimeType: info.mimeType, source: source)

        try inspector.checkUnchanged(fd, source: source, before: before, bytesRead: hashed.size)
        if request.mode == .keep, try sameBytesAsLastFiled(source, hash: hashed.hash, status: before) {
            return FilingResult(outcome: .alreadySeen, asset: nil, album: nil)
        }
        let album = try request.album.map { (name) throws(FilingError) in
            try albums.album(named: name, now: now())
        }

        let existing = try catalogCall { () throws(CatalogError) in try catalog.asset(hash: hashed.hash) }
        let result: FilingResult
        if let live = try catalogCall({ () throws(CatalogError) in
            try catalog.asset(liveVideoHash: hashed.hash)
        }),
            !live.isDeleted
        {
            // A Live Photo's video again: that asset, whichever half came.
            result = try joinDuplicate(live, album: album, request: request, source: source)
        } else if let existing, !existing.isDeleted {
            result = try joinDuplicate(existing, album: album, request: request, source: source)
        } else {
            // Bytes for the Roll: the copy, or the source itself (synced first: the app
            // that wrote it may never have called fsync).
            let bytes: BytePath
            if let temporary {
                bytes = temporary
            } else {
                try systemCall(source) { () throws(SystemError) in try fd.sync() }
                bytes = source
            }
            let created = CaptureDates.resolve(
                embedded: info.embeddedDate, fileName: source.lastComponent,
                modificationSeconds: before.modificationNanoseconds / 1_000_000_000)
            let rollPath = try placeInRoll(
                bytes, name: source.lastComponent, created: created, source: source)
            if let temporary {
                try? Sys.unlink(temporary)
            }
            temporary = nil
            if let existing {
                result = try restore(
                    existing, rollPath: rollPath, album: album, request: request, source: source)
            } else {
                let asset = AssetRecord(
                    id: 0, rollPath: rollPath, hash: hashed.hash, info: info, created: created,
                    addedAt: now(),
                    size: hashed.size, originalName: source.lastComponent, sourceInbox: request.origin)
                do {
                    result = try record(asset, album: album, request: request, source: source, stat: before)
                } catch {
                    // The source still holds the bytes: take the new roll file back
                    // rather than leave a roll file without a row (a read-only album
                    // folder, a full catalog disk); the next try starts clean.
                    removeUnrecorded(rollPath)
                    throw error
                }
            }
        }
        if request.mode == .keep, result.outcome != .filed {
            if let id = result.asset?.id {
                try catalogCall { () throws(CatalogError) in
                    try catalog.recordSource(
                        path: source, size: before.size,
                        modificationNanoseconds: before.modificationNanoseconds,
                        asset: id, hash: hashed.hash)
                }
            }
        }
        if request.mode == .move { removeSource(source) }
        return result
    }

    // MARK: Steps

    /// Keep mode: true when this inbox path was filed before with these very bytes
    /// (only its times or mode changed: `touch`, `chmod`, an app's re-sync). Its new
    /// times are remembered, so the next look skips it without reading it.
    private func sameBytesAsLastFiled(_ source: BytePath, hash: String, status: FileStatus)
        throws(FilingError) -> Bool
    {
        try catalogCall { () throws(CatalogError) -> Bool in
            guard try catalog.seenSourceHash(path: source) == hash else { return false }
            try catalog.touchSource(
                path: source, size: status.size, modificationNanoseconds: status.modificationNanoseconds)
            return true
        }
    }

    /// Links `bytes` into `Roll/YYYY/MM/` under the original name or a free variant,
    /// and syncs the folder. Returns the roll path, relative to the library.
    private func placeInRoll(_ bytes: BytePath, name: BytePath, created: CaptureDate, source: BytePath)
        throws(FilingError) -> BytePath
    {
        let (rollPath, folder) = try linkIntoRoll(bytes, name: name, created: created, source: source)
        try systemCall(source) { () throws(SystemError) in try Sys.syncDirectory(folder) }
        return rollPath
    }

    /// Links `bytes` into `Roll/YYYY/MM/` under the original name or a free variant;
    /// returns the roll path (relative) and the month folder (absolute). A new month
    /// folder's parents are synced at once; the month folder itself is left to the
    /// caller, so that a group of files syncs it once.
    package func linkIntoRoll(_ bytes: BytePath, name: BytePath, created: CaptureDate, source: BytePath)
        throws(FilingError) -> (rollPath: BytePath, folder: BytePath)
    {
        let folder = layout.rollFolder(for: created)
        let absoluteFolder = layout.absolute(folder)
        let placed = try systemCall(source) { () throws(SystemError) -> BytePath in
            if try Sys.makeDirectories(absoluteFolder) {
                try Sys.syncDirectory(absoluteFolder.parent)
                try Sys.syncDirectory(absoluteFolder.parent.parent)
            }
            return try NameAllocator.allocate(preferred: name) { (candidate) throws(SystemError) in
                try Sys.link(bytes, to: absoluteFolder.appending(candidate))
            }
        }
        return (folder.appending(placed), absoluteFolder)
    }

    /// Writes the new asset's row and membership in one transaction, after its album link.
    private func record(
        _ asset: AssetRecord, album: AlbumRecord?, request: FilingRequest, source: BytePath, stat: FileStatus
    ) throws(FilingError) -> FilingResult {
        var asset = asset
        var entry: BytePath?
        do throws(FilingError) {
            entry = try album.map { (album) throws(FilingError) -> BytePath in
                try linkAndSync(asset.rollPath, into: album, kind: request.link, source: source)
            }
            try catalogCall { () throws(CatalogError) in
                try catalog.write {
                    () throws(CatalogError) in
                    asset.id = try catalog.insertAsset(asset)
                    if let album, let entry {
                        try catalog.addMembership(
                            asset: asset.id, album: album.id, entryName: entry, at: asset.addedAt)
                    }
                    if request.mode == .keep {
                        try catalog.recordSource(
                            path: source, size: stat.size,
                            modificationNanoseconds: stat.modificationNanoseconds,
                            asset: asset.id, hash: asset.hash)
                    }
                }
            }
        } catch {
            // Not recorded: the album entry goes (the caller takes the roll file back),
            // so a failed filing leaves nothing behind; a crash here is mended by the reconcile.
            if let album, let entry { try? albums.unlinkEntry(entry, in: album) }
            throw error
        }
        return FilingResult(outcome: .filed, asset: asset, album: album)
    }

    /// Known content: joins the album unless already a member (or, from a keep-mode
    /// inbox, unless the user took it out of that album).
    private func joinDuplicate(
        _ asset: AssetRecord, album: AlbumRecord?, request: FilingRequest, source: BytePath
    )
        throws(FilingError) -> FilingResult
    {
        guard let album else {
            return FilingResult(outcome: .duplicate(joinedAlbum: false), asset: asset, album: nil)
        }
        let membership = try catalogCall { () throws(CatalogError) in
            try catalog.membership(asset: asset.id, album: album.id)
        }
        if let membership, membership.isActive || request.mode == .keep {
            return FilingResult(outcome: .duplicate(joinedAlbum: false), asset: asset, album: album)
        }
        let entries = try linkResources(of: asset, into: album, kind: request.link, source: source)
        try catalogCall { () throws(CatalogError) in
            try catalog.write { () throws(CatalogError) in
                try catalog.addMembership(
                    asset: asset.id, album: album.id, entryName: entries.still, at: now())
                if let video = entries.video {
                    try catalog.setVideoEntry(video, asset: asset.id, album: album.id)
                }
            }
        }
        return FilingResult(outcome: .duplicate(joinedAlbum: true), asset: asset, album: album)
    }

    /// The content of a deleted asset came back at `rollPath`: the asset is restored,
    /// with its old album entries and the new album.
    private func restore(
        _ asset: AssetRecord, rollPath: BytePath, album: AlbumRecord?, request: FilingRequest,
        source: BytePath
    ) throws(FilingError) -> FilingResult {
        var asset = asset
        asset.rollPath = rollPath
        asset.deletedAt = nil
        let oldTrash = asset.trashPath
        asset.trashPath = nil
        let lifecycle = AssetLifecycle(filer: self)
        try lifecycle.relinkAndRecordRestore(asset, extraAlbum: album, link: request.link, source: source)
        if let oldTrash { try? Sys.unlink(layout.absolute(oldTrash)) }
        let refreshed =
            try catalogCall { () throws(CatalogError) in try catalog.asset(id: asset.id) } ?? asset
        return FilingResult(outcome: .restored, asset: refreshed, album: album)
    }

    // MARK: The last step, shared with the group path

    /// Move mode's last step, once the asset is durable: the inbox copy goes. A
    /// failure here loses nothing (the file is filed), so it is a warning.
    package func removeSource(_ source: BytePath) {
        do {
            try Sys.unlinkIfPresent(source)
        } catch {
            log.warning(
                "'\(source.display)' was filed but could not be removed from its inbox (\(error.errno.message)); remove it by hand."
            )
        }
    }

    // MARK: Helpers

    /// Removes a roll file placed for an asset whose recording then failed.
    private func removeUnrecorded(_ rollPath: BytePath) {
        let path = layout.absolute(rollPath)
        try? Sys.unlink(path)
        try? Sys.syncDirectory(path.parent)
    }

    package func linkAndSync(_ rollPath: BytePath, into album: AlbumRecord, kind: LinkKind, source: BytePath)
        throws(FilingError) -> BytePath
    {
        try systemCall(source) { () throws(SystemError) -> BytePath in
            let entry = try albums.link(rollPath: rollPath, into: album, kind: kind)
            try Sys.syncDirectory(layout.albumFolder(album))
            return entry
        }
    }

    /// Links the asset's roll file, and a Live Photo's paired video, into the album
    /// and syncs it: the entries' names.
    package func linkResources(
        of asset: AssetRecord, into album: AlbumRecord, kind: LinkKind, source: BytePath
    )
        throws(FilingError) -> (still: BytePath, video: BytePath?)
    {
        try systemCall(source) { () throws(SystemError) -> (BytePath, BytePath?) in
            let entry = try albums.link(rollPath: asset.rollPath, into: album, kind: kind)
            let video = try asset.liveVideo?.rollPath.map { (path) throws(SystemError) in
                try albums.link(rollPath: path, into: album, kind: kind)
            }
            try Sys.syncDirectory(layout.albumFolder(album))
            return (entry, video)
        }
    }

    private func nextTemporaryPath() -> BytePath {
        temporaryCounter += 1
        return layout.temporary.appending("filing-\(getpid())-\(temporaryCounter).tmp")
    }

    package func systemCall<R>(_ source: BytePath, _ body: () throws(SystemError) -> R) throws(FilingError)
        -> R
    {
        do {
            return try body()
        } catch {
            throw FilingError.from(error, library: layout, source: source)
        }
    }

    package func catalogCall<R>(_ body: () throws(CatalogError) -> R) throws(FilingError) -> R {
        do {
            return try body()
        } catch {
            throw .catalog(error)
        }
    }
}
