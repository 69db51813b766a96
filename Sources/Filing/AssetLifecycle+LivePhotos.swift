import PhotoFilerCatalog
import PhotoFilerSystem

/// What the removal of a Live Photo's video from the Roll came to.
public enum LiveVideoRemoval: Sendable {
    /// The still stays: the asset is a plain still.
    case plainStill
    /// The still's roll file is gone too: the asset is deleted, both halves in Recently Deleted.
    case assetDeleted
}

/// A Live Photo's video through deletion and restore: it follows its still.
extension AssetLifecycle {
    /// A Live Photo's video was removed from the Roll. Only the video: the asset is a
    /// plain still again, and the video's album entries go. The still gone too (both
    /// halves removed at once, whichever removal is seen first: `IMG_1.MOV` sorts
    /// before `IMG_1.heic`): the asset is deleted, as when its still is removed, and
    /// the video's album entries, the last links to its bytes, keep it in Recently Deleted.
    @discardableResult
    public func liveVideoRemoved(_ asset: AssetRecord) throws(FilingError) -> LiveVideoRemoval {
        guard !asset.isDeleted, asset.liveVideo?.rollPath != nil else { return .plainStill }
        let still = layout.absolute(asset.rollPath)
        if try filer.statusIfExists(still) == nil {
            try rollFileRemoved(asset)
            return .assetDeleted
        }
        for (membership, album) in try filer.activeMemberships(of: asset.id) {
            guard let entry = membership.videoEntryName else { continue }
            try filer.systemCall(filer.layout.albumFolder(album)) { () throws(SystemError) in
                try filer.albums.unlinkEntry(entry, in: album)
            }
        }
        try filer.catalogCall { () throws(CatalogError) in try filer.catalog.detachLiveVideo(of: asset.id) }
        return .plainStill
    }

    /// A Live Photo's video was moved within the Roll: its new path is recorded and
    /// its symbolic album entries point there (hard links are the same inode).
    public func liveVideoMoved(_ asset: AssetRecord, to rollPath: BytePath) throws(FilingError) {
        try filer.catalogCall { () throws(CatalogError) in
            try filer.catalog.setLiveVideoLocation(of: asset.id, rollPath: rollPath, trashPath: nil)
        }
        try repointLiveVideoEntries(of: asset, to: rollPath)
    }

    /// Points the symbolic album entries of a Live Photo's video at `rollPath`.
    func repointLiveVideoEntries(of asset: AssetRecord, to rollPath: BytePath) throws(FilingError) {
        for (membership, album) in try filer.activeMemberships(of: asset.id) {
            guard let entryName = membership.videoEntryName else { continue }
            let entry = filer.layout.albumFolder(album).appending(entryName)
            try filer.systemCall(entry) { () throws(SystemError) in
                guard try Sys.statusIfExists(entry)?.isSymbolicLink == true else { return }
                try filer.albums.repoint(entryName, in: album, to: rollPath)
            }
        }
    }
}
