import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem

/// Everything that happens to an asset after it is filed: leaving an album, going
/// to Recently Deleted and back, being purged, and the Roll or an album being
/// changed by hand. Runs on the filer's queue, with the filer's connections.
public struct AssetLifecycle {
    /// How long Recently Deleted keeps an asset.
    public static let retention: Double = 30 * 24 * 3600

    package let filer: Filer
    var layout: LibraryLayout { filer.layout }
    var catalog: Catalog { filer.catalog }

    public init(filer: Filer) { self.filer = filer }

    /// `photofiler rm ID`: the roll file moves to Recently Deleted, its album entries go
    /// (the memberships stay, so `restore` brings them back).
    ///
    /// Safe beside a running daemon (photofiler(1) "Deletion"): the bytes are linked into
    /// Recently Deleted, then the catalog records the deletion, and only then do the
    /// roll file and the album entries go, so the daemon sees the removal of an
    /// asset the catalog already calls deleted and leaves its memberships alone,
    /// however long this process waited for the catalog's lock.
    public func moveToRecentlyDeleted(_ id: AssetID) throws(FilingError) -> AssetRecord {
        var asset = try existing(id)
        if asset.isDeleted { return asset }
        let rollFile = layout.absolute(asset.rollPath)
        if try filer.statusIfExists(rollFile) == nil {
            // Moved within the Roll or removed by hand while no daemon ran: the reconcile
            // tells the two apart (a move is not a deletion: photofiler(1) "Deletion"), as at a start-up.
            _ = try Reconciler(filer: filer).reconcileChangedFolders { _ in }
            asset = try existing(id)
            if asset.isDeleted { return asset }
        }
        let memberships = try filer.activeMemberships(of: asset.id)
        try requireRemovable(
            [rollFile] + (asset.liveVideo?.rollPath.map { [layout.absolute($0)] } ?? [])
                + memberships.flatMap { entryPaths(of: $0.membership, in: $0.album) })
        let held = try holdRecentlyDeleted()
        defer { held.close() }
        let trashPath = try linkIntoRecentlyDeleted(asset.rollPath)
        // A Live Photo's video goes with it.
        let videoTrash = try asset.liveVideo?.rollPath.map { (path) throws(FilingError) in
            try linkIntoRecentlyDeleted(path)
        }
        let kinds = try entryKinds(of: memberships)
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.write { () throws(CatalogError) in
                try catalog.markDeleted(id, at: filer.now(), trashPath: trashPath)
                for (album, symbolic) in kinds { try catalog.setSymbolic(symbolic, asset: id, album: album) }
                if let videoPath = asset.liveVideo?.rollPath {
                    try catalog.setLiveVideoLocation(of: id, rollPath: videoPath, trashPath: videoTrash)
                }
            }
        }
        try removeAlbumEntries(of: memberships)
        for path in [asset.rollPath] + (asset.liveVideo?.rollPath.map { [$0] } ?? []) {
            let file = layout.absolute(path)
            try filer.systemCall(file) { () throws(SystemError) in
                try Sys.unlinkIfPresent(file)
                try Sys.syncDirectory(file.parent)
            }
        }
        return try existing(id)
    }

    /// `photofiler restore ID`: back into the Roll and every album it was in, through
    /// the filing pipeline (its Recently Deleted file is the bytes).
    public func restore(_ id: AssetID) throws(FilingError) -> AssetRecord {
        let asset = try existing(id)
        guard asset.isDeleted else { return asset }
        guard let trashPath = asset.trashPath else { throw .deletedOutside(id: id) }
        let trashFile = layout.absolute(trashPath)
        guard try filer.statusIfExists(trashFile) != nil else {
            // Removed from Recently Deleted by hand: nothing of it is left, and it is no
            // longer listed there.
            try filer.catalogCall { () throws(CatalogError) in
                try catalog.markDeleted(id, at: asset.deletedAt ?? filer.now(), trashPath: nil)
            }
            throw .deletedOutside(id: id)
        }
        try filer.restore(asset, from: trashFile)
        let restored = try existing(id)
        // A half of a Live Photo back beside its other half, filed meanwhile, is one
        // asset again, as when it was first filed (any time apart: photofiler(1) "Live Photos").
        guard restored.liveVideo == nil, let identifier = restored.info.live.contentIdentifier else {
            return restored
        }
        return try LivePhotoPairing(filer: filer).pair(contentIdentifier: identifier) ?? restored
    }

    /// `photofiler rm ID --album NAME`: the asset leaves that album; the Roll keeps it.
    public func removeFromAlbum(_ id: AssetID, album name: AlbumName) throws(FilingError) {
        let asset = try existing(id)
        guard
            let album = try filer.catalogCall({ () throws(CatalogError) in
                try catalog.album(named: name.value)
            })
        else { throw .noSuchAlbum(name.value) }
        guard
            let membership = try filer.catalogCall({ () throws(CatalogError) in
                try catalog.membership(asset: asset.id, album: album.id)
            }), membership.isActive
        else { throw .notInAlbum(id: id, album: name.value) }
        try requireRemovable(entryPaths(of: membership, in: album))
        // The catalog first, then the files (as `moveToRecentlyDeleted`).
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.endMembership(asset: id, album: album.id, at: filer.now())
        }
        try unlinkEntries(of: membership)
    }

    public func setFavorite(_ favorite: Bool, _ id: AssetID) throws(FilingError) -> AssetRecord {
        _ = try existing(id)
        try filer.catalogCall { () throws(CatalogError) in try catalog.setFavorite(favorite, of: id) }
        return try existing(id)
    }

    /// Hides the asset (`photofiler hide`) or shows it again; its files and albums stay as they are.
    public func setHidden(_ hidden: Bool, _ id: AssetID) throws(FilingError) -> AssetRecord {
        _ = try existing(id)
        try filer.catalogCall { () throws(CatalogError) in try catalog.setHidden(hidden, of: id) }
        return try existing(id)
    }

    /// The lock a deletion holds shared from its first link into Recently Deleted
    /// until it is recorded, so that `removeLeftoverNames` never takes a name that is
    /// about to be recorded for one; closing the descriptor lets it go (as a crash does).
    func holdRecentlyDeleted() throws(FilingError) -> FileDescriptor {
        let path = layout.recentlyDeletedLockPath
        return try filer.systemCall(path) { () throws(SystemError) -> FileDescriptor in
            let fd = try Sys.openOrCreate(path)
            do throws(SystemError) {
                try fd.lockShared()
            } catch {
                fd.close()
                throw error
            }
            return fd
        }
    }

    /// Links a roll file into Recently Deleted (`linkIntoRecentlyDeleted(file:preferred:)`).
    package func linkIntoRecentlyDeleted(_ rollPath: BytePath) throws(FilingError) -> BytePath {
        try linkIntoRecentlyDeleted(file: layout.absolute(rollPath), preferred: rollPath.lastComponent)
    }

    /// Links `file` into Recently Deleted under `preferred` or a free variant, and
    /// syncs the folder; returns its path relative to the library. A name there that
    /// already is this file (the link of a deletion a crash cut short) is taken as it
    /// is, so that the deletion made again never leaves a second name behind.
    func linkIntoRecentlyDeleted(file: BytePath, preferred: BytePath) throws(FilingError) -> BytePath {
        let folder = layout.recentlyDeleted
        let name = try filer.systemCall(file) { () throws(SystemError) -> BytePath in
            try Sys.makeDirectories(folder)
            let name = try NameAllocator.hardLink(file, into: folder, preferred: preferred)
            try Sys.syncDirectory(folder)
            return name
        }
        return LibraryLayout.recentlyDeletedFolderName.appending(name)
    }

    /// Deletes for good what Recently Deleted has held longer than 30 days.
    @discardableResult
    public func purgeExpired() throws(FilingError) -> Int {
        let expired = try filer.catalogCall { () throws(CatalogError) in
            try catalog.assetsDeleted(before: filer.now() - Self.retention)
        }
        for asset in expired {
            for trash in [asset.trashPath, asset.liveVideo?.trashPath].compactMap({ $0 }) {
                try filer.systemCall(layout.absolute(trash)) { () throws(SystemError) in
                    try Sys.unlinkIfPresent(layout.absolute(trash))
                }
            }
            try filer.catalogCall { () throws(CatalogError) in try catalog.removeAsset(asset.id) }
            ThumbnailFiles(layout: layout).remove(hash: asset.hash)
        }
        return expired.count
    }

    /// A roll file was removed by hand: its entries leave every album and the asset is
    /// marked deleted (its bytes are gone, so there is nothing to restore but a new drop).
    ///
    /// As on a phone, the deletion can be undone for 30 days where the bytes still
    /// exist: an album entry that is a hard link is the same file, so one is linked
    /// into Recently Deleted before the entries go (`restore` then works). Where
    /// nothing is left (symbolic links only), the asset is deleted without a copy:
    /// Recently Deleted does not list it, and `restore` says why.
    public func rollFileRemoved(_ asset: AssetRecord) throws(FilingError) {
        guard !asset.isDeleted else { return }
        let held = try holdRecentlyDeleted()
        defer { held.close() }
        let trashPath = try keepSurvivingCopy(of: asset)
        // A Live Photo's video goes to Recently Deleted with it: from the Roll, or
        // from an album entry when it was removed from the Roll too.
        let videoPath = asset.liveVideo?.rollPath
        var videoTrash: BytePath?
        var nothingLeftOfVideo = false
        if let videoPath {
            do {
                videoTrash = try linkIntoRecentlyDeleted(videoPath)
            } catch .system(let error) where error.errno == .noSuchFile {
                videoTrash = try keepSurvivingVideoCopy(of: asset)
                nothingLeftOfVideo = videoTrash == nil
            } catch {
                // It stays in the Roll, recorded there: `restore` links it back from there.
            }
        }
        let memberships = try filer.activeMemberships(of: asset.id)
        let kinds = try entryKinds(of: memberships)
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.write { () throws(CatalogError) in
                try catalog.markDeleted(asset.id, at: filer.now(), trashPath: trashPath)
                for (album, symbolic) in kinds {
                    try catalog.setSymbolic(symbolic, asset: asset.id, album: album)
                }
                if let videoPath {
                    try catalog.setLiveVideoLocation(of: asset.id, rollPath: videoPath, trashPath: videoTrash)
                }
            }
        }
        if let videoPath, videoTrash != nil {
            let file = layout.absolute(videoPath)
            try filer.systemCall(file) { () throws(SystemError) in
                try Sys.unlinkIfPresent(file)
                try Sys.syncDirectory(file.parent)
            }
        }
        try removeAlbumEntries(of: memberships)
        if nothingLeftOfVideo {
            // The asset is a plain still now, which `restore` can bring back.
            try filer.catalogCall { () throws(CatalogError) in try catalog.detachLiveVideo(of: asset.id) }
        }
    }

    /// An album entry was removed by hand: the membership ends and is never re-added by a scan.
    public func albumEntryRemoved(_ membership: MembershipRecord) throws(FilingError) {
        guard membership.isActive else { return }
        // A Live Photo leaves the album whole: its other entry goes too.
        try unlinkEntries(of: membership)
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.endMembership(asset: membership.assetID, album: membership.albumID, at: filer.now())
        }
    }

    /// Whether each of the asset's album entries is a symbolic link, by album, for
    /// `restore` to make it again as it was. An entry already gone tells nothing
    /// and is taken as hard, the default.
    private func entryKinds(of memberships: [(membership: MembershipRecord, album: AlbumRecord)])
        throws(FilingError) -> [(AlbumID, Bool)]
    {
        var kinds: [(AlbumID, Bool)] = []
        for (membership, album) in memberships {
            let entry = layout.albumFolder(album).appending(membership.entryName)
            let status = try filer.statusIfExists(entry)
            kinds.append((album.id, status?.isSymbolicLink ?? false))
        }
        return kinds
    }

    private func removeAlbumEntries(of memberships: [(membership: MembershipRecord, album: AlbumRecord)])
        throws(FilingError)
    {
        for (membership, _) in memberships { try unlinkEntries(of: membership) }
    }

    /// A membership's album entries (a Live Photo has two).
    private func entryPaths(of membership: MembershipRecord, in album: AlbumRecord) -> [BytePath] {
        [membership.entryName, membership.videoEntryName].compactMap { $0 }.map {
            layout.albumFolder(album).appending($0)
        }
    }

    /// Refuses, before anything changes, a removal that its folders' permissions
    /// would stop half-way: the catalog records first and the files go after, so a
    /// file that cannot go would be left behind a row that says it went (and
    /// `restore` would then file its bytes a second time). A folder not there has
    /// nothing to remove; one that cannot be looked at is left to the removal.
    private func requireRemovable(_ files: [BytePath]) throws(FilingError) {
        for folder in Set(files.map(\.parent)) {
            do {
                try Sys.checkAccess(folder, mode: W_OK | X_OK)
            } catch  where error.errno.isPermission {
                throw .permissionDenied(path: folder, call: "unlink", library: layout.root)
            } catch {
                continue
            }
        }
    }

    /// Removes a membership's album entries (a Live Photo has two), where present.
    package func unlinkEntries(of membership: MembershipRecord) throws(FilingError) {
        guard
            let album = try filer.catalogCall({ () throws(CatalogError) in
                try catalog.album(id: membership.albumID)
            })
        else { return }
        for entry in [membership.entryName, membership.videoEntryName].compactMap({ $0 }) {
            try filer.systemCall(layout.albumFolder(album)) { () throws(SystemError) in
                try filer.albums.unlinkEntry(entry, in: album)
            }
        }
    }

    package func existing(_ id: AssetID) throws(FilingError) -> AssetRecord {
        guard let asset = try filer.catalogCall({ () throws(CatalogError) in try catalog.asset(id: id) })
        else {
            throw .unknownAsset(id: id)
        }
        return asset
    }
}
